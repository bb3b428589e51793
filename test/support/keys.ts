/** API keys in memory, for handler tests: the key check looks them up by hash as it does in the keys table. */
import { hashApiKey, type ApiKeyRecord } from '../../functions/domain/api-keys';
import type { KeyStore } from '../../functions/domain/apps';
import { KeyResolver } from '../../functions/http/auth';

export type KeyFields = Pick<ApiKeyRecord, 'app_id' | 'scope' | 'key_id'> & Partial<Pick<ApiKeyRecord, 'revoked_at' | 'created_at'>>;

export class MemoryKeyStore implements Pick<KeyStore, 'findByHash'> {
  readonly keys = new Map<string, ApiKeyRecord>();
  reads = 0;

  /** `keys`: each raw key (as a caller sends it) and its record. */
  constructor(keys: Record<string, KeyFields> = {}) {
    for (const [raw, fields] of Object.entries(keys)) {
      this.keys.set(hashApiKey(raw), { created_at: '2026-01-01T00:00:00Z', ...fields, key_hash: hashApiKey(raw) });
    }
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    this.reads++;
    return this.keys.get(keyHash);
  }
}

/** The key check's resolver over these keys, with its own cache. */
export function keyResolverOf(keys: Record<string, KeyFields>): KeyResolver {
  return new KeyResolver(new MemoryKeyStore(keys));
}
