/**
 * Broadcasts (issue 29, "Broadcasts"; docs/api.md): a template sent to a
 * segment's members, now, at a set time, or at a local time of each player.
 * A broadcast is a draft until started; then scheduled until its start time,
 * when the sender takes the segment's members (the snapshot) and sends what
 * is due at the application's rate; an operator may pause, resume and cancel
 * it; it is done when no recipient is left to send. The transitions are pure
 * here; the store applies them conditionally on the status read.
 */
import { createHash } from 'node:crypto';
import { Conflict, ValidationError } from './errors';
import { localMoment, purposes, type MessagingSettings, type Purpose } from './send-gate';
import { identifierText } from './text';
import { templateIdPattern } from './templates';
import { compileValidator, type FromRequestSchema } from './validation';

export const broadcastStatuses = ['draft', 'scheduled', 'running', 'paused', 'done', 'cancelled'] as const;
export type BroadcastStatus = (typeof broadcastStatuses)[number];

export const broadcastLimits = {
  nameLength: 120,
  /** At most this share of the members held out, percent. */
  holdoutPercentMax: 50,
  /** A set time at most this far ahead. */
  scheduleAheadDays: 366,
  /** Messages per second when the application sets none (MessagingSettings.broadcast_rate). */
  defaultRate: 10,
} as const;

