/**
 * What SES tells urm after a mail left (docs/api.md, "Bounces, complaints and
 * deliveries"): SES publishes a bounce, a complaint or a delivery of a mail
 * through the configuration set, naming the mail by its message id and its
 * tags. urm tags every mail it sends for a player with the application, the
 * channel and the profile, so that the event finds its player; this module
 * turns one such event into the stream records that suppress the address and
 * put the event on the player's timeline. Pure: the consumer writes them.
 */
import { createHash } from 'node:crypto';
import { isUtf8 } from 'node:buffer';
import { limits } from './limits';
import { EMAIL_BOUNCED_EVENT, EMAIL_COMPLAINED_EVENT, EMAIL_DELIVERED_EVENT, EMAIL_SUPPRESSED_ATTRIBUTE } from './send-gate';

/** SES saw the open pixel load (images shown, or a privacy proxy fetching them: docs/api.md, "Campaign results"). */
export const EMAIL_OPENED_EVENT = 'urm_email_opened';
/** A link of the mail was followed through SES's tracking address: `link` (its origin and path). */
export const EMAIL_CLICKED_EVENT = 'urm_email_clicked';

// ---- the tags a mail carries --------------------------------------------

export const mailTagNames = { app: 'app_id', channel: 'channel_id', profile: 'profile' } as const;
/** SES's limit on a tag's value; its characters are `[A-Za-z0-9_-]`, which base64url keeps to. */
const TAG_VALUE_LENGTH = 256;
/** A profile id is at most 128 characters, 512 bytes of UTF-8: its base64url (683 characters) fits three tags. */
const PROFILE_TAGS = [mailTagNames.profile, `${mailTagNames.profile}_2`, `${mailTagNames.profile}_3`] as const;

/** The tags naming a profile: `profile` (and `profile_2`, `profile_3` for a long id in a wide script), base64url of its UTF-8. */
export function profileTags(profileId: string): Record<string, string> {
  const encoded = Buffer.from(profileId, 'utf8').toString('base64url');
  const tags: Record<string, string> = {};
  PROFILE_TAGS.forEach((name, index) => {
    const part = encoded.slice(index * TAG_VALUE_LENGTH, (index + 1) * TAG_VALUE_LENGTH);
    if (part !== '' || index === 0) tags[name] = part;
  });
  return tags;
}

