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
  /** Set only by the profile consumer, never by ingestion: the rest of a delete's or a merge's timeline work. */
  continues?: Continuation;
}

/**
 * A delete or a merge whose timeline work did not fit one invocation: the
 * profile consumer puts this on the stream under the profile's key, and takes
 * the work up from `cursor` when the record comes back.
 */
export interface Continuation {
  op: 'delete' | 'copy';
  /** Where the delete or merge record is in the stream, and when the service took it. */
  shard: string;
  seq: string;
  at: string;
  /** How many continuations came before this one: with op, shard and seq, the record's insert id. */
  step: number;
  /** delete: pass 1 began before the tombstone was written; pass 2, after it, removes events written meanwhile. */
  pass?: 1 | 2;
  /** copy: the source profile ids still to copy, the first in progress. */
  sources?: string[];
  /** Where the walk of the timeline resumes (a DynamoDB key). */
  cursor?: Record<string, string>;
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
