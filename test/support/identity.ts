/** What an integrator's server does for its pages: prove a profile id with the application's identity secret (docs/api.md, "The browser key"). */
import { createHmac } from 'node:crypto';
import { identitySecretName } from '../../functions/domain/identity';
import { localBackOffice, localClients } from '../../lib/local/stack';
import type { TestStack } from './local-stack';

/** The application's identity secret, from the stack's secret store (where `npm start` and `app create` put it). */
export async function identitySecretOf(stack: TestStack, appId = stack.dev.app_id): Promise<string> {
  const secret = await localBackOffice(localClients(stack.endpoints).document).secrets.get(identitySecretName(appId));
  if (!secret) throw new Error(`application ${appId} has no identity secret`);
  return secret;
}

/** Hex HMAC-SHA256 of the profile id: the README's two lines. */
export function proofOf(secret: string, profileId: string): string {
  return createHmac('sha256', secret).update(profileId).digest('hex');
}
