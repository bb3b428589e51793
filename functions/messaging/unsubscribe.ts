/**
 * Unsubscribing (docs/api.md, "Unsubscribe"): the link every marketing email
 * carries, the headers and footer that carry it, and the stream records a
 * player's choice becomes. The portal's unsubscribe routes and whatever
 * composes marketing mail share this module.
 */
import { createHash } from 'node:crypto';
import type { App } from '../domain/apps';
import type { Attributes } from '../domain/attributes';
import type { OutgoingMail } from '../domain/email';
import { Conflict } from '../domain/errors';
import type { IngestibleRecord } from '../domain/ingest';
import type { SecretStore } from '../domain/secrets';
import { UNSUBSCRIBED_EVENT } from '../domain/send-gate';
import { newUnsubscribeKey, signUnsubscribeToken, unsubscribeKeyName, type UnsubscribeCampaign } from '../domain/unsubscribe-token';
import { escapeHtml } from '../http/html';

/**
 * The application's unsubscribe key. Made with the application; an older
 * application's on its first marketing mail, created only if absent, so two
 * senders racing agree on one key (the loser reads the winner's).
 */
export function unsubscribeKey(secrets: Pick<SecretStore, 'get' | 'create'>) {
  return async (appId: string): Promise<string> => {
    const name = unsubscribeKeyName(appId);
    const held = await secrets.get(name);
    if (held !== undefined) return held;
    const made = newUnsubscribeKey();
    if (await secrets.create(name, made)) return made;
    const winner = await secrets.get(name);
    if (winner === undefined) throw new Error('the unsubscribe key exists but cannot be read');
    return winner;
  };
}

/**
 * The unsubscribe address of one player's marketing mail on one topic (none:
 * all marketing email). On the application's portal origin, which the back
 * office accepts only as https or plain http on a loopback host (the local
 * stack), as it does for the reset links the portal mails. Without one there
 * is nowhere to unsubscribe, so marketing email cannot be sent: a Conflict.
 */
export function unsubscribeLinks(ports: { secrets: Pick<SecretStore, 'get' | 'create'> }) {
  const keyOf = unsubscribeKey(ports.secrets);
  return async (app: Pick<App, 'app_id' | 'portal_origin'>, profileId: string, topic?: string, campaign?: UnsubscribeCampaign): Promise<{ url: string }> => {
    if (!app.portal_origin) {
      throw new Conflict('the application has no portal origin, so its marketing email has no unsubscribe address: set the portal origin in Settings');
    }
    const token = signUnsubscribeToken(await keyOf(app.app_id), {
      appId: app.app_id,
      profileId,
      ...(topic !== undefined ? { topic } : {}),
      ...(campaign !== undefined ? { campaign } : {}),
    });
    return { url: `${app.portal_origin}/unsubscribe/${token}` };
  };
}

