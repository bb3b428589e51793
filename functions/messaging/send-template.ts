/**
 * A stored template to one player: the one path every campaign send takes
 * (journeys, broadcasts, POST /api/send_template). It renders the template
 * for the player (their attributes, the event's data, the application, the
 * unsubscribe address), then hands the message to the send gate
 * (./gated.ts), which decides, claims the message id and sends at most once.
 * A template that does not render for this player is a failure recorded on
 * the timeline (`urm_message_failed`), never a retry: the same data renders
 * the same way.
 */
import type { AppStore } from '../domain/apps';
import type { Attributes } from '../domain/attributes';
import { firstEnabledChannel, type ChannelStore } from '../domain/channels';
import { toStreamEntries, type RecordWriter } from '../domain/ingest';
import type { Purpose } from '../domain/send-gate';
import { partitionKey } from '../domain/stream-record';
import type { TemplateStore } from '../domain/template-store';
import { renderTemplate, TemplateRenderError, type RenderedTemplate, type TemplateKind } from '../domain/templates';
import type { ProfileStore } from '../domain/timeline';
import { campaignOfRequest, failureInsertId, type GatedOptions, type GatedPorts, type GatedOutcome, type GatedRequest } from './gated';

/** A template that could not become a message for this player: on the timeline, with why. */
export const MESSAGE_FAILED_EVENT = 'urm_message_failed';

export const templateFailures = ['no_template', 'no_channel', 'render', 'webhook'] as const;
export type TemplateFailure = (typeof templateFailures)[number];

/** A campaign's ids, on the events of its sends and as mail tags (docs/api.md, "Campaign results"). */
export interface CampaignRef {
  kind: 'journey' | 'broadcast';
  id: string;
  step?: string;
  version?: number;
}

export interface TemplateSendRequest {
  appId: string;
  profileId: string;
  templateId: string;
  purpose: Purpose;
  topic?: string;
  /** Derived by the caller, never random: the same id never sends twice. */
  messageId: string;
  /** What the template reads as `event`: the entry event's properties, the API call's data. */
  data?: Record<string, unknown>;
  campaign?: CampaignRef;
  sentBy?: Record<string, string>;
}

export type TemplateSendOutcome = GatedOutcome | { status: 'failed'; reason: TemplateFailure; detail: string };

/** A rendered webhook, sent under the postbacks' rules (allowed hosts, resolver check, signature, bounded read). */
export type WebhookSend = (request: {
  appId: string;
  profileId: string;
  messageId: string;
  url: string;
  body: string;
  purpose: Purpose;
  topic?: string;
  /** On the timeline events: the campaign's ids, the template's. */
  sentBy?: Record<string, string>;
}) => Promise<TemplateSendOutcome>;

export interface TemplateSendPorts {
  templates: Pick<TemplateStore, 'get'>;
  apps: Pick<AppStore, 'get'>;
  profiles: Pick<ProfileStore, 'get'>;
  channels: Pick<ChannelStore, 'get' | 'listByApp'>;
  writer: RecordWriter;
  newId: () => string;
  /** The send gate (./gated.ts `gatedSend`), with email and push wired as the function needs. */
  send: (request: GatedRequest, options?: GatedOptions) => Promise<GatedOutcome>;
  /** The unsubscribe address a marketing mail's `{{ unsubscribe_url }}` renders to (./unsubscribe.ts). */
  unsubscribe?: GatedPorts['unsubscribe'];
  webhook?: WebhookSend;
  now?: () => Date;
}

/** The event properties and the mail tags that name a campaign (mail tag values allow only [A-Za-z0-9_-]). */
export function campaignFields(campaign: CampaignRef | undefined): { properties: Record<string, string>; tags: Record<string, string> } {
  if (!campaign) return { properties: {}, tags: {} };
  const version = campaign.version !== undefined ? String(campaign.version) : undefined;
  return {
    properties: {
      campaign: `${campaign.kind}:${campaign.id}`,
      ...(version !== undefined ? { campaign_version: version } : {}),
      ...(campaign.step !== undefined ? { campaign_step: campaign.step } : {}),
    },
    tags: {
      campaign_kind: campaign.kind,
      campaign_id: campaign.id,
      ...(version !== undefined ? { campaign_version: version } : {}),
      ...(campaign.step !== undefined ? { campaign_step: campaign.step } : {}),
    },
  };
}

