import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { containerTemplateSender } from '../../adapters/senders';
import { broadcastStore, segmentStore } from '../../adapters/stores';
import { furthestAheadMs, nowFor } from '../../runtime/clock';
import { makeSendBroadcastsHandler } from './make-handler';

const { apps, profiles, writer, sendTemplate } = containerTemplateSender();

export const handler = makeSendBroadcastsHandler({
  broadcasts: broadcastStore(),
  segments: segmentStore(),
  profiles,
  apps,
  writer,
  send: sendTemplate,
  appTime: nowFor,
  aheadMs: furthestAheadMs,
  now: () => new Date(),
  newId: randomUUID,
  sleep: (ms) => sleep(ms),
});
