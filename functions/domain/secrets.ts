/**
 * Secrets (VAPID private keys, identity secrets, postback signing secrets).
 * In AWS they are SSM Parameter Store SecureStrings; the local stack has no
 * SSM, so it keeps them in a DynamoDB table. Both sit behind this port
 * (docs/architecture.md).
 */
export interface SecretStore {
  /** The secret's value, or undefined when there is none. */
  get(name: string): Promise<string | undefined>;
  /** Whether the secret exists, learnt without reading it: a function may be allowed this and not the value. */
  exists(name: string): Promise<boolean>;
  /** Creates or replaces the secret. */
  put(name: string, value: string): Promise<void>;
  /** Creates the secret unless it exists (atomic: of two racing callers one wins); whether this call created it. */
  create(name: string, value: string): Promise<boolean>;
}
