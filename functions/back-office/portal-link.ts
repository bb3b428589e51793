/**
 * `npm run admin -- portal link --app … --email …`: a one-time sign-in link
 * for one of the application's enterprise users, through the same token
 * machinery as POST /enterprises/sign_in. Audited, as every back-office action.
 */
import { commandLineActor } from '../domain/audit';
import { newSecret } from '../domain/secrets-random';
import { Conflict, NotFound } from '../domain/errors';
import { issueSignInLink, type SignInLink } from './sign-in-link';
import { audit } from './audit';
import { nowOf, type BackOffice } from './ports';

export function portalSignInLink(office: Pick<BackOffice, 'apps' | 'users' | 'signInTokens' | 'audit' | 'now'>) {
  const issue = issueSignInLink({ tokens: office.signInTokens, newToken: newSecret, now: () => nowOf(office) });
  const record = audit(office);
  return async (appId: string, email: string): Promise<SignInLink & { user_id: string }> => {
    const app = await office.apps.get(appId);
    if (!app) throw new NotFound('application not found');
    const user = await office.users.findByEmail(appId, email);
    if (!user) throw new NotFound('no user with this email in the application; sign one up with POST /enterprises/sign_up');
    if (!app.portal_origin) throw new Conflict('the application has no portal origin; set it with `app update --portal-origin`');
    const link = await issue(user, app.portal_origin);
    await record({ appId, actor: commandLineActor, action: 'user.sign_in_link_issued', target: `user:${user.user_id}` });
    return { ...link, user_id: user.user_id };
  };
}