/** The mail with RFC 8058's one-click headers and a visible unsubscribe link at the end of each body. */
export function withUnsubscribe(mail: OutgoingMail, url: string): OutgoingMail {
  const link = `<p style="margin-top:24px;font-size:12px;color:#6b7280"><a href="${escapeHtml(url)}">Unsubscribe</a></p>`;
  const closing = mail.html?.toLowerCase().lastIndexOf('</body>') ?? -1;
  const html = mail.html === undefined ? undefined : closing < 0 ? `${mail.html}${link}` : `${mail.html.slice(0, closing)}${link}${mail.html.slice(closing)}`;
  return {
    ...mail,
    ...(html !== undefined ? { html } : {}),
    ...(mail.text !== undefined ? { text: `${mail.text}\n\n--\nUnsubscribe: ${url}\n` } : {}),
    headers: [
      ...(mail.headers ?? []).filter((header) => !/^list-unsubscribe(-post)?$/i.test(header.name)),
      { name: 'List-Unsubscribe', value: `<${url}>` },
      { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
    ],
  };
}

/** What a player chose: leave a topic, or all marketing email (no topic); or rejoin a topic they left. */
export type PreferenceChange = { leave: true; topic?: string } | { leave: false; topic: string };
export type UnsubscribeMethod = 'one_click' | 'page';

/** What the player's profile says of their marketing email now. */
export interface EmailPreferences {
  /** `urm_consent_email` as the profile holds it; only `true` is consent (absent is no). */
  consent: boolean | undefined;
  left: string[];
}

export function preferencesOf(attributes: Attributes): EmailPreferences {
  const left = attributes.urm_unsubscribed_topics;
  return {
    consent: typeof attributes.urm_consent_email === 'boolean' ? attributes.urm_consent_email : undefined,
    left: Array.isArray(left) ? left.filter((topic): topic is string => typeof topic === 'string') : [],
  };
}

/** Whether the profile already says what the change would (a repeated one-click POST writes nothing). */
export function alreadyDone(preferences: EmailPreferences, change: PreferenceChange): boolean {
  if (!change.leave) return !preferences.left.includes(change.topic);
  // An absent consent is written as false all the same: the player's choice is then on record.
  if (change.topic === undefined) return preferences.consent === false;
  return preferences.left.includes(change.topic);
}

/** The preferences once the change is applied: what the confirmation shows before the stream has applied it. */
export function applied(preferences: EmailPreferences, change: PreferenceChange): EmailPreferences {
  if (change.leave && change.topic === undefined) return { ...preferences, consent: false };
  if (change.leave) return { ...preferences, left: [...new Set([...preferences.left, change.topic as string])] };
  return { ...preferences, left: preferences.left.filter((topic) => topic !== change.topic) };
}

/**
 * The records of one change: the profile's (consent off, or the topic added
 * to or removed from `urm_unsubscribed_topics`) and, for leaving, the
 * `urm_unsubscribed` event. Their insert ids come from the token, the change
 * and the profile's version when it was read: a repeated POST before the
 * change is applied is stored once, while leaving again after rejoining is a
 * new change.
 */
export function preferenceRecords(
  at: Date,
  subject: { appId: string; profileId: string; token: string; version: number; campaign?: UnsubscribeCampaign },
  change: PreferenceChange,
  method: UnsubscribeMethod,
): IngestibleRecord[] {
  const what = `${change.leave ? 'leave' : 'rejoin'}:${change.topic ?? '*'}`;
  const id = createHash('sha256').update(`${subject.token}\n${what}\n${subject.version}`, 'utf8').digest('hex').slice(0, 48);
  const stamp = { app_id: subject.appId, profile_id: subject.profileId, urm_date_time: at.toISOString() };
  const profile: IngestibleRecord = !change.leave
    ? { ...stamp, urm_insert_id: `urm-unsub-${id}-profile`, urm_remove: { urm_unsubscribed_topics: [change.topic] } }
    : change.topic === undefined
      ? { ...stamp, urm_insert_id: `urm-unsub-${id}-profile`, urm_consent_email: false }
      : { ...stamp, urm_insert_id: `urm-unsub-${id}-profile`, urm_unique_append: { urm_unsubscribed_topics: [change.topic] } };
  if (!change.leave) return [profile];
  const event: IngestibleRecord = {
    ...stamp,
    urm_insert_id: `urm-unsub-${id}-event`,
    event: UNSUBSCRIBED_EVENT,
    ...(change.topic !== undefined ? { topic: change.topic } : {}),
    method,
    // The campaign whose link it was: its results count the unsubscribe.
    ...(subject.campaign
      ? {
          campaign: subject.campaign.campaign,
          ...(subject.campaign.step !== undefined ? { campaign_step: subject.campaign.step } : {}),
          ...(subject.campaign.version !== undefined ? { campaign_version: subject.campaign.version } : {}),
        }
      : {}),
  };
  return [profile, event];
}
