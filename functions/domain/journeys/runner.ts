/**
 * Journeys at run time, over ports: what the stream consumer and the timer
 * share. One move of one instance: the player's facts, the pure engine's
 * `advance`, the actions (sends through the template sender, attribute and
 * lifecycle records onto the stream), then the instance's conditional write.
 *
 * Exactly once per (journey version, player, entry, step): every action's id
 * is derived (message ids, insert ids), so a run repeated after a crash or a
 * lost race repeats the same ids, which the send gate's claim and the
 * timeline keep once; the instance moves only by a write conditioned on the
 * revision it was read at, after its actions, so two runs never both move it.
 */
import { createHash } from 'node:crypto';
import type { App, AppStore } from '../apps';
import { toStreamEntries, type IngestibleRecord, type RecordWriter } from '../ingest';
import { moneySettingsOf, type MoneySettings } from '../money-settings';
import type { Condition } from '../segments/condition';
import { leafNeeds, leavesOf, type Need } from '../segments/needs';
import { addEvent, eventOfEntry, newAggregate, type Aggregate } from '../segments/state';
import { partitionKey } from '../stream-record';
import type { TimelineStore } from '../timeline';
import type { Attributes } from '../attributes';
import type { JourneyDefinition } from './definition';
import { advance, type ExitReason, type JourneyAction, type JourneyFacts, type JourneyInput, type JourneyInstance, type JourneyVersion } from './engine';
import type { JourneyStore, StoredInstance } from './store';
import type { TemplateSendOutcome, TemplateSendRequest } from '../../messaging/send-template';

export const JOURNEY_ENTERED_EVENT = 'urm_journey_entered';
export const JOURNEY_EXITED_EVENT = 'urm_journey_exited';
export const JOURNEY_CONVERTED_EVENT = 'urm_journey_converted';
export const CAMPAIGN_HOLDOUT_EVENT = 'urm_campaign_holdout';
export const JOURNEY_TRIGGERED_EVENT = 'urm_journey_triggered';
/** The runtime's own events: never an entry or a wait's event, so a journey cannot trigger itself. */
export const journeyLifecycleEvents: ReadonlySet<string> = new Set([
  JOURNEY_ENTERED_EVENT,
  JOURNEY_EXITED_EVENT,
  JOURNEY_CONVERTED_EVENT,
  CAMPAIGN_HOLDOUT_EVENT,
]);

export const runnerDefaults = {
  /** A new instance is due this long after its entry: if the run that entered it dies, the timer finishes it. */
  entryLeaseMs: 60_000,
  /** Timeline entries read at most to work out a branch's or an audience's event figures. */
  timelineEntries: 2_000,
  timelinePage: 200,
} as const;

export interface RunnerPorts {
  journeys: JourneyStore;
  /** The template sender (functions/messaging/send-template.ts); a unit passes a fake. */
  send: (request: TemplateSendRequest) => Promise<TemplateSendOutcome>;
  stream: Pick<RecordWriter, 'write'>;
  apps: Pick<AppStore, 'get'>;
  profiles: { attributes: (appId: string, profileId: string) => Promise<Attributes> };
  timeline: Pick<TimelineStore, 'walk'>;
  /** The player's segment memberships (ids of segments they are in now). */
  members: (appId: string, profileId: string) => Promise<ReadonlySet<string>>;
  /** The application's clock (functions/runtime/clock.ts `nowFor`). */
  now: (appId: string) => Date;
  newId: () => string;
}

export interface AppContext {
  app: App;
  money: MoneySettings;
}

export type MoveOutcome = 'moved' | 'unchanged' | 'conflict';

export interface RunCounts {
  moved: number;
  sent: number;
  suppressed: number;
  failed_sends: number;
  conflicts: number;
}

export const zeroRunCounts = (): RunCounts => ({ moved: 0, sent: 0, suppressed: 0, failed_sends: 0, conflicts: 0 });

const digest = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 32);

/** A lifecycle event's insert id: one per (kind, journey, version, player, entry), the same on every run. */
export const lifecycleInsertId = (kind: string, instance: JourneyInstance, extra?: string) =>
  `urm-j-${digest([kind, instance.journeyId, instance.version, instance.profileId, instance.entryId, ...(extra === undefined ? [] : [extra])])}`;

