/**
 * The x-api-key check: the key is hashed and looked up, and must be live and of
 * an allowed scope. Every refusal is the same 403, and it comes before any
 * parsing, so a flood of bad keys costs one hash and, at worst, one read.
 * Lookups are cached briefly per container; a revoked key stops working
 * within the cache's lifetime.
 */
import type middy from '@middy/core';
import { hashApiKey, type ApiKeyRecord, type Scope } from '../domain/api-keys';
import type { KeyStore } from '../domain/apps';
import { Forbidden } from '../domain/errors';
import type { ApiEvent, AuthedContext } from './types';

export interface KeyCacheOptions {
  ttlMs: number;
  maxEntries: number;
  now: () => number;
}

const MAX_KEY_LENGTH = 256;

export class KeyResolver {
  private readonly cache = new Map<string, { key: ApiKeyRecord | undefined; expires: number }>();

  constructor(
    private readonly keys: Pick<KeyStore, 'findByHash'>,
    private readonly options: KeyCacheOptions = { ttlMs: 30_000, maxEntries: 10_000, now: Date.now },
  ) {}

  async resolve(rawKey: string): Promise<ApiKeyRecord | undefined> {
    const hash = hashApiKey(rawKey);
    const now = this.options.now();
    const cached = this.cache.get(hash);
    if (cached && cached.expires > now) return cached.key;
    const key = await this.keys.findByHash(hash);
    if (this.cache.size >= this.options.maxEntries) this.cache.clear();
    this.cache.set(hash, { key, expires: now + this.options.ttlMs });
    return key;
  }
}

export function apiKeyAuth(resolver: KeyResolver, allowed: readonly Scope[]): middy.MiddlewareObj<ApiEvent> {
  return {
    before: async (request) => {
      const raw = request.event.headers?.['x-api-key'];
      if (!raw || raw.length > MAX_KEY_LENGTH) throw new Forbidden();
      const key = await resolver.resolve(raw);
      if (!key || key.revoked_at || !allowed.includes(key.scope)) throw new Forbidden();
      (request.context as AuthedContext).principal = { appId: key.app_id, scope: key.scope, keyId: key.key_id };
    },
  };
}
