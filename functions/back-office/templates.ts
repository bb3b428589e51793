/**
 * The back office's message templates (docs/api.md, "Templates"): list, read,
 * create, change (optimistic on `version`), archive and restore them; preview
 * one (saved, or the editor's unsaved draft) against a real player; and send
 * a test of an email template to the signed-in operator's own address. The
 * console and the command line call these; campaigns send what is stored
 * (functions/messaging/send-template.ts).
 */
import type { AppStore } from '../domain/apps';
import type { Attributes } from '../domain/attributes';
import type { AuditActor, AuditLog } from '../domain/audit';
import { firstEnabledChannel, senderHeldBy, type ChannelStore, type SenderStore } from '../domain/channels';
import { canonicalAddress, formatAddress, type Mailer } from '../domain/email';
import { mailTagNames } from '../domain/email-events';
import { Conflict, NotFound, ValidationError } from '../domain/errors';
import { partitionKey } from '../domain/stream-record';
import { TEMPLATES_PER_APP, type StoredTemplate, type TemplateStore } from '../domain/template-store';
import { checkTemplate, previewTemplate, templateIdPattern, type MessageTemplate, type TemplateKind, type TemplatePreview } from '../domain/templates';
import type { ProfileStore } from '../domain/timeline';
import { audit } from './audit';

export interface TemplatePorts {
  templates: TemplateStore;
  audit: AuditLog;
  /** The hosts a webhook template may call besides public ones (the postbacks' development hosts). */
  webhookHosts?: readonly string[];
  now?: () => Date;
}

export interface PreviewPorts {
  templates: Pick<TemplateStore, 'get'>;
  apps: Pick<AppStore, 'get'>;
  profiles: Pick<ProfileStore, 'get'>;
  webhookHosts?: readonly string[];
}

export interface TestSendPorts extends PreviewPorts {
  channels: Pick<ChannelStore, 'get' | 'listByApp'>;
  senders: Pick<SenderStore, 'holders'>;
  mailer: Mailer;
  audit: AuditLog;
  now?: () => Date;
}

/** A template in a list: what a person picks it by. */
export interface TemplateSummary {
  id: string;
  name: string;
  kind: TemplateKind;
  languages: string[];
  default_language: string;
  version: number;
  archived: boolean;
  updated_at: string;
  updated_by: string | null;
}

/** A template with its bookkeeping: what an editor reads, and names `version` of when it writes. */
export interface TemplateDetail extends TemplateSummary {
  template: MessageTemplate;
  created_at: string;
}

/** What a preview or a test send renders: a saved template by id, or a draft; against a player or none, with an example event. */
export interface RenderRequest {
  template_id?: string;
  template?: unknown;
  profile_id?: string;
  data?: Record<string, unknown>;
}

const idPattern = new RegExp(templateIdPattern);
const nowOf = (ports: { now?: () => Date }) => ports.now?.() ?? new Date();

function summaryOf(stored: StoredTemplate): TemplateSummary {
  const { template } = stored;
  return {
    id: template.id,
    name: template.name,
    kind: template.kind,
    languages: Object.keys(template.variants),
    default_language: template.default_language,
    version: stored.version,
    archived: stored.archived,
    updated_at: stored.updated_at,
    updated_by: stored.updated_by ?? null,
  };
}

const detailOf = (stored: StoredTemplate): TemplateDetail => ({ ...summaryOf(stored), template: stored.template, created_at: stored.created_at });

async function requireTemplate(ports: { templates: Pick<TemplateStore, 'get'> }, appId: string, templateId: string): Promise<StoredTemplate> {
  const found = idPattern.test(templateId) ? await ports.templates.get(appId, templateId) : undefined;
  if (!found) throw new NotFound('no template with this id');
  return found;
}

const changedMeanwhile = (version: number) =>
  new Conflict(`someone else changed this template meanwhile (it is at version ${version} now): reload it and make your change again`);

// ---- reads -----------------------------------------------------------------

