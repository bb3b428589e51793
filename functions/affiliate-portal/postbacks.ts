/**
 * The postbacks page: what the affiliate asks for (set the URL, turn
 * postbacks off, a new signing secret), through the programme's postback use
 * cases (back-office/postbacks.ts), so the portal and
 * `npm run admin -- affiliate postback` apply the same rules.
 */
import { ValidationError } from '../domain/errors';
import { clearPostbackUrl, rotatePostbackSecret, setPostbackUrl } from '../back-office/postbacks';
import type { BackOffice } from '../back-office/ports';

export type PostbackAction = 'set' | 'off' | 'rotate';

export interface PostbackFieldErrors {
  postback_url?: string;
  /** The form named no action this page knows. */
  action?: string;
}

/** The use case's refusals of a URL, in words for a person rather than an API client (the first few: one field, one message). */
export function postbackFieldErrors(error: ValidationError, typed: string): PostbackFieldErrors {
  if (typed.trim() === '') return { postback_url: 'Enter the address your tracker receives postbacks at.' };
  const sentences = error.errors.filter((problem) => problem.startsWith('url')).map((problem) => `The URL${problem.slice('url'.length)}.`);
  return sentences.length > 0 ? { postback_url: sentences.join(' ') } : { postback_url: 'The URL is invalid.' };
}

export type PostbackChange =
  | { changed: true; action: PostbackAction; signing_secret?: string }
  | { changed: false; errors: PostbackFieldErrors; postback_url: string };

/** Applies one posted form of the page for the signed-in affiliate; a refused URL comes back with its error. */
export async function changePostbacks(
  office: Pick<BackOffice, 'apps' | 'secrets' | 'postbacks'>,
  appId: string,
  affiliateId: string,
  form: { action?: string; postback_url?: string },
): Promise<PostbackChange> {
  const typed = form.postback_url ?? '';
  if (form.action === 'off') {
    await clearPostbackUrl(office, appId, affiliateId);
    return { changed: true, action: 'off' };
  }
  if (form.action === 'rotate') {
    return { changed: true, action: 'rotate', signing_secret: (await rotatePostbackSecret(office, appId, affiliateId)).signing_secret };
  }
  if (form.action !== 'set') return { changed: false, errors: { action: 'Choose one of the buttons on this page.' }, postback_url: typed };
  try {
    const settings = await setPostbackUrl(office, appId, affiliateId, typed.trim());
    return { changed: true, action: 'set', ...(settings.signing_secret ? { signing_secret: settings.signing_secret } : {}) };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { changed: false, errors: postbackFieldErrors(error, typed), postback_url: typed };
  }
}