export const campaignOf = (journeyId: string) => `journey:${journeyId}`;

/** The conditions a version evaluates on the player (audience and branches): what its facts must hold. */
function conditionsOf(definition: JourneyDefinition): Condition[] {
  const conditions: Condition[] = definition.audience === undefined ? [] : [definition.audience as Condition];
  for (const step of definition.steps) if (step.type === 'branch') conditions.push(step.condition);
  return conditions;
}

export function journeyRunner(ports: RunnerPorts) {
  async function appContext(appId: string): Promise<AppContext | undefined> {
    const app = await ports.apps.get(appId);
    return app && { app, money: moneySettingsOf(app) };
  }

  /** Figures by need key, from the player's timeline, bounded (runnerDefaults.timelineEntries). */
  async function aggregates(appId: string, profileId: string, needs: Need[], money: MoneySettings): Promise<Record<string, Aggregate>> {
    const figures = Object.fromEntries(needs.map((need) => [need.key, { ...newAggregate(need, {}), complete: true }]));
    if (needs.length === 0) return figures;
    let start: Record<string, string> | undefined;
    let read = 0;
    do {
      const page = await ports.timeline.walk(partitionKey(appId, profileId), runnerDefaults.timelinePage, start);
      for (const entry of page.entries) {
        const event = eventOfEntry(entry);
        for (const need of needs) addEvent(figures[need.key], need, event, money);
      }
      read += page.entries.length;
      start = page.next;
    } while (start && read < runnerDefaults.timelineEntries);
    return figures;
  }

  /** What the engine reads of the player now; the timeline and memberships only when a condition needs them. */
  async function factsFor(context: AppContext, profileId: string, definition: JourneyDefinition, now: Date): Promise<JourneyFacts> {
    const appId = context.app.app_id;
    const conditions = conditionsOf(definition);
    const leaves = conditions.flatMap(leavesOf);
    const needs = new Map<string, Need>();
    for (const leaf of leaves) {
      for (const need of leafNeeds(leaf)) {
        const known = needs.get(need.key);
        needs.set(need.key, { ...need, since: '', windowDays: Math.max(need.windowDays, known?.windowDays ?? 0) });
      }
    }
    const readsMembers = leaves.some((leaf) => 'segment' in leaf);
    const [attributes, figures, members] = await Promise.all([
      ports.profiles.attributes(appId, profileId),
      aggregates(appId, profileId, [...needs.values()], context.money),
      readsMembers ? ports.members(appId, profileId) : Promise.resolve(new Set<string>()),
    ]);
    return { attributes, aggregates: figures, member: (id) => members.has(id), now, messaging: context.app.messaging, money: context.money };
  }

  function lifecycleRecord(
    appId: string,
    instance: JourneyInstance,
    event: string,
    properties: Record<string, unknown>,
    at: string,
    extra?: string,
  ): IngestibleRecord {
    return {
      app_id: appId,
      profile_id: instance.profileId,
      event,
      urm_insert_id: lifecycleInsertId(event, instance, extra),
      urm_date_time: at,
      journey_id: instance.journeyId,
      journey_version: instance.version,
      entry_id: instance.entryId,
      campaign: campaignOf(instance.journeyId),
      ...properties,
    };
  }

  async function act(
    appId: string,
    before: JourneyInstance,
    after: JourneyInstance,
    actions: JourneyAction[],
    at: string,
    counts: RunCounts,
  ): Promise<IngestibleRecord[]> {
    const records: IngestibleRecord[] = [];
    const exitAt = after.done?.at ?? at;
    for (const action of actions) {
      if ('send' in action) {
        const { send } = action;
        const outcome = await ports.send({
          appId,
          profileId: before.profileId,
          templateId: send.template_id,
          purpose: send.purpose,
          ...(send.topic === undefined ? {} : { topic: send.topic }),
          messageId: send.messageId,
          data: before.entryProperties,
          campaign: { kind: 'journey', id: before.journeyId, step: send.stepId, version: before.version },
        });
        if (outcome.status === 'sent') counts.sent++;
        else if (outcome.status === 'suppressed') counts.suppressed++;
        else if (outcome.status === 'failed') counts.failed_sends++;
      } else if ('set_attributes' in action) {
        records.push({ app_id: appId, profile_id: before.profileId, urm_insert_id: action.set_attributes.insertId, ...action.set_attributes.attributes });
      } else if ('exit' in action) {
        records.push(lifecycleRecord(appId, after, JOURNEY_EXITED_EVENT, { reason: action.exit satisfies ExitReason }, exitAt));
      } else if ('converted' in action) {
        records.push(lifecycleRecord(appId, after, JOURNEY_CONVERTED_EVENT, { goal_event: action.converted.event }, action.converted.at));
      } else if ('holdout' in action) {
        const { stepId } = action.holdout;
        records.push(lifecycleRecord(appId, after, CAMPAIGN_HOLDOUT_EVENT, { campaign_step: stepId }, exitAt, stepId));
      }
    }
    return records;
  }

  async function write(appId: string, kind: 'event' | 'profile', records: IngestibleRecord[], now: Date): Promise<void> {
    if (records.length === 0) return;
    const receipt = await ports.stream.write(toStreamEntries(kind, records, appId, { newId: ports.newId, now: () => now }));
    if (receipt.FailedRecordCount > 0) throw new Error(`the stream refused ${receipt.FailedRecordCount} journey records`);
  }

  /**
   * One move of a stored instance on `input` (a revision-0 instance is run from its entry whatever the input says).
   * Throws on a failed read, send or stream write: the caller retries the input, and the derived ids keep it once.
   */
  async function move(context: AppContext, journey: JourneyVersion, stored: StoredInstance, input: JourneyInput, counts: RunCounts): Promise<MoveOutcome> {
    const appId = context.app.app_id;
    const now = ports.now(appId);
    const current = stored.instance;
    const entering = stored.revision === 0;
    const effective: JourneyInput = entering
      ? { kind: 'entered', event: { name: '', insertId: '', at: current.enteredAt, properties: current.entryProperties } }
      : input;
    const facts = await factsFor(context, current.profileId, journey.definition, now);
    const { instance: next, actions } = advance(journey, current, effective, facts);
    if (!entering && actions.length === 0 && JSON.stringify(next) === JSON.stringify(current)) return 'unchanged';
    const at = effective.kind === 'timer' ? effective.at : effective.event.at;
    const records = await act(appId, current, next, actions, at, counts);
    const events = records.filter((record) => typeof record.event === 'string');
    if (entering) events.unshift(lifecycleRecord(appId, current, JOURNEY_ENTERED_EVENT, {}, current.enteredAt));
    await write(
      appId,
      'profile',
      records.filter((record) => typeof record.event !== 'string'),
      now,
    );
    await write(appId, 'event', events, now);
    const moved = await ports.journeys.move(
      {
        app_id: appId,
        instance: next,
        revision: stored.revision + 1,
        updated_at: now.toISOString(),
        ...(next.done || next.waitingUntil === undefined ? {} : { due_at: next.waitingUntil }),
      },
      current.stepId,
    );
    if (!moved) {
      counts.conflicts++;
      return 'conflict';
    }
    counts.moved++;
    return 'moved';
  }

  /** A new instance for `journey`, written at revision 0 (due after the entry lease), then run. False: another entry won. */
  async function enter(context: AppContext, journey: JourneyVersion, instance: JourneyInstance, seenEntries: number, counts: RunCounts): Promise<boolean> {
    const appId = context.app.app_id;
    const now = ports.now(appId);
    const stored: StoredInstance = {
      app_id: appId,
      instance,
      revision: 0,
      updated_at: now.toISOString(),
      due_at: new Date(Math.max(now.getTime(), Date.parse(instance.enteredAt)) + runnerDefaults.entryLeaseMs).toISOString(),
    };
    if (!(await ports.journeys.enter(stored, seenEntries))) return false;
    await move(context, journey, stored, { kind: 'timer', at: instance.enteredAt }, counts);
    return true;
  }

  return { appContext, factsFor, move, enter };
}

export type JourneyRunner = ReturnType<typeof journeyRunner>;
