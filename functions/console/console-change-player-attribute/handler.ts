import { randomUUID } from 'node:crypto';
import { ingestStream, tables } from '../../manifest/resources';
import { maxBodyBytesOf } from '../../manifest/body-limits';
import { DynamoProfileStore } from '../../adapters/dynamo-profile-store';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { DynamoAuditLog } from '../../adapters/dynamo-audit-log';
import { changePlayerAttribute, type AttributeChange } from '../../back-office/players';
import { dynamo } from '../../adapters/clients/dynamo';
import { kinesis } from '../../adapters/clients/kinesis';
import { requireEnv } from '../../runtime/config';
import { profileIdOf } from '../../domain/profile-id';
import { consoleApi, type ConsoleEvent } from '../../http/console-auth';
import { jsonBody, validBody } from '../../http/json-body';
import { json } from '../../http/response';
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
