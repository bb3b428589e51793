/**
 * The rows an operator reads about records the consumers refused. Every role
 * of the console reads them, so they hold no credential of a player: push
 * subscriptions (an endpoint addresses one browser, its keys are what a
 * sender encrypts for), device tokens and identity proofs are redacted before a row is
 * stored, and again when one stored before is read (docs/api.md, "Rejected
 * records"). What remains is what the player page shows: a subscription's
 * push service host, a device token's last characters.
 */
import type { StreamItem } from '../stream/kinesis-batch';
import { directives, pushTokenAttributes } from './attributes';
import { PROOF_FIELD } from './identity';
import type { Rejection } from './timeline';

/** Room for the record in a rejection item, well inside DynamoDB's 400 KB. */
const MAX_RECORD_CHARS = 300_000;

const WEB_TOKENS = 'urm_web_push_notification_token';
const tokenAttributes = new Set<string>(pushTokenAttributes);
const directiveNames = new Set<string>(directives);
/** What redaction writes: a value already in this form is left as it is, so redacting twice changes nothing. */
const REDACTED = /^<redacted[^<>]*>$/;
/** As the player page shows a device: its last characters (functions/back-office/players.ts). */
const TOKEN_END_CHARS = 6;

function redactedToken(attribute: string, token: unknown): unknown {
  if (typeof token !== 'string') return token === null || typeof token !== 'object' ? token : '<redacted>';
  if (REDACTED.test(token)) return token;
  if (attribute !== WEB_TOKENS) return `<redacted device token …${token.slice(-TOKEN_END_CHARS)}>`;
  try {
    const host = new URL(String((JSON.parse(token) as { endpoint?: unknown }).endpoint)).host;
    return `<redacted push subscription: ${host}>`;
  } catch {
    return '<redacted push subscription>';
  }
}

const redactedTokens = (attribute: string, value: unknown) =>
  Array.isArray(value) ? value.map((token) => redactedToken(attribute, token)) : redactedToken(attribute, value);

function redactedAttributes(attributes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attributes).map(([name, value]) => [name, tokenAttributes.has(name) ? redactedTokens(name, value) : value]));
}

const isMap = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The record without push tokens or proof: each token at the top level or in
 * a directive replaced by what the player page shows of it, the proof by
 * `<redacted>`; the rest as received.
 */
export function redactedRecord(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(redactedAttributes(record)).map(([field, value]) => {
      if (field === PROOF_FIELD) return [field, typeof value === 'string' && REDACTED.test(value) ? value : '<redacted>'];
      return [field, directiveNames.has(field) && isMap(value) ? redactedAttributes(value) : value];
    }),
  );
}

export function rejectionOf(item: StreamItem, reason: string, now: Date): Rejection {
  const { record, kind, received_at } = item.envelope;
  const json = JSON.stringify(redactedRecord(record));
  return {
    app_id: record.app_id,
    profile_id: record.profile_id,
    urm_insert_id: record.urm_insert_id,
    kind,
    shard: item.shardId,
    seq: item.sequenceNumber,
    reason,
    record: json.slice(0, MAX_RECORD_CHARS),
    record_truncated: json.length > MAX_RECORD_CHARS,
    received_at,
    rejected_at: now.toISOString(),
  };
}

const secretNames = [...pushTokenAttributes, PROOF_FIELD];
export const WITHHELD_RECORD = '<not shown: cut to fit, and it holds push tokens or a proof>';

/**
 * A row as an operator may read it. Rows are stored redacted; one stored
 * before that (they are kept 14 days) is redacted now, or, cut to fit and so
 * no longer JSON, not shown at all when it names a token attribute or the proof.
 */
export function readableRejection(row: Rejection): Rejection {
  if (!secretNames.some((name) => row.record.includes(name))) return row;
  if (!row.record_truncated) {
    try {
      const record: unknown = JSON.parse(row.record);
      if (isMap(record)) return { ...row, record: JSON.stringify(redactedRecord(record)) };
    } catch {
      // Not JSON: withheld below.
    }
  }
  return { ...row, record: WITHHELD_RECORD };
}
