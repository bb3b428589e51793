/**
 * Broadcasts in the back office (the console and the command line; docs/api.md,
 * "Broadcasts"): list, read, create a draft, and the operator's actions
 * (start, pause, resume, cancel), each audited. The sending is the scheduled
 * sender's (functions/scheduled/send-broadcasts).
 */
import { randomBytes } from 'node:crypto';
import type { AppStore } from '../domain/apps';
import type { AuditActor, AuditLog } from '../domain/audit';
import { applyAction, newBroadcast, validCreateBroadcast, type Broadcast, type BroadcastAction, type BroadcastStore } from '../domain/broadcasts';
import { Conflict, NotFound, ValidationError } from '../domain/errors';
import type { SegmentStore } from '../domain/segments/model';
import type { TemplateStore } from '../domain/template-store';
import { audit } from './audit';

export interface BroadcastPorts {
  broadcasts: BroadcastStore;
  segments: Pick<SegmentStore, 'get'>;
  templates: Pick<TemplateStore, 'get'>;
  /** The topics a marketing broadcast may name. */
  apps: Pick<AppStore, 'get'>;
  audit: AuditLog;
  /** The application's clock (functions/runtime/clock.ts): a broadcast "now" starts at the application's now. */
  appTime?: (appId: string) => Date;
  now?: () => Date;
}

/** A list is one bounded read: the newest this many. */
export const BROADCASTS_LISTED = 200;

/** A broadcast as the console and the command line show it: with how far it has come. */
export type BroadcastView = Broadcast & {
  /** Members settled (sent, suppressed, deferred, failed, held out) of those taken; total is 0 until the snapshot starts. */
  progress: { done: number; total: number };
};

export function viewOf(broadcast: Broadcast): BroadcastView {
  const { counts } = broadcast;
  const suppressed = Object.values(counts.suppressed).reduce((sum, n) => sum + n, 0);
  return { ...broadcast, progress: { done: counts.sent + suppressed + counts.deferred + counts.failed + counts.held_out, total: counts.entered } };
}

const timeOf = (ports: Pick<BroadcastPorts, 'appTime' | 'now'>, appId: string) => ports.appTime?.(appId) ?? ports.now?.() ?? new Date();

async function requireBroadcast(ports: BroadcastPorts, appId: string, broadcastId: string): Promise<Broadcast> {
  const found = await ports.broadcasts.get(appId, broadcastId);
  if (!found) throw new NotFound(`no broadcast ${broadcastId}`);
  return found;
}

export function listBroadcasts(ports: BroadcastPorts) {
  return async (appId: string): Promise<BroadcastView[]> => (await ports.broadcasts.list(appId, BROADCASTS_LISTED)).map(viewOf);
}

export function getBroadcast(ports: BroadcastPorts) {
  return async (appId: string, broadcastId: string): Promise<BroadcastView> => viewOf(await requireBroadcast(ports, appId, broadcastId));
}

/** A draft; 400 naming what is wrong (an unknown or archived segment or template, a topic the application does not have). */
export function createBroadcast(ports: BroadcastPorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, input: unknown): Promise<BroadcastView> => {
    const body = validCreateBroadcast(input);
    const [segment, template, app] = await Promise.all([
      ports.segments.get(appId, body.segment_id),
      ports.templates.get(appId, body.template_id),
      ports.apps.get(appId),
    ]);
    const problems: string[] = [];
    if (!segment || segment.status === 'archived') problems.push(`segment_id names no segment of the application: ${body.segment_id}`);
    if (!template || template.archived) problems.push(`template_id names no template of the application: ${body.template_id}`);
    if (body.topic !== undefined && !(app?.messaging?.topics ?? []).some((topic) => topic.name === body.topic))
      problems.push(`topic names no topic of the application (Settings, Messaging): ${body.topic}`);
    if (problems.length > 0) throw new ValidationError(problems, 'broadcast is invalid');
    const broadcast = newBroadcast(appId, body, actor.email, timeOf(ports, appId), randomBytes(3).toString('hex'));
    if (!(await ports.broadcasts.create(broadcast))) throw new Conflict(`a broadcast with id ${broadcast.broadcast_id} exists: give another broadcast_id`);
    await record({ appId, actor, action: 'broadcast.created', target: `broadcast:${broadcast.broadcast_id}`, details: { name: broadcast.name } });
    return viewOf(broadcast);
  };
}

const pastTense: Record<BroadcastAction, string> = { start: 'started', pause: 'paused', resume: 'resumed', cancel: 'cancelled' };

/** Start, pause, resume or cancel: 409 when the broadcast's status does not allow it, or changed meanwhile. */
export function changeBroadcast(ports: BroadcastPorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, broadcastId: string, action: BroadcastAction): Promise<BroadcastView> => {
    const current = await requireBroadcast(ports, appId, broadcastId);
    const next = applyAction(current, action, timeOf(ports, appId));
    if (!(await ports.broadcasts.transition(next, current.status))) throw new Conflict('the broadcast changed meanwhile: reload it and try again');
    await record({ appId, actor, action: `broadcast.${pastTense[action]}`, target: `broadcast:${broadcastId}` });
    return viewOf((await ports.broadcasts.get(appId, broadcastId)) ?? next);
  };
}
