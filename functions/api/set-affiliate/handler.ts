import { randomUUID } from 'node:crypto';
import { ingestStream } from '../../manifest/resources';
import { KinesisRecordWriter } from '../../adapters/kinesis-record-writer';
import { kinesis } from '../../adapters/clients/kinesis';
import { requireEnv } from '../../runtime/config';
import { jsonApi } from '../../http/json-api';
import { json } from '../../http/response';
import { logger } from '../../runtime/logger';
import { setAffiliate } from './core';
import { validSetAffiliate } from './schema';

const writer = new KinesisRecordWriter(kinesis, requireEnv(ingestStream.envVar));
const attribute = setAffiliate({ writer, newId: randomUUID, now: () => new Date() });

export const handler = jsonApi({
  scopes: ['server'],
  validate: validSetAffiliate,
}).handler(async (event, context) => {
  const answer = await attribute(event.body, context.principal.appId);
  logger.info('Affiliate set', { app_id: context.principal.appId, message_id: answer.message_id });
  return json(200, answer);
});
