import { GetParameterCommand, ParameterNotFound, PutParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import type { SecretStore } from '../domain/secrets';

/** Secrets as SSM Parameter Store SecureStrings (encrypted with the account's aws/ssm key) under one path. */
export class SsmSecretStore implements SecretStore {
  constructor(
    private readonly ssm: SSMClient,
    /** `/urm/<stack>`: a secret `a/b` is the parameter `/urm/<stack>/a/b`. */
    private readonly prefix: string,
  ) {}

  private parameterName(name: string): string {
    return `${this.prefix.replace(/\/$/, '')}/${name}`;
  }

  async get(name: string): Promise<string | undefined> {
    try {
      const out = await this.ssm.send(new GetParameterCommand({ Name: this.parameterName(name), WithDecryption: true }));
      return out.Parameter?.Value;
    } catch (error) {
      if (error instanceof ParameterNotFound) return undefined;
      throw error;
    }
  }

  async put(name: string, value: string): Promise<void> {
    await this.ssm.send(new PutParameterCommand({ Name: this.parameterName(name), Value: value, Type: 'SecureString', Overwrite: true }));
  }
}
