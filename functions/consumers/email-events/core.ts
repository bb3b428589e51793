/**
 * The SES events of urm's mail (functions/domain/email-events.ts): a hard
 * bounce or a complaint suppresses the player's address and goes on the
 * timeline, a soft bounce and a delivery go on the timeline. Everything
 * through the stream, under insert ids the event decides, so a redelivered
 * event is stored once.
 */
import { emailEventRecords } from '../../domain/email-events';
import { toStreamEntries, type RecordWriter, type StreamEntry } from '../../domain/ingest';
import type { SesEvent } from './schema';

export interface EmailEventsDeps {
  writer: RecordWriter;
  now: () => Date;
  newId: () => string;
}

export type EmailEventResult = { written: number } | { ignored: string };

/** The stream refused a record: thrown, so the event is delivered again. */
export class EmailEventNotWritten extends Error {
  override name = 'EmailEventNotWritten';
}

export function recordEmailEvent(deps: EmailEventsDeps) {
  return async (event: SesEvent): Promise<EmailEventResult> => {
    const outcome = emailEventRecords(event.detail);
    if ('ignored' in outcome) return outcome;
    const { appId, profile, event: timelineEvent } = outcome.records;
    const ids = { newId: deps.newId, now: deps.now };
    const entries: StreamEntry[] = [
      ...(profile ? toStreamEntries('profile', [profile], appId, ids) : []),
      ...toStreamEntries('event', [timelineEvent], appId, ids),
    ];
    const receipt = await deps.writer.write(entries);
    if (receipt.FailedRecordCount > 0) throw new EmailEventNotWritten(`the stream refused ${receipt.FailedRecordCount} of ${entries.length} records`);
    return { written: entries.length };
  };
}