/** The application's templates, newest change first (archived ones only when asked). */
export function listTemplates(ports: Pick<TemplatePorts, 'templates'>) {
  return async (appId: string, options: { archived?: boolean } = {}): Promise<TemplateSummary[]> => (await ports.templates.list(appId, options)).map(summaryOf);
}

export function getTemplate(ports: Pick<TemplatePorts, 'templates'>) {
  return async (appId: string, templateId: string): Promise<TemplateDetail> => detailOf(await requireTemplate(ports, appId, templateId));
}

// ---- changes ---------------------------------------------------------------

/** Saves a new template at version 1: 400 with every problem checkTemplate finds; 409 when the id is taken or the application has TEMPLATES_PER_APP. */
export function createTemplate(ports: TemplatePorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, input: unknown): Promise<TemplateDetail> => {
    const template = checkTemplate(input, { webhookHosts: ports.webhookHosts });
    if ((await ports.templates.count(appId)) >= TEMPLATES_PER_APP)
      throw new Conflict(`the application has ${TEMPLATES_PER_APP} templates, the most it may keep (archived ones count)`);
    const at = nowOf(ports).toISOString();
    const stored: StoredTemplate = { app_id: appId, template, version: 1, archived: false, created_at: at, updated_at: at, updated_by: actor.email };
    if (!(await ports.templates.create(stored))) throw new Conflict(`a template with id ${template.id} exists: give another id`);
    await record({
      appId,
      actor,
      action: 'template.created',
      target: `template:${template.id}`,
      details: { name: template.name, kind: template.kind, version: 1 },
    });
    return detailOf(stored);
  };
}

/**
 * Replaces a template's content, when `version` is still the stored one (409
 * otherwise: someone else saved in between). Its id and kind stay: campaigns
 * name it and expect its kind. An archived template is restored first.
 */
export function updateTemplate(ports: TemplatePorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, templateId: string, input: { version: number; template: unknown }): Promise<TemplateDetail> => {
    const template = checkTemplate(input.template, { webhookHosts: ports.webhookHosts });
    const current = await requireTemplate(ports, appId, templateId);
    const problems = [
      ...(template.id === templateId ? [] : [`id must stay ${templateId}: save a copy as a new template instead`]),
      ...(template.kind === current.template.kind ? [] : [`kind must stay ${current.template.kind}: make a new template for ${template.kind}`]),
    ];
    if (problems.length > 0) throw new ValidationError(problems, 'template is invalid');
    if (current.version !== input.version) throw changedMeanwhile(current.version);
    if (current.archived) throw new Conflict('the template is archived: restore it to change it');
    const updated: StoredTemplate = { ...current, template, version: current.version + 1, updated_at: nowOf(ports).toISOString(), updated_by: actor.email };
    if (!(await ports.templates.put(updated, current.version))) throw changedMeanwhile(current.version + 1);
    await record({ appId, actor, action: 'template.updated', target: `template:${templateId}`, details: { name: template.name, version: updated.version } });
    return detailOf(updated);
  };
}

/** Archives (a campaign can no longer pick it; sends of it still render) or restores a template. Doing it twice changes nothing. */
export function setTemplateArchived(ports: TemplatePorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, templateId: string, archived: boolean): Promise<TemplateDetail> => {
    const current = await requireTemplate(ports, appId, templateId);
    if (current.archived === archived) return detailOf(current);
    const updated: StoredTemplate = { ...current, archived, version: current.version + 1, updated_at: nowOf(ports).toISOString(), updated_by: actor.email };
    if (!(await ports.templates.put(updated, current.version))) throw changedMeanwhile(current.version + 1);
    await record({
      appId,
      actor,
      action: archived ? 'template.archived' : 'template.restored',
      target: `template:${templateId}`,
      details: { name: current.template.name, version: updated.version },
    });
    return detailOf(updated);
  };
}

// ---- preview and test send -------------------------------------------------

/** The template a request names: the draft (checked as a save would be) or the saved one. */
async function templateOf(ports: PreviewPorts, appId: string, request: RenderRequest): Promise<MessageTemplate> {
  if (request.template !== undefined) return checkTemplate(request.template, { webhookHosts: ports.webhookHosts });
  if (request.template_id === undefined) throw new ValidationError(['template or template_id is required'], 'request is invalid');
  return (await requireTemplate(ports, appId, request.template_id)).template;
}

