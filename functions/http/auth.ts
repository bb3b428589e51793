/**
 * The x-api-key check: the key is hashed and looked up, and must be live and of
 * an allowed scope. Every refusal is the same 403, and it comes before any
 * parsing, so a flood of bad keys costs one hash and, at worst, one read.
 * Lookups, unknown keys included, are cached briefly per container
 * (./lookup-cache.ts); a revoked key stops working within the cache's lifetime.
 */
import type middy from '@middy/core';
import { hashApiKey, type ApiKeyRecord, type Scope } from '../domain/api-keys';
import type { KeyStore } from '../domain/apps';
import { Forbidden } from '../domain/errors';
import { LookupCache, lookupCacheDefaults, type LookupCacheOptions } from './lookup-cache';
import type { ApiEvent, AuthedContext } from './types';

const MAX_KEY_LENGTH = 256;

export class KeyResolver {
  private readonly cache: LookupCache<ApiKeyRecord>;

  constructor(
    private readonly keys: Pick<KeyStore, 'findByHash'>,
    options: LookupCacheOptions = lookupCacheDefaults,
  ) {
    this.cache = new LookupCache(options);
  }

  resolve(rawKey: string): Promise<ApiKeyRecord | undefined> {
    return this.cache.get(hashApiKey(rawKey), (hash) => this.keys.findByHash(hash));
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
