/** What the worker knows of its application: the page registers it with its settings in the query string. */
import type { ApiConfig } from '../shared/api';

export function workerConfig(search: string): ApiConfig | undefined {
  const query = new URLSearchParams(search);
  const apiUrl = query.get('apiUrl');
  const appId = query.get('appId');
  const apiKey = query.get('apiKey');
  if (!apiUrl || !/^https?:\/\/[^/]/.test(apiUrl) || !appId || !apiKey) return undefined;
  return { apiUrl, appId, apiKey };
}
