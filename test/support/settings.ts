/** In-memory settings ports, with the DynamoDB adapters' contracts: API keys, email channels and the secret store. */
import { hashApiKey, type ApiKeyRecord } from '../../functions/domain/api-keys';
import type { KeyStore } from '../../functions/domain/apps';
import {
  claimBlocker,
  senderDomain,
  senderKey,
  type Channel,
  type ChannelStore,
  type SenderAssignment,
  type SenderClaim,
  type SenderStore,
} from '../../functions/domain/channels';
import { KeyResolver } from '../../functions/http/auth';

// One secret store in memory for every test: test/support/secrets.ts.
export { MemorySecretStore } from './secrets';

/** Keys by hash; revoking marks `revoked_at` once, only within the key's application. */
export class MemoryKeyStore implements KeyStore {
  readonly keys: ApiKeyRecord[] = [];

  async findByHash(keyHash: string) {
    return this.keys.find((key) => key.key_hash === keyHash);
  }

  async create(key: ApiKeyRecord) {
    this.keys.push({ ...key });
  }

  async listByApp(appId: string) {
    return this.keys.filter((key) => key.app_id === appId).map((key) => ({ ...key }));
  }

  async revoke(appId: string, keyId: string, at: Date) {
    const key = this.keys.find((candidate) => candidate.app_id === appId && candidate.key_id === keyId);
    if (key) key.revoked_at ??= at.toISOString();
    return key !== undefined;
  }
}

/** Channels by application and id; a change answers the channel as changed, undefined when the application has no such channel. */
export class MemoryChannelStore implements ChannelStore {
  readonly channels: Channel[] = [];

  async create(channel: Channel) {
    this.channels.push({ ...channel });
  }

  async get(appId: string, channelId: string) {
    const channel = this.find(appId, channelId);
    return channel && { ...channel };
  }

  async listByApp(appId: string) {
    return this.channels.filter((channel) => channel.app_id === appId).map((channel) => ({ ...channel }));
  }

  async setEnabled(appId: string, channelId: string, enabled: boolean) {
    const channel = this.find(appId, channelId);
    if (!channel) return undefined;
    channel.enabled = enabled;
    return { ...channel };
  }

  async setFromDomain(appId: string, channelId: string, fromEmail: string, fromDomain: string | undefined) {
    const channel = this.find(appId, channelId);
    if (!channel || channel.from_email !== fromEmail) return undefined;
    if (fromDomain === undefined) delete channel.from_domain;
    else channel.from_domain = fromDomain;
    return { ...channel };
  }

  private find(appId: string, channelId: string) {
    return this.channels.find((channel) => channel.app_id === appId && channel.channel_id === channelId);
  }
}

/** `news@casino.example` or `casino.example`, assigned to `appId`: the shape a test arranges. */
export function assignment(appId: string, sender: string, assignedAt = '2026-01-01T00:00:00.000Z'): SenderAssignment {
  const key = senderKey(sender);
  return { app_id: appId, sender: key, kind: key.includes('@') ? 'address' : 'domain', assigned_at: assignedAt };
}

/**
 * Senders assigned to applications, with the DynamoDB adapter's contract: one
 * application per address or domain, and never a domain of one application
 * beside an address at it of another.
 */
export class MemorySenderStore implements SenderStore {
  readonly assignments: SenderAssignment[];

  constructor(assignments: SenderAssignment[] = []) {
    this.assignments = assignments.map((a) => ({ ...a }));
  }

  async claim(wanted: SenderAssignment): Promise<SenderClaim> {
    const same = this.find(wanted.sender);
    if (same?.app_id === wanted.app_id) return { outcome: 'unchanged', assignment: { ...same } };
    const blocker = claimBlocker(this.assignments, wanted);
    if (blocker) return { outcome: 'taken', by: { ...blocker } };
    this.assignments.push({ ...wanted });
    return { outcome: 'assigned', assignment: { ...wanted } };
  }

  async release(appId: string, sender: string): Promise<boolean> {
    const index = this.assignments.findIndex((held) => held.app_id === appId && held.sender === sender);
    if (index < 0) return false;
    this.assignments.splice(index, 1);
    return true;
  }

  async listByApp(appId: string): Promise<SenderAssignment[]> {
    return (await this.list()).filter((held) => held.app_id === appId);
  }

  async list(): Promise<SenderAssignment[]> {
    return this.assignments.map((held) => ({ ...held })).sort((a, b) => a.sender.localeCompare(b.sender));
  }

  async holders(address: string) {
    const key = senderKey(address);
    return { address: this.find(key)?.app_id, domain: this.find(senderDomain(key))?.app_id };
  }

  private find(sender: string): SenderAssignment | undefined {
    return this.assignments.find((held) => held.sender === sender);
  }
}

export type KeyFields = Pick<ApiKeyRecord, 'app_id' | 'scope' | 'key_id'> & Partial<Pick<ApiKeyRecord, 'revoked_at' | 'created_at'>>;

/** The key check's resolver (with its own cache) over these keys: each raw key, as a caller sends it, and its record. */
export function keyResolverOf(keys: Record<string, KeyFields>): KeyResolver {
  const store = new MemoryKeyStore();
  for (const [raw, fields] of Object.entries(keys)) store.keys.push({ created_at: '2026-01-01T00:00:00Z', ...fields, key_hash: hashApiKey(raw) });
  return new KeyResolver(store);
}
