import { randomUUID } from 'node:crypto';
import { ingestStream, tables } from '../shared/manifest/resources';
import { maxBodyBytesOf } from '../shared/manifest/body-limits';
import { DynamoProfileStore } from '../shared/adapters/dynamo-profile-store';
import { KinesisRecordWriter } from '../shared/adapters/kinesis-record-writer';
import { DynamoAuditLog } from '../shared/adapters/dynamo-audit-log';
import { changePlayerAttribute, type AttributeChange } from '../shared/back-office/players';
import { dynamo } from '../shared/clients/dynamo';
import { kinesis } from '../shared/clients/kinesis';
import { requireEnv } from '../shared/config';
import { profileIdOf } from '../shared/domain/profile-id';
import { consoleApi, type ConsoleEvent } from '../shared/http/console-auth';
import { jsonBody, validBody } from '../shared/http/json-body';
import { json } from '../shared/http/response';
import { validChangeAttribute } from './schema';

const change = changePlayerAttribute({
  profiles: new DynamoProfileStore(dynamo, requireEnv(tables.profiles.envVar)),
  writer: new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar)),
  audit: new DynamoAuditLog(dynamo, requireEnv(tables.auditLog.envVar)),
  newId: randomUUID,
  now: () => new Date(),
});

export const handler = consoleApi({ roles: ['admin', 'marketer'], mutates: true })
  .use(jsonBody({ maxBytes: maxBodyBytesOf('ConsoleChangePlayerAttribute') }))
  .use(validBody(validChangeAttribute))
  .handler(async (event: ConsoleEvent) => json(200, await change(event.console, profileIdOf(event.pathParameters), event.body as unknown as AttributeChange)));
