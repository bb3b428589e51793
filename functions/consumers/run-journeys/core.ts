/**
 * The journeys consumer: per event record, moves the player's instances that
 * wait for it (a wait_for_event, a goal) and enters the player into the live
 * journeys whose entry it matches (docs/api.md, "Journeys").
 *
 * Per batch: the records grouped by application and player, in stream order;
 * per application, its journeys (one Query) and nothing more when none is
 * live or paused; per player with an event, their entry records (one Query)
 * and their instances in flight (one BatchGet). A player whose records fail
 * is retried from their first record: entries and moves are conditional and
 * every action's id is derived, so what already happened happens once.
 *
 * First deposit: a deposit (by the application's money mapping) is the
 * player's first when the funnel's ledger names no other first deposit and
 * the journeys' own claim (`claimFirstDeposit`, conditional on the insert
 * id) takes it: the ledger answers for deposits made before journeys, the
 * claim for this batch's, in stream order, as the funnel counts them.
 */
import { compareSequence } from '../../domain/profile-state';
import type { LedgerReader } from '../../domain/funnel';
import type { JourneyDefinition } from '../../domain/journeys/definition';
import { entryIdOf, eventProperties, newInstance, shouldEnter, type JourneyEvent, type JourneyVersion } from '../../domain/journeys/engine';
import {
  JOURNEY_TRIGGERED_EVENT,
  journeyLifecycleEvents,
  zeroRunCounts,
  type AppContext,
  type JourneyRunner,
  type RunCounts,
} from '../../domain/journeys/runner';
import type { EntryRecord, JourneyHead, JourneyStore, StoredInstance } from '../../domain/journeys/store';
import type { StreamItem } from '../../stream/kinesis-batch';

export interface RunJourneysDeps {
  journeys: Pick<JourneyStore, 'list' | 'version' | 'history' | 'instances' | 'claimFirstDeposit'>;
  runner: JourneyRunner;
  ledgers: LedgerReader;
  /** The application's clock (functions/runtime/clock.ts `nowFor`). */
  now: (appId: string) => Date;
  realNow?: () => Date;
}

export interface JourneyBatchCounts extends RunCounts {
  players: number;
  entered: number;
  apps_skipped: number;
}

export interface JourneyBatchOutcome {
  /** The first sequence number of each player whose records must come again, lowest first. */
  failed: string[];
  counts: JourneyBatchCounts;
}

interface AppJourneys {
  context: AppContext;
  heads: Map<string, JourneyHead>;
  versions: Map<string, JourneyVersion>;
}

const isFirstDepositEntry = (definition: JourneyDefinition) => 'first_deposit' in definition.entry;