/** The profile id profileTags wrote, or undefined when the tags hold none (or not one urm could have written). */
export function profileIdFromTags(tags: Record<string, readonly string[]>): string | undefined {
  const parts = PROFILE_TAGS.map((name) => tags[name]?.[0]).filter((part): part is string => part !== undefined);
  const encoded = parts.join('');
  if (encoded === '' || !/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined;
  const bytes = Buffer.from(encoded, 'base64url');
  // Only what profileTags writes: the canonical encoding of UTF-8 text within the id's bound.
  if (bytes.toString('base64url') !== encoded || !isUtf8(bytes)) return undefined;
  const profileId = bytes.toString('utf8');
  return [...profileId].length <= limits.profileIdLength ? profileId : undefined;
}

/** The tags a campaign's mail carries (functions/messaging/send-template.ts `campaignFields`). */
export const campaignTagNames = { kind: 'campaign_kind', id: 'campaign_id', version: 'campaign_version', step: 'campaign_step' } as const;
const campaignKinds: readonly string[] = ['journey', 'broadcast'];
const TAG_VALUE = /^[A-Za-z0-9_-]{1,256}$/;

/** `campaign`, `campaign_version` and `campaign_step` of a campaign's mail, as its sends' events carry them; none for other mail. */
export function campaignFromTags(tags: Record<string, readonly string[]>): Record<string, string> {
  const value = (name: string) => {
    const found = tags[name]?.[0];
    return found !== undefined && TAG_VALUE.test(found) ? found : undefined;
  };
  const kind = value(campaignTagNames.kind);
  const id = value(campaignTagNames.id);
  if (kind === undefined || id === undefined || !campaignKinds.includes(kind)) return {};
  const version = value(campaignTagNames.version);
  const step = value(campaignTagNames.step);
  return { campaign: `${kind}:${id}`, ...(version !== undefined ? { campaign_version: version } : {}), ...(step !== undefined ? { campaign_step: step } : {}) };
}

/** Where a followed link went, without its query or fragment (they may hold a token or an address) and bounded; undefined when not http(s). */
export function linkOf(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return `${url.origin}${url.pathname}`.slice(0, LINK_LENGTH);
}
const LINK_LENGTH = 512;

// ---- SES's events -------------------------------------------------------

/** The EventBridge detail-types of the SES events urm takes, by SES's `eventType`. */
export const sesDetailTypes = {
  Bounce: 'Email Bounced',
  Complaint: 'Email Complained',
  Delivery: 'Email Delivered',
  Open: 'Email Opened',
  Click: 'Email Clicked',
} as const;
export type SesEventType = keyof typeof sesDetailTypes;
export const SES_EVENT_SOURCE = 'aws.ses';
/** The tag SES adds to every event of a mail sent through a configuration set: its name. */
export const CONFIGURATION_SET_TAG = 'ses:configuration-set';

/** The part of SES's event publishing JSON urm reads (the EventBridge event's `detail`). */
export interface SesEventDetail {
  eventType: string;
  mail: { messageId: string; timestamp: string; tags?: Record<string, string[]> };
  bounce?: { bounceType: string; bounceSubType?: string; bouncedRecipients?: { emailAddress: string }[]; timestamp?: string };
  complaint?: { complainedRecipients?: { emailAddress: string }[]; complaintFeedbackType?: string; timestamp?: string };
  delivery?: { recipients?: string[]; timestamp?: string };
  open?: { timestamp?: string };
  click?: { timestamp?: string; link?: string };
}

export interface EmailEventRecords {
  appId: string;
  profileId: string;
  /** The profile change (a hard bounce or a complaint suppresses the address), if any. */
  profile?: Record<string, unknown> & { app_id: string; profile_id: string; urm_insert_id: string };
  event: Record<string, unknown> & { app_id: string; profile_id: string; event: string; urm_insert_id: string };
}

export type EmailEventOutcome = { records: EmailEventRecords } | { ignored: string };

const DETAIL_TEXT = 64;
const bounded = (text: string | undefined) => (text === undefined ? undefined : text.slice(0, DETAIL_TEXT));

/**
 * The records of one SES event: the same event always gives the same insert
 * ids (and time), so a redelivered event is stored once. The recipients go
 * into the ids (one event per recipient or per group SES reports), never into
 * a record: the timeline names no address.
 */
export function emailEventRecords(detail: SesEventDetail): EmailEventOutcome {
  const type = detail.eventType;
  if (!(type in sesDetailTypes)) return { ignored: `an event of type ${bounded(type)}, which urm does not take` };
  const tags = detail.mail.tags ?? {};
  const appId = tags[mailTagNames.app]?.[0];
  const profileId = profileIdFromTags(tags);
  if (appId === undefined || appId === '' || profileId === undefined) return { ignored: 'a mail without urm’s application and profile tags' };
  const channelId = tags[mailTagNames.channel]?.[0];
  const messageId = detail.mail.messageId;

  const recipients = recipientsOf(detail);
  const at = timeOf(detail);
  const insertId = (what: string) => {
    const readable = `urm-ses-${what}-${messageId}`;
    const digest = createHash('sha256')
      // A mail is opened and clicked many times: SES's time (and the link) tell those events apart, and stay the same redelivered.
      .update([messageId, type, ...recipients, ...(type === 'Open' || type === 'Click' ? [at, detail.click?.link ?? ''] : [])].join('\n'), 'utf8')
      .digest('hex')
      .slice(0, 24);
    // The message id for a person reading the timeline's ids; the digest for which recipients the event is about.
    return `${readable.slice(0, limits.insertIdLength - digest.length - 1)}-${digest}`;
  };
  const common = { app_id: appId, profile_id: profileId, urm_date_time: at };
  const about = { message_id: messageId, ...(channelId !== undefined ? { channel_id: channelId } : {}), ...campaignFromTags(tags) };

  if (type === 'Bounce') {
    const bounce = detail.bounce;
    const permanent = bounce?.bounceType === 'Permanent';
    return {
      records: {
        appId,
        profileId,
        ...(permanent ? { profile: { ...common, urm_insert_id: insertId('suppress'), urm_set: { [EMAIL_SUPPRESSED_ATTRIBUTE]: 'bounce' } } } : {}),
        event: {
          ...common,
          event: EMAIL_BOUNCED_EVENT,
          urm_insert_id: insertId('bounce'),
          bounce_type: bounded(bounce?.bounceType) ?? 'Undetermined',
          ...(bounce?.bounceSubType !== undefined ? { bounce_subtype: bounded(bounce.bounceSubType) } : {}),
          ...about,
        },
      },
    };
  }
  if (type === 'Complaint') {
    const feedback = bounded(detail.complaint?.complaintFeedbackType);
    return {
      records: {
        appId,
        profileId,
        profile: { ...common, urm_insert_id: insertId('suppress'), urm_set: { [EMAIL_SUPPRESSED_ATTRIBUTE]: 'complaint' } },
        event: {
          ...common,
          event: EMAIL_COMPLAINED_EVENT,
          urm_insert_id: insertId('complaint'),
          ...(feedback !== undefined ? { feedback_type: feedback } : {}),
          ...about,
        },
      },
    };
  }
  if (type === 'Open') return { records: { appId, profileId, event: { ...common, event: EMAIL_OPENED_EVENT, urm_insert_id: insertId('open'), ...about } } };
  if (type === 'Click') {
    const link = linkOf(detail.click?.link);
    return {
      records: {
        appId,
        profileId,
        event: { ...common, event: EMAIL_CLICKED_EVENT, urm_insert_id: insertId('click'), ...(link !== undefined ? { link } : {}), ...about },
      },
    };
  }
  return { records: { appId, profileId, event: { ...common, event: EMAIL_DELIVERED_EVENT, urm_insert_id: insertId('delivery'), ...about } } };
}

function recipientsOf(detail: SesEventDetail): string[] {
  const addresses =
    detail.bounce?.bouncedRecipients?.map((recipient) => recipient.emailAddress) ??
    detail.complaint?.complainedRecipients?.map((recipient) => recipient.emailAddress) ??
    detail.delivery?.recipients ??
    [];
  return [...addresses].sort();
}

/** When it happened, as SES says: the same for a redelivered event (the timeline deduplicates around an event's time). */
function timeOf(detail: SesEventDetail): string {
  const own = [detail.bounce?.timestamp, detail.complaint?.timestamp, detail.delivery?.timestamp, detail.open?.timestamp, detail.click?.timestamp];
  for (const candidate of [...own, detail.mail.timestamp]) {
    const time = candidate === undefined ? Number.NaN : Date.parse(candidate);
    if (Number.isFinite(time)) return new Date(time).toISOString();
  }
  // SES always gives the mail's (its schema in the consumer requires it).
  throw new Error('the SES event has no timestamp');
}
