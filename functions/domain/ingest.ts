/**
 * The part of ingestion both /profiles and /events share: check ownership,
 * give each record its insert id, wrap it for the stream, bound its size, and
 * write the whole request in one go, answering with the write receipt.
 */
import { Forbidden, ValidationError } from './errors';
import { limits } from './limits';
import type { SchemaType } from './schema-type';
import { encodeEnvelope, partitionKey, type StreamRecordKind } from './stream-record';
import { capMessages } from './validation';

export interface StreamEntry {
  partitionKey: string;
  data: Uint8Array;
}

const receiptEntrySchema = {
  anyOf: [
    {
      type: 'object',
      description: 'The record was written to the stream.',
      required: ['SequenceNumber', 'ShardId'],
      additionalProperties: false,
      properties: { SequenceNumber: { type: 'string' }, ShardId: { type: 'string' } },
    },
    {
      type: 'object',
      description:
        'The record was not written: the stream refused it after retries (or, in /profiles, refused an earlier record of its profile); re-sending it with the same urm_insert_id is safe.',
      required: ['ErrorCode', 'ErrorMessage'],
      additionalProperties: false,
      properties: { ErrorCode: { type: 'string' }, ErrorMessage: { type: 'string' } },
    },
  ],
} as const;

/** The write receipt (docs/api.md, "The write receipt"): one entry per record, in input order. */
export const writeReceiptSchema = {
  type: 'object',
  required: ['EncryptionType', 'FailedRecordCount', 'Records'],
  additionalProperties: false,
  properties: {
    EncryptionType: { type: 'string', description: 'How the stream encrypts records at rest: KMS or NONE.' },
    FailedRecordCount: { type: 'integer', minimum: 0 },
    Records: { type: 'array', description: 'One entry per input record, in input order.', items: receiptEntrySchema },
  },
} as const;

export type ReceiptEntry = SchemaType<typeof receiptEntrySchema>;
export type WriteReceipt = SchemaType<typeof writeReceiptSchema>;

/** Port: writes entries to the stream, in order, answering one receipt entry per entry. */
export interface RecordWriter {
  write(entries: StreamEntry[]): Promise<WriteReceipt>;
}

export interface IngestDeps {
  writer: RecordWriter;
  newId: () => string;
  now: () => Date;
}

export interface IngestibleRecord {
  app_id: string;
  profile_id: string;
  urm_insert_id?: string;
  [name: string]: unknown;
}

/** Wraps valid records for the stream; every record must belong to `appId`. */
export function toStreamEntries(kind: StreamRecordKind, records: IngestibleRecord[], appId: string, deps: Pick<IngestDeps, 'newId' | 'now'>): StreamEntry[] {
  if (records.some((record) => record.app_id !== appId)) throw new Forbidden();
  const receivedAt = deps.now().toISOString();
  const head = envelopeHead(kind, receivedAt);
  const oversized: string[] = [];
  const entries = records.map((input, index) => {
    const data = Buffer.from(
      envelopeText(head, input, () => `urm-${deps.newId()}`),
      'utf8',
    );
    const entry = { partitionKey: partitionKey(input.app_id, input.profile_id), data };
    if (entry.data.byteLength + Buffer.byteLength(entry.partitionKey) > limits.recordBytes) {
      oversized.push(`[${index}] is larger than the 1 MiB limit of one record`);
    }
    return entry;
  });
  if (oversized.length > 0) throw new ValidationError(capMessages(oversized));
  return entries;
}

/** `{"v":1,"kind":…,"received_at":…,"record":` — what encodeEnvelope writes before the record. */
function envelopeHead(kind: StreamRecordKind, receivedAt: string): string {
  const marker = '"record":null}';
  const empty = encodeEnvelope({ v: 1, kind, received_at: receivedAt, record: null as never }).toString('utf8');
  return empty.slice(0, -(marker.length - '"record":'.length));
}

/**
 * The envelope of `record` as JSON, the record serialised once as it came:
 * the text encodeEnvelope writes for `{ ...record, urm_insert_id }`, where a
 * record without an insert id gets a new one as its last field.
 */
function envelopeText(head: string, record: IngestibleRecord, newInsertId: () => string): string {
  if (typeof record.urm_insert_id === 'string') return `${head}${JSON.stringify(record)}}`;
  if ('urm_insert_id' in record) {
    // Present but not a string (only code calls with that; a request's schema refuses it): keep its place, as a spread would.
    return `${head}${JSON.stringify({ ...record, urm_insert_id: record.urm_insert_id ?? newInsertId() })}}`;
  }
  const json = JSON.stringify(record);
  const insertId = `"urm_insert_id":${JSON.stringify(newInsertId())}`;
  return json === '{}' ? `${head}{${insertId}}}` : `${head}${json.slice(0, -1)},${insertId}}}`;
}

export function ingestRecords(kind: StreamRecordKind, deps: IngestDeps) {
  return async (records: IngestibleRecord[], appId: string): Promise<WriteReceipt> => deps.writer.write(toStreamEntries(kind, records, appId, deps));
}
