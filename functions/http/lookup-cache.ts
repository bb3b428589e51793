/**
 * A container's short-lived memory of lookups done before a request is
 * trusted (API keys, applications' site origins). A name is read from the
 * store at most once per lifetime, however many requests ask at once (they
 * share the read in flight), and a name that is not there is remembered too,
 * so repeating a bad key costs nothing. What was found and what was not are
 * kept apart, each bounded, the oldest going first: a flood of made-up names
 * costs one read each but can only push out other made-up names, never the
 * live keys the container's real callers use.
 */
export interface LookupCacheOptions {
  ttlMs: number;
  /** How many names that exist are kept. */
  maxFound: number;
  /** How many names that do not exist are kept. */
  maxMissing: number;
  now: () => number;
}

/** 30 seconds, like the keys' documented revocation delay; 10,000 names of each kind (a few MB at most). */
export const lookupCacheDefaults: LookupCacheOptions = { ttlMs: 30_000, maxFound: 10_000, maxMissing: 10_000, now: Date.now };

interface Entry<V> {
  value: V | undefined;
  expires: number;
}

export class LookupCache<V> {
  private readonly found = new Map<string, Entry<V>>();
  private readonly missing = new Map<string, Entry<V>>();
  private readonly inFlight = new Map<string, Promise<V | undefined>>();

  constructor(private readonly options: LookupCacheOptions) {}

  /** The cached answer for `name`, or `load(name)`'s, remembered for the cache's lifetime. */
  get(name: string, load: (name: string) => Promise<V | undefined>): Promise<V | undefined> {
    const cached = this.found.get(name) ?? this.missing.get(name);
    if (cached && cached.expires > this.options.now()) return Promise.resolve(cached.value);
    const pending = this.inFlight.get(name);
    if (pending) return pending;
    const loading = load(name)
      .then((value) => {
        this.remember(name, value);
        return value;
      })
      .finally(() => this.inFlight.delete(name));
    this.inFlight.set(name, loading);
    return loading;
  }

  private remember(name: string, value: V | undefined): void {
    this.found.delete(name);
    this.missing.delete(name);
    const [entries, max] = value === undefined ? [this.missing, this.options.maxMissing] : [this.found, this.options.maxFound];
    // A Map iterates in insertion order: the first name is the one kept longest.
    while (entries.size >= max) entries.delete(entries.keys().next().value as string);
    entries.set(name, { value, expires: this.options.now() + this.options.ttlMs });
  }
}
