/** The secret store in memory (SSM or the secrets table in the service), counting its reads. */
import type { SecretStore } from '../../functions/domain/secrets';

export class MemorySecretStore implements SecretStore {
  readonly secrets: Map<string, string>;
  /** The names read, in order. */
  readonly reads: string[] = [];

  constructor(secrets: Record<string, string> = {}) {
    this.secrets = new Map(Object.entries(secrets));
  }

  async get(name: string): Promise<string | undefined> {
    this.reads.push(name);
    return this.secrets.get(name);
  }

  async put(name: string, value: string): Promise<void> {
    this.secrets.set(name, value);
  }
}
