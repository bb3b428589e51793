/**
 * What goes on the ingestion stream: an accepted record wrapped with its kind
 * and the time the service took it. Consumers filter on `kind`.
 */
/**
 * What a stream record carries; each consumer takes records of its own kinds.
 * A `click` is a counted click on a tracking link (affiliate-program.ts, ClickRecord).
 */
export type StreamRecordKind = 'profile' | 'event' | 'click';
export const streamRecordKinds: readonly StreamRecordKind[] = ['profile', 'event', 'click'];

export interface StreamEnvelope<R = Record<string, unknown>> {
  v: 1;
  kind: StreamRecordKind;
  /** When the service accepted the record (ISO 8601, UTC). */
  received_at: string;
  record: R & { app_id: string; profile_id: string; urm_insert_id: string };
}

/** Records of one profile share a shard, and so keep their order. */
export function partitionKey(appId: string, profileId: string): string {
  return `${appId}#${profileId}`;
}

export function encodeEnvelope(envelope: StreamEnvelope): Buffer {
  return Buffer.from(JSON.stringify(envelope), 'utf8');
}

/** Decodes stream data; throws when it is not an envelope this version understands. */
export function decodeEnvelope(data: Uint8Array | string): StreamEnvelope {
  const text = typeof data === 'string' ? Buffer.from(data, 'base64').toString('utf8') : Buffer.from(data).toString('utf8');
  const parsed = JSON.parse(text) as Partial<StreamEnvelope>;
  if (
    parsed === null ||
    typeof parsed !== 'object' ||
    parsed.v !== 1 ||
    !streamRecordKinds.includes(parsed.kind as StreamRecordKind) ||
    typeof parsed.record !== 'object' ||
    parsed.record === null
  ) {
    throw new Error('not a urm stream envelope (v1)');
  }
  return parsed as StreamEnvelope;
}