export const broadcastIdPattern = '^[a-z0-9][a-z0-9_-]{0,63}$';
const hhmm = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'a local time, HH:MM (24 h)' } as const;
const day = { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$', description: 'a calendar day, YYYY-MM-DD' } as const;

/** When a broadcast sends: as soon as it is started, at an instant, or on a day at a local time of each player (`urm_timezone`). */
export const broadcastScheduleSchema = {
  oneOf: [
    { type: 'object', required: ['kind'], properties: { kind: { const: 'now' } }, additionalProperties: false },
    {
      type: 'object',
      required: ['kind', 'at'],
      properties: { kind: { const: 'at' }, at: { type: 'string', format: 'date-time' } },
      additionalProperties: false,
    },
    {
      type: 'object',
      required: ['kind', 'day', 'time'],
      properties: { kind: { const: 'local' }, day, time: hhmm },
      additionalProperties: false,
    },
  ],
} as const;

/** A new broadcast, as the console and the command line write it. */
export const createBroadcastSchema = {
  type: 'object',
  required: ['name', 'template_id', 'segment_id', 'purpose', 'schedule'],
  properties: {
    broadcast_id: { type: 'string', pattern: broadcastIdPattern, description: 'Made from the name when left out.' },
    name: { type: 'string', minLength: 1, maxLength: broadcastLimits.nameLength, ...identifierText },
    template_id: { type: 'string', pattern: templateIdPattern },
    segment_id: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' },
    purpose: { enum: purposes },
    topic: { type: 'string', minLength: 1, maxLength: 64, format: 'urm-topic' },
    schedule: broadcastScheduleSchema,
    holdout_percent: { type: 'integer', minimum: 0, maximum: broadcastLimits.holdoutPercentMax },
  },
  additionalProperties: false,
} as const;

export type CreateBroadcast = FromRequestSchema<typeof createBroadcastSchema>;
export type BroadcastSchedule = { kind: 'now' } | { kind: 'at'; at: string } | { kind: 'local'; day: string; time: string };

export const validCreateBroadcast = compileValidator(createBroadcastSchema);

/** Send-side counts, kept on the broadcast by the sender; delivery, opens and clicks are the results' (from events). */
export interface BroadcastCounts {
  /** Members taken by the snapshot, held out ones included. */
  entered: number;
  held_out: number;
  sent: number;
  /** By the gate's reason (unsubscribed, excluded, cap, …). */
  suppressed: Record<string, number>;
  /** Held by the gate for quiet hours: the deferred sender sends them later. */
  deferred: number;
  failed: number;
}

export interface Broadcast {
  app_id: string;
  broadcast_id: string;
  name: string;
  template_id: string;
  segment_id: string;
  purpose: Purpose;
  topic?: string;
  schedule: BroadcastSchedule;
  holdout_percent: number;
  status: BroadcastStatus;
  created_at: string;
  created_by: string;
  updated_at: string;
  /** When the sender may take the snapshot (set when started). */
  start_at?: string;
  started_at?: string;
  finished_at?: string;
  /** The snapshot: done, or the cursor of the next page of members. */
  snapshot: { done: boolean; cursor?: string; done_at?: string };
  counts: BroadcastCounts;
}

export const emptyCounts = (): BroadcastCounts => ({ entered: 0, held_out: 0, sent: 0, suppressed: {}, deferred: 0, failed: 0 });

/** The application's broadcast rate, messages per second. */
export const broadcastRate = (settings: MessagingSettings | undefined) => settings?.broadcast_rate ?? broadcastLimits.defaultRate;

/** The campaign id its messages and events carry (design29: `broadcast:<id>`). */
export const broadcastCampaign = (broadcastId: string) => `broadcast:${broadcastId}`;

/** The message id of a broadcast's message to a player: the same on every attempt, so the gate sends it once. */
export function broadcastMessageId(appId: string, broadcastId: string, profileId: string): string {
  return `bc-${createHash('sha256')
    .update(JSON.stringify([appId, broadcastId, profileId]), 'utf8')
    .digest('base64url')}`;
}

export const CAMPAIGN_HOLDOUT_EVENT = 'urm_campaign_holdout';

/** The event of a member held out (design29), once per broadcast and player whoever writes it and how often. */
export function holdoutEvent(appId: string, broadcastId: string, profileId: string, at: Date) {
  return {
    app_id: appId,
    profile_id: profileId,
    event: CAMPAIGN_HOLDOUT_EVENT,
    urm_date_time: at.toISOString(),
    urm_insert_id: `urm-bch-${createHash('sha256')
      .update(JSON.stringify([broadcastId, profileId]), 'utf8')
      .digest('base64url')}`,
    campaign: broadcastCampaign(broadcastId),
  };
}

/** Whether a player is held out: the same answer for the same broadcast and player, about `percent` of members. */
export function heldOut(broadcastId: string, profileId: string, percent: number): boolean {
  if (percent <= 0) return false;
  const bucket =
    createHash('sha256')
      .update(JSON.stringify([broadcastId, profileId]), 'utf8')
      .digest()
      .readUInt32BE(0) % 10_000;
  return bucket < percent * 100;
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);

/** A new draft from what the operator wrote; a set time must be ahead of now and within a year. */
export function newBroadcast(appId: string, input: CreateBroadcast, actor: string, now: Date, suffix: string): Broadcast {
  const schedule = input.schedule as BroadcastSchedule;
  const problems = scheduleProblems(schedule, now);
  if (problems.length > 0) throw new ValidationError(problems);
  const at = now.toISOString();
  return {
    app_id: appId,
    broadcast_id: input.broadcast_id ?? `${slug(input.name) || 'broadcast'}-${suffix}`,
    name: input.name,
    template_id: input.template_id,
    segment_id: input.segment_id,
    purpose: input.purpose,
    ...(input.topic !== undefined ? { topic: input.topic } : {}),
    schedule,
    holdout_percent: input.holdout_percent ?? 0,
    status: 'draft',
    created_at: at,
    created_by: actor,
    updated_at: at,
    snapshot: { done: false },
    counts: emptyCounts(),
  };
}

function scheduleProblems(schedule: BroadcastSchedule, now: Date): string[] {
  const latest = now.getTime() + broadcastLimits.scheduleAheadDays * 86_400_000;
  if (schedule.kind === 'at') {
    const at = Date.parse(schedule.at);
    if (at <= now.getTime()) return ['schedule.at must be in the future'];
    if (at > latest) return [`schedule.at must be within ${broadcastLimits.scheduleAheadDays} days`];
  }
  if (schedule.kind === 'local') {
    if (Number.isNaN(Date.parse(`${schedule.day}T00:00:00Z`)) || new Date(`${schedule.day}T00:00:00Z`).toISOString().slice(0, 10) !== schedule.day)
      return ['schedule.day must be a calendar day'];
    // The last zone to reach that time is UTC-12: past then, no player has it ahead.
    if (zonedInstant(schedule.day, schedule.time, 'Etc/GMT+12').getTime() <= now.getTime()) return ['schedule.day and time must be in the future somewhere'];
    if (zonedInstant(schedule.day, schedule.time, 'UTC').getTime() > latest) return [`schedule.day must be within ${broadcastLimits.scheduleAheadDays} days`];
  }
  return [];
}

/** The instant a zone's clock reads `time` on `day` (a time skipped by daylight saving reads as the instant after the jump). */
export function zonedInstant(day: string, time: string, timeZone: string): Date {
  const wanted = Date.parse(`${day}T${time}:00Z`);
  let guess = wanted;
  // Two corrections settle the zone's offset, also across a change of it.
  for (let i = 0; i < 2; i++) {
    const local = localMoment(new Date(guess), timeZone);
    const reads = Date.parse(`${local.day}T00:00:00Z`) + local.minutes * 60_000;
    guess += wanted - reads;
  }
  return new Date(guess);
}

/** When the sender may start: the set time, or the first moment any zone (UTC+14) reaches the local time. */
export function startAt(schedule: BroadcastSchedule, now: Date): Date {
  if (schedule.kind === 'at') return new Date(schedule.at);
  if (schedule.kind === 'local') return zonedInstant(schedule.day, schedule.time, 'Pacific/Kiritimati');
  return now;
}

/** When a recipient is due: the broadcast's start, or the local time in the player's zone (now, when that has passed). */
export function recipientDue(schedule: BroadcastSchedule, timeZone: string, now: Date): Date {
  if (schedule.kind !== 'local') return now;
  const at = zonedInstant(schedule.day, schedule.time, timeZone);
  return at.getTime() > now.getTime() ? at : now;
}

export type BroadcastAction = 'start' | 'pause' | 'resume' | 'cancel';

const allowed: Record<BroadcastAction, readonly BroadcastStatus[]> = {
  start: ['draft'],
  pause: ['scheduled', 'running'],
  resume: ['paused'],
  cancel: ['draft', 'scheduled', 'running', 'paused'],
};

/**
 * The broadcast after an operator's action, or Conflict naming why not. A
 * paused broadcast resumes where it was: scheduled if its snapshot has not
 * begun, running otherwise.
 */
export function applyAction(broadcast: Broadcast, action: BroadcastAction, now: Date): Broadcast {
  if (!allowed[action].includes(broadcast.status)) throw new Conflict(`a ${broadcast.status} broadcast cannot ${action}`);
  const at = now.toISOString();
  switch (action) {
    case 'start':
      return { ...broadcast, status: 'scheduled', start_at: startAt(broadcast.schedule, now).toISOString(), updated_at: at };
    case 'pause':
      return { ...broadcast, status: 'paused', updated_at: at };
    case 'resume':
      return { ...broadcast, status: broadcast.started_at ? 'running' : 'scheduled', updated_at: at };
    case 'cancel':
      return { ...broadcast, status: 'cancelled', finished_at: at, updated_at: at };
  }
}

/** The sender's transitions: the start time has come (scheduled → running), and nothing is left to send (running → done). */
export function begin(broadcast: Broadcast, now: Date): Broadcast {
  if (broadcast.status !== 'scheduled') throw new Conflict(`a ${broadcast.status} broadcast cannot begin`);
  const at = now.toISOString();
  return { ...broadcast, status: 'running', started_at: at, updated_at: at };
}

export function finish(broadcast: Broadcast, now: Date): Broadcast {
  if (broadcast.status !== 'running') throw new Conflict(`a ${broadcast.status} broadcast cannot finish`);
  const at = now.toISOString();
  return { ...broadcast, status: 'done', finished_at: at, updated_at: at };
}

/** Whether the sender works on it: its start time has come and it is neither paused nor over. */
export const sendable = (broadcast: Pick<Broadcast, 'status' | 'start_at'>, now: Date) =>
  (broadcast.status === 'scheduled' || broadcast.status === 'running') && broadcast.start_at !== undefined && Date.parse(broadcast.start_at) <= now.getTime();

// ---- the store --------------------------------------------------------------

/** A recipient the sender may send to: its due time is the sparse index's key (a lease moves it ahead). */
export interface DueRecipient {
  appId: string;
  broadcastId: string;
  profileId: string;
  dueAt: string;
  /** Takes so far: a message whose send keeps failing is given up after `maxAttempts`. */
  attempts: number;
}

/** How one recipient ended; each counts once on its broadcast. */
export type RecipientOutcome = { status: 'sent' } | { status: 'suppressed'; reason: string } | { status: 'deferred' } | { status: 'failed'; reason: string };

/** A recipient a run sent to (or gave up on), under its lease. */
export interface Settled {
  recipient: DueRecipient;
  lease: string;
  outcome: RecipientOutcome;
}

export interface SnapshotPage {
  /** Members to send to, each with its due time. */
  recipients: { profileId: string; dueAt: string }[];
  /** Members held out: kept, never sent to. */
  heldOut: string[];
}

/** Port: broadcasts and their recipients (functions/adapters/dynamo-broadcast-store.ts; test/support/broadcasts.ts). */
export interface BroadcastStore {
  /** False when the id is taken. */
  create(broadcast: Broadcast): Promise<boolean>;
  /** Read consistently: a pause or cancel a moment ago is seen. */
  get(appId: string, broadcastId: string): Promise<Broadcast | undefined>;
  /** The application's broadcasts, newest first. */
  list(appId: string, limit: number): Promise<Broadcast[]>;
  /** Writes the broadcast's status and times if its status is still `expected`; false otherwise. Counts and the snapshot are left as stored. */
  transition(broadcast: Broadcast, expected: BroadcastStatus): Promise<boolean>;
  /** Broadcasts scheduled or running whose start time is by `by` (any application): what the sender works on. */
  active(by: Date, limit: number): Promise<{ appId: string; broadcastId: string }[]>;
  /** Writes a page of the snapshot's recipients; writing the same page again changes nothing that matters (the gate's claim keeps a message once). */
  putRecipients(appId: string, broadcastId: string, page: SnapshotPage): Promise<void>;
  /**
   * Moves the snapshot from `from` (the cursor read; undefined: the first page) to `to`, counting the page's
   * members, if no other run moved it first; false otherwise (the page is counted once).
   */
  advanceSnapshot(
    appId: string,
    broadcastId: string,
    from: string | undefined,
    to: { cursor?: string; done: boolean },
    page: SnapshotPage,
    at: Date,
  ): Promise<boolean>;
  /** Recipients due by `by`, at most `limit`, from the sparse index (never a scan). */
  due(appId: string, broadcastId: string, by: Date, limit: number): Promise<DueRecipient[]>;
  /** Takes the recipient for one run (its due time moves to `leaseUntil`); false when another run took it. */
  take(recipient: DueRecipient, lease: string, leaseUntil: Date): Promise<boolean>;
  /**
   * Ends recipients and counts their outcomes on the broadcast, together (a transaction per hundred), for those this
   * run still holds; one another run took is neither ended nor counted here. Returns how many were settled.
   */
  settle(settled: Settled[]): Promise<number>;
  /** Whether any recipient is still to send (due later, or held by a run). */
  pending(appId: string, broadcastId: string): Promise<boolean>;
}
