/**
 * The largest request body each HTTP operation takes, in bytes; an operation
 * not listed takes defaultMaxBodyBytes. Its handler refuses a larger body
 * before parsing anything (functions/http/json-api.ts), the local
 * server keeps no more of it than that (lib/local/server.ts), and the API
 * reference states it (lib/api-docs/document.ts).
 *
 * A module of its own, apart from the manifest (operations.ts), so that a
 * function's bundle carries this table and not every operation's grants
 * (docs/performance.md, figure 4).
 */
import { emailLimits } from '../domain/email';
import { limits } from '../domain/limits';

/** The body bound of an operation that declares none. */
export const defaultMaxBodyBytes = 256 * 1024;

/** By operation id (operations.ts); a test checks each names an operation there. */
export const maxBodyBytes: Readonly<Record<string, number>> = {
  IngestProfiles: limits.bodyBytes,
  IngestEvents: limits.bodyBytes,
  SendEmail: emailLimits.requestBytes,
  SendTemplate: 64 * 1024,
};

/** The body bound of the operation `id`, for its handler and the local server alike. */
export function maxBodyBytesOf(id: string): number {
  return maxBodyBytes[id] ?? defaultMaxBodyBytes;
}
