import { randomUUID } from 'node:crypto';
import { DUE_PARTITIONS } from '../../adapters/dynamo-send-gate';
import { containerGatedSend } from '../../adapters/senders';
import { furthestAheadMs, nowFor } from '../../runtime/clock';
import { makeSendDeferredHandler } from './make-handler';

const { send, outbox } = containerGatedSend();

export const handler = makeSendDeferredHandler({
  queue: {
    partitions: Array.from({ length: DUE_PARTITIONS }, (_, i) => `due#${i}`),
    due: (partition, by, limit) => outbox.due(partition, by, limit),
    take: (message, lease, until) => outbox.take(message, lease, until),
    done: (message, lease) => outbox.done(message, lease),
  },
  send,
  appTime: nowFor,
  aheadMs: furthestAheadMs,
  now: () => new Date(),
  newId: randomUUID,
});
