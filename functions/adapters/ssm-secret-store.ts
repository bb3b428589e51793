import {
  GetParameterCommand,
  ParameterAlreadyExists,
  ParameterNotFound,
  PutParameterCommand,
  paginateDescribeParameters,
  type SSMClient,
} from '@aws-sdk/client-ssm';
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

  /** DescribeParameters by the exact name: metadata only, so ssm:GetParameter is not needed (functions/manifest/routes.ts, secretChecks). */
  async exists(name: string): Promise<boolean> {
    const parameterName = this.parameterName(name);
    const pages = paginateDescribeParameters({ client: this.ssm }, { ParameterFilters: [{ Key: 'Name', Option: 'Equals', Values: [parameterName] }] });
    // Results are best-effort: a page may come back empty with a NextToken, so the pages are followed.
    for await (const page of pages) if (page.Parameters?.some((parameter) => parameter.Name === parameterName)) return true;
    return false;
  }

  async put(name: string, value: string): Promise<void> {
    await this.ssm.send(new PutParameterCommand({ Name: this.parameterName(name), Value: value, Type: 'SecureString', Overwrite: true }));
  }

  /** Without Overwrite, SSM refuses an existing name: the same ssm:PutParameter grant, and atomic. */
  async create(name: string, value: string): Promise<boolean> {
    try {
      await this.ssm.send(new PutParameterCommand({ Name: this.parameterName(name), Value: value, Type: 'SecureString', Overwrite: false }));
      return true;
    } catch (error) {
      if (error instanceof ParameterAlreadyExists) return false;
      throw error;
    }
  }
}
