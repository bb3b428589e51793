/** POST /events: everything an event needs beyond its schema is the shared ingestion. */
import { ingestRecords, type IngestDeps, type WriteReceipt } from '../shared/domain/ingest';
import type { EventRecord } from './schema';

export function ingestEvents(deps: IngestDeps) {
  const ingest = ingestRecords('event', deps);
  return (records: EventRecord[], appId: string): Promise<WriteReceipt> => ingest(records, appId);
}
