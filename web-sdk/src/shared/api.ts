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

export async function callApi<T>(
  config: ApiConfig,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  fetchImpl: typeof fetch = fetch,
): Promise<T> {
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