/** The chosen player's attributes (404 when there is none), or none at all. */
async function attributesOf(ports: PreviewPorts, appId: string, profileId: string | undefined): Promise<Attributes> {
  if (profileId === undefined) return {};
  const stored = await ports.profiles.get(partitionKey(appId, profileId), true);
  if (!stored?.exists) throw new NotFound('no player with this profile id');
  return JSON.parse(stored.attrs) as Attributes;
}

async function rendered(ports: PreviewPorts, appId: string, request: RenderRequest): Promise<TemplatePreview> {
  const template = await templateOf(ports, appId, request);
  const attributes = await attributesOf(ports, appId, request.profile_id);
  const app = await ports.apps.get(appId);
  return previewTemplate(template, attributes, request.data, { id: appId, name: app?.name ?? appId });
}

/**
 * The template rendered as the player would get it: which language variant
 * and why, and each part. Its unsubscribe link is a placeholder (no token is
 * made for a message nobody is sent). Nothing is stored or sent.
 */
export function previewTemplateFor(ports: PreviewPorts) {
  return (appId: string, request: RenderRequest): Promise<TemplatePreview> => rendered(ports, appId, request);
}

/** Test sends are marked, so nobody takes one for a real campaign's mail. */
export const TEST_SUBJECT_PREFIX = '[Test] ';

/**
 * Sends an email template, rendered for the chosen player (or none), to the
 * operator's own address: never to the player, never to an address in the
 * request. Through the template's channel (or the application's first
 * enabled one), whose sender the application must still hold. Its mail tags
 * name no player, so a bounce of it touches nobody's timeline. Push and
 * webhook templates are previewed, not test-sent: a push goes to a player's
 * browsers and a webhook to a live system. Audited as `template.test_sent`.
 */
export function testSendTemplate(ports: TestSendPorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, request: RenderRequest): Promise<{ to: string; subject: string; language: string; message_id: string }> => {
    const template = await templateOf(ports, appId, request);
    if (template.kind !== 'email')
      throw new ValidationError([`test send is for email templates: preview a ${template.kind} template instead`], 'request is invalid');
    const preview = await rendered(ports, appId, { ...request, template });
    if (preview.kind !== 'email') throw new Error('an email template rendered as another kind');
    const channel = await channelOf(ports, appId, template.channel_id);
    const from = canonicalAddress(channel.from_email);
    if (!senderHeldBy(await ports.senders.holders(from), appId))
      throw new Conflict(`the sender ${from} is not assigned to the application: the operator assigns senders (or pick another channel)`);
    const subject = `${TEST_SUBJECT_PREFIX}${preview.subject}`;
    const messageId = await ports.mailer.send({
      from: formatAddress(from, channel.from_name),
      to: [actor.email],
      replyTo: [],
      subject,
      html: preview.html,
      text: preview.text,
      tags: { [mailTagNames.app]: appId, [mailTagNames.channel]: channel.channel_id, test_send: 'true' },
    });
    await record({
      appId,
      actor,
      action: 'template.test_sent',
      target: `template:${template.id}`,
      // Whose data it rendered with, never the data: the audit log is no copy of a player.
      details: { language: preview.language, profile_id: request.profile_id ?? null },
    });
    return { to: actor.email, subject, language: preview.language, message_id: messageId };
  };
}

async function channelOf(ports: Pick<TestSendPorts, 'channels'>, appId: string, channelId: string | undefined) {
  if (channelId !== undefined) {
    const channel = await ports.channels.get(appId, channelId);
    if (!channel?.enabled) throw new NotFound(`the template's channel ${channelId} is not an enabled channel of the application`);
    return channel;
  }
  const first = firstEnabledChannel(await ports.channels.listByApp(appId));
  if (!first) throw new Conflict('the application has no enabled email channel: add one in Settings');
  return first;
}
