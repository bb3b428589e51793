/**
 * The part of ingestion both /profiles and /events share: check ownership,
 * give each record its insert id, wrap it for the stream, bound its size, and
 * write the whole request in one go, answering with the write receipt.
 */
import { Forbidden, ValidationError } from './errors';
import { limits } from './limits';
import type { SchemaType } from './schema-type';
import { encodeEnvelope, partitionKey, type StreamEnvelope, type StreamRecordKind } from './stream-record';
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
      description: 'The record was not written: the stream refused it after retries (or, in /profiles, refused an earlier record of its profile); re-sending it with the same urm_insert_id is safe.',
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
export function toStreamEntries(
  kind: StreamRecordKind,
  records: IngestibleRecord[],
  appId: string,
  deps: Pick<IngestDeps, 'newId' | 'now'>,
): StreamEntry[] {
  if (records.some((record) => record.app_id !== appId)) throw new Forbidden();
  const receivedAt = deps.now().toISOString();
  const oversized: string[] = [];
  const entries = records.map((input, index) => {
    const record = { ...input, urm_insert_id: input.urm_insert_id ?? `urm-${deps.newId()}` };
    const envelope: StreamEnvelope = { v: 1, kind, received_at: receivedAt, record };
    const entry = { partitionKey: partitionKey(record.app_id, record.profile_id), data: encodeEnvelope(envelope) };
    if (entry.data.byteLength + Buffer.byteLength(entry.partitionKey) > limits.recordBytes) {
      oversized.push(`[${index}] is larger than the 1 MiB limit of one record`);
    }
    return entry;
  });
  if (oversized.length > 0) throw new ValidationError(capMessages(oversized));
  return entries;
}

export function ingestRecords(kind: StreamRecordKind, deps: IngestDeps) {
  return async (records: IngestibleRecord[], appId: string): Promise<WriteReceipt> =>
    deps.writer.write(toStreamEntries(kind, records, appId, deps));
}
