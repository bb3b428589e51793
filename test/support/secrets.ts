/** Secrets in memory (the SecretStore port of SSM in AWS, a table locally), for unit tests; the names read and the names asked about are kept. */
import type { SecretStore } from '../../functions/domain/secrets';

export class MemorySecretStore implements SecretStore {
  readonly values: Map<string, string>;
  /** The names read, in order. */
  readonly reads: string[] = [];
  /** The names asked whether they exist (never read), in order. */
  readonly checks: string[] = [];

  constructor(secrets: Record<string, string> = {}) {
    this.values = new Map(Object.entries(secrets));
  }

  async get(name: string) {
    this.reads.push(name);
    return this.values.get(name);
  }

  async exists(name: string) {
    this.checks.push(name);
    return this.values.has(name);
  }

  async put(name: string, value: string) {
    this.values.set(name, value);
  }

  async create(name: string, value: string) {
    if (this.values.has(name)) return false;
    this.values.set(name, value);
    return true;
  }
}
