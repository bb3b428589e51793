/**
 * The service's JSON API as the page script and the worker call it: the
 * browser key in `x-api-key`, and the application in the query string, where
 * the CORS preflight (which carries no key) can see which origins it allows.
 */
export interface ApiConfig {
  /** The service's base address, e.g. `https://api.example.com/v1`. */
  apiUrl: string;
  appId: string;
  apiKey: string;
}

export class UrmApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function callApi<T>(config: ApiConfig, method: 'GET' | 'POST', path: string, body?: unknown, fetchImpl: typeof fetch = fetch): Promise<T> {
  const url = `${config.apiUrl.replace(/\/+$/, '')}${path}?app_id=${encodeURIComponent(config.appId)}`;
  const headers: Record<string, string> = { Accept: 'application/json', 'x-api-key': config.apiKey };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetchImpl(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let answer: { message?: unknown } | undefined;
  try {
    answer = (await response.json()) as { message?: unknown };
  } catch {
    answer = undefined;
  }
  if (!response.ok) {
    const detail = typeof answer?.message === 'string' ? `: ${answer.message}` : '';
    throw new UrmApiError(response.status, `urmNotification: ${method} ${path} answered ${response.status}${detail}`);
  }
  return answer as T;
}

/** The answer of POST /profiles and /events: one entry per record, in order; a failed one has no SequenceNumber. */
export interface WriteReceipt {
  FailedRecordCount?: number;
  Records?: { SequenceNumber?: string; ShardId?: string; ErrorCode?: string; ErrorMessage?: string }[];
}

/** How often the failed entries of a receipt are sent again, and the first wait before that (doubled each time, jittered). */
export const RESENDS = 2;
const BACKOFF_MS = 300;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POST /profiles or /events, honouring the write receipt: a 200 may say that
 * some records were not written. Those, and only those, are sent again, the
 * same objects with the same urm_insert_id (so the service stores each once),
 * up to RESENDS times with backoff. Resolves with the records still unwritten,
 * none when all were. The first request's failure rejects as callApi does; a
 * re-send's failure leaves its records unwritten.
 */
export async function writeRecords<T>(
  config: ApiConfig,
  path: '/profiles' | '/events',
  records: T[],
  fetchImpl: typeof fetch = fetch,
  wait = sleep,
): Promise<T[]> {
  let pending = records;
  for (let resend = 0; ; resend++) {
    let receipt: WriteReceipt | undefined;
    try {
      receipt = await callApi<WriteReceipt | undefined>(config, 'POST', path, pending, fetchImpl);
    } catch (error) {
      if (resend === 0) throw error;
      return pending;
    }
    if (!receipt?.FailedRecordCount) return [];
    pending = pending.filter((_, i) => !receipt.Records?.[i]?.SequenceNumber);
    if (pending.length === 0 || resend === RESENDS) return pending;
    // Jitter spreads the re-sends of many browsers answering one push campaign.
    await wait(BACKOFF_MS * 2 ** resend * (0.5 + Math.random()));
  }
}