export function runJourneys(deps: RunJourneysDeps) {
  const realNow = deps.realNow ?? (() => new Date());

  async function journeysOf(appId: string): Promise<AppJourneys | undefined> {
    const heads = (await deps.journeys.list(appId)).filter((head) => head.status === 'live' || head.status === 'paused');
    if (heads.length === 0) return undefined;
    const context = await deps.runner.appContext(appId);
    if (!context) return undefined;
    return { context, heads: new Map(heads.map((head) => [head.journey_id, head])), versions: new Map() };
  }

  async function versionOf(app: AppJourneys, journeyId: string, version: number): Promise<JourneyVersion | undefined> {
    const key = `${journeyId}#${version}`;
    const known = app.versions.get(key);
    if (known) return known;
    const stored = await deps.journeys.version(app.context.app.app_id, journeyId, version);
    if (!stored) return undefined;
    const loaded = { journeyId, version, definition: stored.definition };
    app.versions.set(key, loaded);
    return loaded;
  }

  /** The record as the engine reads it; its time in the application's clock (moved in tests), the same on redelivery. */
  function journeyEvent(item: StreamItem): JourneyEvent | undefined {
    const { envelope } = item;
    const record = envelope.record;
    if (envelope.kind !== 'event' || typeof record.event !== 'string' || typeof record.urm_insert_id !== 'string') return undefined;
    if (journeyLifecycleEvents.has(record.event)) return undefined;
    const offset = deps.now(record.app_id as string).getTime() - realNow().getTime();
    return {
      name: record.event,
      insertId: record.urm_insert_id,
      at: new Date(Date.parse(envelope.received_at) + offset).toISOString(),
      properties: eventProperties(record),
    };
  }

  async function firstDeposit(app: AppJourneys, profileId: string, event: JourneyEvent): Promise<boolean> {
    if (app.context.money.money_events[event.name] !== 'deposit' || !Object.hasOwn(app.context.money.money_events, event.name)) return false;
    const appId = app.context.app.app_id;
    const ledger = await deps.ledgers.ledger(appId, profileId);
    if (ledger?.first_deposit && ledger.first_deposit.insert_id !== event.insertId) return false;
    return deps.journeys.claimFirstDeposit(appId, profileId, event.insertId);
  }

  async function player(app: AppJourneys, profileId: string, items: StreamItem[], counts: JourneyBatchCounts): Promise<void> {
    const appId = app.context.app.app_id;
    const history = new Map<string, EntryRecord>((await deps.journeys.history(appId, profileId)).map((record) => [record.journey_id, record]));
    const active = await deps.journeys.instances(
      [...history.values()]
        .filter((record) => record.active_entry !== undefined && app.heads.has(record.journey_id))
        .map((record) => ({ app_id: appId, profile_id: profileId, journey_id: record.journey_id, entry_id: record.active_entry! })),
    );
    const inFlight = new Map<string, StoredInstance>(active.map((stored) => [stored.instance.journeyId, stored]));
    const wantsFirstDeposit = [...app.heads.values()].some((head) => head.status === 'live');

    for (const item of items) {
      const event = journeyEvent(item);
      if (!event) continue;

      // Instances in flight: a goal, an awaited event. Held while their journey is paused.
      for (const [journeyId, stored] of inFlight) {
        if (app.heads.get(journeyId)?.status !== 'live' || stored.instance.done) continue;
        // The entry's own event, redelivered: it entered the player, it moves nothing.
        if (entryIdOf(journeyId, profileId, event.insertId) === stored.instance.entryId) continue;
        const journey = await versionOf(app, journeyId, stored.instance.version);
        if (!journey) continue;
        const outcome = await deps.runner.move(app.context, journey, stored, { kind: 'event', event }, counts);
        if (outcome === 'conflict') throw new Error('a journey instance moved meanwhile');
        if (outcome === 'moved') {
          const [fresh] = await deps.journeys.instances([{ app_id: appId, profile_id: profileId, journey_id: journeyId, entry_id: stored.instance.entryId }]);
          if (fresh) inFlight.set(journeyId, fresh);
        }
      }

      // Entries.
      const triggered = event.name === JOURNEY_TRIGGERED_EVENT ? triggerOf(event) : undefined;
      if (event.name === JOURNEY_TRIGGERED_EVENT && !triggered) continue;
      let deposit: boolean | undefined;
      for (const head of app.heads.values()) {
        if (head.status !== 'live') continue;
        if (triggered && triggered.journeyId !== head.journey_id) continue;
        const journey = await versionOf(app, head.journey_id, head.version);
        if (!journey) continue;
        const { definition } = journey;
        const entryEvent = triggered ? { ...event, properties: triggered.data } : event;
        if (wantsFirstDeposit && isFirstDepositEntry(definition) && deposit === undefined) deposit = await firstDeposit(app, profileId, event);
        if (isFirstDepositEntry(definition)) entryEvent.firstDeposit = deposit === true;
        const record = history.get(head.journey_id);
        const entryId = entryIdOf(head.journey_id, profileId, event.insertId);
        if (record?.active_entry === entryId) {
          // Entered by an earlier run that died before its first move: the timer or this run finishes it.
          const [pending] = await deps.journeys.instances([{ app_id: appId, profile_id: profileId, journey_id: head.journey_id, entry_id: entryId }]);
          if (pending?.revision === 0) {
            const resumed = await versionOf(app, head.journey_id, pending.instance.version);
            if (resumed) await deps.runner.move(app.context, resumed, pending, { kind: 'timer', at: pending.instance.enteredAt }, counts);
          }
          continue;
        }
        const now = deps.now(appId);
        const past = {
          entries: record?.entries ?? 0,
          ...(record?.last_entered_at ? { lastEnteredAt: record.last_entered_at } : {}),
          active: record?.active_entry !== undefined,
        };
        const matches = triggered ? 'api' in definition.entry : !('api' in definition.entry);
        if (!matches) continue;
        // Cheap checks first: the facts (a timeline read) only for a trigger that matches a player who may enter.
        const noFacts = { attributes: {}, aggregates: {}, member: () => false, now, messaging: undefined, money: app.context.money };
        if (!shouldEnter({ ...definition, audience: undefined }, triggered ? 'api' : entryEvent, past, noFacts)) continue;
        if (definition.audience !== undefined) {
          const facts = await deps.runner.factsFor(app.context, profileId, definition, now);
          if (!shouldEnter(definition, triggered ? 'api' : entryEvent, past, facts)) continue;
        }
        const instance = newInstance(journey, profileId, entryEvent);
        if (await deps.runner.enter(app.context, journey, instance, past.entries, counts)) {
          counts.entered++;
          history.set(head.journey_id, {
            journey_id: head.journey_id,
            entries: past.entries + 1,
            last_entered_at: instance.enteredAt,
            active_entry: instance.entryId,
          });
          const [fresh] = await deps.journeys.instances([{ app_id: appId, profile_id: profileId, journey_id: head.journey_id, entry_id: instance.entryId }]);
          if (fresh && !fresh.instance.done) inFlight.set(head.journey_id, fresh);
          else inFlight.delete(head.journey_id);
        }
      }
    }
  }

  return async (items: StreamItem[]): Promise<JourneyBatchOutcome> => {
    const byApp = new Map<string, Map<string, StreamItem[]>>();
    for (const item of items) {
      const { app_id: appId, profile_id: profileId } = item.envelope.record;
      if (typeof appId !== 'string' || typeof profileId !== 'string') continue;
      const players = byApp.get(appId) ?? new Map<string, StreamItem[]>();
      players.set(profileId, [...(players.get(profileId) ?? []), item]);
      byApp.set(appId, players);
    }
    const failed: string[] = [];
    const counts: JourneyBatchCounts = { ...zeroRunCounts(), players: 0, entered: 0, apps_skipped: 0 };
    for (const [appId, players] of byApp) {
      let app: AppJourneys | undefined;
      try {
        app = await journeysOf(appId);
      } catch {
        for (const group of players.values()) failed.push(group[0].sequenceNumber);
        continue;
      }
      if (!app) {
        counts.apps_skipped++;
        continue;
      }
      for (const [profileId, group] of players) {
        if (!group.some((item) => item.envelope.kind === 'event')) continue;
        counts.players++;
        try {
          await player(app, profileId, group, counts);
        } catch {
          // Retried from the player's first record: what this run did is found done (conditional writes, derived ids).
          failed.push(group[0].sequenceNumber);
        }
      }
    }
    return { failed: failed.sort(compareSequence), counts };
  };
}

/** An API trigger's journey and data (written by POST /api/journeys/{journey_id}/trigger). */
function triggerOf(event: JourneyEvent): { journeyId: string; data: Record<string, unknown> } | undefined {
  const journeyId = event.properties.journey_id;
  if (typeof journeyId !== 'string') return undefined;
  const data = event.properties.data;
  return { journeyId, data: data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {} };
}
