import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from './api';

export interface Loaded<T> {
  data?: T;
  /** The key `data` was loaded for: while a new key loads, `data` is still the previous key's. */
  dataKey?: string;
  error?: ApiError;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs `load` when `key` changes (and on reload); the newest call wins, an older answer arriving late is dropped.
 * With `enabled` false (what the user's role may not read) nothing is loaded: no data, not loading.
 */
export function useApi<T>(load: () => Promise<T>, key: string, enabled = true): Loaded<T> {
  const [state, setState] = useState<{ data?: T; dataKey?: string; error?: ApiError; loading: boolean }>({ loading: enabled });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!enabled) return undefined;
    let current = true;
    setState((previous) => ({ data: previous.data, dataKey: previous.dataKey, loading: true }));
    load().then(
      (data) => current && setState({ data, dataKey: key, loading: false }),
      (error: unknown) =>
        current && setState({ error: error instanceof ApiError ? error : new ApiError(0, 'The server could not be reached. Try again.'), loading: false }),
    );
    return () => {
      current = false;
    };
    // Only `key` (not the loader, a new closure each render) says what the load depends on.
  }, [key, round, enabled]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { ...state, reload };
}
