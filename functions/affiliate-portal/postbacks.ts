/**
 * The postbacks page: what the affiliate asks for (set the URL, turn
 * postbacks off, a new signing secret, the events it receives), through the programme's postback use
 * cases (back-office/postbacks.ts), so the portal and
 * `npm run admin -- affiliate postback` apply the same rules.
 */
import { h } from 'preact';
import {
  clearPostbackUrl,
  postbackDeliveries,
  postbackLogLimits,
  postbackSettingsOf,
  rotatePostbackSecret,
  setPostbackEvents,
  setPostbackUrl,
} from '../back-office/postbacks';
import type { BackOffice } from '../back-office/ports';
import type { AppStore } from '../domain/apps';
import { ValidationError } from '../domain/errors';
import { postbackEvents } from '../domain/postbacks';
import { portalCsrf } from '../domain/sessions';
import { logger } from '../runtime/logger';
import type { PortalWork, SignedInVisit } from './checks';
import { eventFieldName, PostbacksPage, type PostbacksView } from './pages/postbacks';
import { page, seeOther } from './render';

export type PostbackAction = 'set' | 'off' | 'rotate' | 'events';

/** The programme's postback use cases' stores: the settings on the affiliate item, the delivery log, the signing secrets. */
export interface PostbackOffice extends Pick<BackOffice, 'secrets' | 'postbacks'> {
  apps: Pick<AppStore, 'get'>;
}

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
  office: PostbackOffice,
  appId: string,
  affiliateId: string,
  form: { action?: string; postback_url?: string } & Record<string, string | undefined>,
): Promise<PostbackChange> {
  const typed = form.postback_url ?? '';
  if (form.action === 'off') {
    await clearPostbackUrl(office, appId, affiliateId);
    return { changed: true, action: 'off' };
  }
  if (form.action === 'events') {
    // Only this page's checkboxes count; an unticked box is simply absent from the form.
    await setPostbackEvents(
      office,
      appId,
      affiliateId,
      postbackEvents.filter((event) => form[eventFieldName(event) as keyof typeof form] === 'on'),
    );
    return { changed: true, action: 'events' };
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

export function postbacksWork(office: PostbackOffice): Pick<PortalWork, 'AffiliatePostbacksPage' | 'AffiliateUpdatePostbacks'> {
  /** The page for the visit: the affiliate's URL and delivery log as they are now. */
  const postbacksPage = async (visit: SignedInVisit, status: number, view: Pick<PostbacksView, 'csrf' | 'done' | 'form' | 'secret'>) => {
    const { app, appId, affiliate } = visit;
    return page(
      status,
      h(PostbacksPage, {
        appName: app.name,
        name: `${affiliate.first_name} ${affiliate.last_name}`,
        ...(await postbackSettingsOf(office, appId, affiliate.affiliate_id).then((settings) => ({
          postbackUrl: settings.postback_url,
          events: settings.postback_events,
        }))),
        log: await postbackDeliveries(office, appId, affiliate.affiliate_id),
        logLimit: postbackLogLimits.default,
        ...view,
      }),
    );
  };

  return {
    AffiliatePostbacksPage: async (visit) => {
      const done = visit.event.queryStringParameters?.done;
      return postbacksPage(visit, 200, {
        csrf: portalCsrf.tokenFor(visit.sessionId),
        done: done === 'saved' || done === 'off' || done === 'events' ? done : undefined,
      });
    },

    // A refused URL is shown next to its field; a secret just made is shown in this answer only (never in an address, a log or a later page).
    AffiliateUpdatePostbacks: async (visit) => {
      const { appId, affiliate, form } = visit;
      const change = await changePostbacks(office, appId, affiliate.affiliate_id, form);
      if (!change.changed) return postbacksPage(visit, 400, { csrf: form.csrf, form: { postback_url: change.postback_url, errors: change.errors } });
      const ids = { app_id: appId, affiliate_id: affiliate.affiliate_id };
      logger.info('Affiliate postbacks changed', { ...ids, action: change.action, new_secret: change.signing_secret !== undefined });
      // Without a secret to show, the answer is a redirect, so a reload does not post again.
      if (!change.signing_secret) return seeOther(`postbacks?done=${change.action === 'off' || change.action === 'events' ? change.action : 'saved'}`);
      return postbacksPage(visit, 200, {
        csrf: form.csrf,
        secret: { value: change.signing_secret, rotated: change.action === 'rotate' },
        done: change.action === 'set' ? 'saved' : undefined,
      });
    },
  };
}
