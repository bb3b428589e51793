/** In-memory settings ports, with the DynamoDB adapters' contracts: API keys, email channels and the secret store. */
import type { ApiKeyRecord } from '../../functions/domain/api-keys';
import type { KeyStore } from '../../functions/domain/apps';
import type { Channel, ChannelStore } from '../../functions/domain/channels';
import type { SecretStore } from '../../functions/domain/secrets';

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

/** Secrets by name (`apps/<app_id>/identity-secret`, …), as SSM keeps them under the stack's path. */
export class MemorySecretStore implements SecretStore {
  readonly values = new Map<string, string>();

  async get(name: string) {
    return this.values.get(name);
  }

  async put(name: string, value: string) {
    this.values.set(name, value);
  }
}