const channelOfKind: Record<TemplateKind, 'email' | 'push' | 'webhook'> = { email: 'email', push: 'push', webhook: 'webhook' };

export function templateSender(ports: TemplateSendPorts) {
  async function recordFailure(
    request: TemplateSendRequest,
    kind: TemplateKind | undefined,
    reason: TemplateFailure,
    detail: string,
  ): Promise<TemplateSendOutcome> {
    const at = ports.now?.() ?? new Date();
    const event = {
      app_id: request.appId,
      profile_id: request.profileId,
      event: MESSAGE_FAILED_EVENT,
      urm_date_time: at.toISOString(),
      // One failure of one message is stored once, however often it is retried.
      urm_insert_id: failureInsertId(request.messageId),
      ...(kind ? { channel: channelOfKind[kind] } : {}),
      template_id: request.templateId,
      purpose: request.purpose,
      reason,
      detail,
      message_id: request.messageId,
      ...campaignFields(request.campaign).properties,
      ...request.sentBy,
    };
    const receipt = await ports.writer.write(toStreamEntries('event', [event], request.appId, { newId: ports.newId, now: () => at }));
    if (receipt.FailedRecordCount > 0) throw new Error('the stream refused the urm_message_failed event');
    return { status: 'failed', reason, detail };
  }

  return async (request: TemplateSendRequest, options: GatedOptions = {}): Promise<TemplateSendOutcome> => {
    const stored = await ports.templates.get(request.appId, request.templateId);
    if (!stored) return recordFailure(request, undefined, 'no_template', `template ${request.templateId} does not exist`);
    const { template } = stored;
    const app = await ports.apps.get(request.appId);
    const profile = await ports.profiles.get(partitionKey(request.appId, request.profileId), true);
    const attributes: Attributes = profile?.exists ? (JSON.parse(profile.attrs) as Attributes) : {};
    const marketingMail = template.kind === 'email' && request.purpose === 'marketing';
    // Only a player who exists gets a token; the gate refuses the others (no_player) before anything renders into a mail.
    const unsubscribe =
      marketingMail && app && profile?.exists && ports.unsubscribe
        ? await ports.unsubscribe(app, request.profileId, request.topic, campaignOfRequest({ sentBy: campaignFields(request.campaign).properties }))
        : undefined;

    let rendered: RenderedTemplate;
    try {
      rendered = renderTemplate(template, {
        player: attributes,
        event: request.data ?? {},
        app: { id: request.appId, name: app?.name ?? request.appId },
        unsubscribe_url: unsubscribe?.url ?? '',
      });
    } catch (error) {
      if (error instanceof TemplateRenderError) return recordFailure(request, template.kind, 'render', error.message);
      throw error;
    }

    const { properties, tags } = campaignFields(request.campaign);
    // The gate decides on the reads made here (both consistent, for this message): two reads fewer per message.
    const read = { app, profile };
    const common = {
      appId: request.appId,
      profileId: request.profileId,
      purpose: request.purpose,
      ...(request.topic !== undefined ? { topic: request.topic } : {}),
      messageId: request.messageId,
      sentBy: { ...properties, template_id: template.id, ...request.sentBy },
    };
    switch (rendered.kind) {
      case 'email': {
        const channelId = template.channel_id ?? (await defaultChannelId(request.appId));
        if (channelId === undefined) return recordFailure(request, 'email', 'no_channel', 'the application has no enabled email channel');
        const email = { channel_id: channelId, subject: rendered.subject, html_body: rendered.html, text_body: rendered.text };
        return ports.send({ ...common, tags, message: { channel: 'email', email } }, { ...options, read });
      }
      case 'push': {
        const push = { title: rendered.title, body: rendered.body, ...(rendered.url !== undefined ? { url: rendered.url } : {}) };
        return ports.send({ ...common, message: { channel: 'push', push } }, { ...options, read });
      }
      case 'webhook': {
        if (!ports.webhook) throw new Error('webhooks are not wired for this function');
        const outcome = await ports.webhook({ ...common, url: rendered.url, body: rendered.body });
        // Recorded here, once, as every other failure of a template send is.
        return outcome.status === 'failed' ? recordFailure(request, 'webhook', outcome.reason, outcome.detail) : outcome;
      }
    }
  };

  async function defaultChannelId(appId: string): Promise<string | undefined> {
    return firstEnabledChannel(await ports.channels.listByApp(appId))?.channel_id;
  }
}
