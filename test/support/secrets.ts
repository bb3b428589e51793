/** Secrets in memory (the SecretStore port of SSM in AWS, a table locally), for unit tests. */
import type { SecretStore } from '../../functions/domain/secrets';

export class MemorySecretStore implements SecretStore {
  readonly values = new Map<string, string>();

  async get(name: string) {
    return this.values.get(name);
  }

  async put(name: string, value: string) {
    this.values.set(name, value);
  }
}
