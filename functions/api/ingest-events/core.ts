/** POST /events: beyond its schema, what a browser key may send, then the shared ingestion. */
import type { Scope } from '../../domain/api-keys';
import { assertBrowserMayWrite, browserEventInsertId } from '../../domain/browser-access';
import { ingestRecords, type IngestDeps, type WriteReceipt } from '../../domain/ingest';
import type { EventRecord } from './schema';

export function ingestEvents(deps: IngestDeps) {
  const ingest = ingestRecords('event', deps);
  return (records: EventRecord[], appId: string, scope: Scope): Promise<WriteReceipt> => {
    if (scope !== 'browser') return ingest(records, appId);
    // A browser key reports the notification lifecycle and nothing else, under ids no server-key event can have.
    assertBrowserMayWrite('event', records);
    return ingest(
      records.map((record) => ({ ...record, urm_insert_id: browserEventInsertId(record) })),
      appId,
    );
  };
}
