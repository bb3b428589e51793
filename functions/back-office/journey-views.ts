/**
 * Journeys as the console shows them: the list with each one's entry and how
 * many players are in it now, one journey with its current definition, its
 * versions and the players at each step, and a player's journeys (where they
 * are, what they got). Reads over the JourneyStore port
 * (functions/domain/journeys/store.ts); the changes (create, edit → a new
 * version, publish, pause, resume, archive) write the head conditionally on
 * its revision and one audit entry each.
 */
import pLimit from 'p-limit';
import type { AuditActor, AuditLog } from '../domain/audit';
import { Conflict, NotFound, ValidationError } from '../domain/errors';
import { checkJourney, type Entry, type JourneyDefinition, type Step } from '../domain/journeys/definition';
import type { ExitReason } from '../domain/journeys/engine';
import {
  INSTANCES_LISTED,
  JOURNEYS_PER_APP,
  journeyIdPattern,
  type JourneyHead,
  type JourneyStatus,
  type JourneyStore,
  type StepOccupancy,
  type StoredJourneyVersion,
  VERSIONS_LISTED,
} from '../domain/journeys/store';
import { audit } from './audit';
import { segmentIdFromName } from './segments';

export interface JourneyViewPorts {
  journeys: JourneyStore;
  audit: AuditLog;
  now?: () => Date;
}

/** Reads of versions and counters run this many at a time (a list of 200 journeys is 400 small reads). */
const READ_CONCURRENCY = 8;
const idPattern = new RegExp(journeyIdPattern);
// The console's address of the new-journey form.
const reservedIds = ['new'];

export interface JourneySummary {
  journey_id: string;
  name: string;
  status: JourneyStatus;
  version: number;
  entry: Entry;
  /** Players in the journey now, in any version. */
  players_now: number;
  created_at: string;
  updated_at: string;
  updated_by: string | null;
}

export interface JourneyVersionView {
  version: number;
  created_at: string;
  created_by: string | null;
  players_now: number;
}

export interface JourneyDetail extends JourneySummary {
  definition: JourneyDefinition;
  versions: JourneyVersionView[];
  /** Players at each step now, by version (steps nobody is at are left out). */
  occupancy: StepOccupancy[];
}

export interface PlayerJourneyView {
  journey_id: string;
  /** The journey's name now; its id when the journey is gone. */
  name: string;
  version: number;
  entry_id: string;
  entered_at: string;
  /** The step the player is at, with its type; null once done. */
  at: { step_id: string; type: Step['type'] | null; waiting_until: string | null } | null;
  done: { reason: ExitReason; at: string } | null;
  /** The steps that acted for the player in this entry (sends, attributes set), in the version's order, with how often. */
  got: { step_id: string; type: Step['type']; channel: string | null; template_id: string | null; times: number }[];
}

const nowOf = (ports: Pick<JourneyViewPorts, 'now'>) => ports.now?.() ?? new Date();
const sum = (rows: readonly StepOccupancy[]) => rows.reduce((total, row) => total + row.players, 0);

function summaryOf(head: JourneyHead, entry: Entry, occupancy: readonly StepOccupancy[]): JourneySummary {
  return {
    journey_id: head.journey_id,
    name: head.name,
    status: head.status,
    version: head.version,
    entry,
    players_now: sum(occupancy),
    created_at: head.created_at,
    updated_at: head.updated_at,
    updated_by: head.updated_by ?? null,
  };
}

async function requireHead(ports: Pick<JourneyViewPorts, 'journeys'>, appId: string, journeyId: string): Promise<JourneyHead> {
  const head = idPattern.test(journeyId) ? await ports.journeys.get(appId, journeyId) : undefined;
  if (!head) throw new NotFound('no journey with this id');
  return head;
}

async function requireVersion(ports: Pick<JourneyViewPorts, 'journeys'>, head: JourneyHead): Promise<StoredJourneyVersion> {
  const version = await ports.journeys.version(head.app_id, head.journey_id, head.version);
  // Written in the head's own transaction: a head without its version is a broken store, not a caller's mistake.
  if (!version) throw new Error(`journey ${head.journey_id} has no version ${head.version}`);
  return version;
}

// ---- reads -----------------------------------------------------------------

/** The application's journeys, newest change first: per journey its current version's entry and its occupancy (two reads). */
export function listJourneyViews(ports: Pick<JourneyViewPorts, 'journeys'>) {
  return async (appId: string, options: { archived?: boolean } = {}): Promise<JourneySummary[]> => {
    const heads = await ports.journeys.list(appId, options);
    const limit = pLimit(READ_CONCURRENCY);
    return Promise.all(
      heads.map((head) =>
        limit(async () => {
          const [version, occupancy] = await Promise.all([
            requireVersion(ports, head),
            head.status === 'draft' ? Promise.resolve([]) : ports.journeys.occupancy(appId, head.journey_id),
          ]);
          return summaryOf(head, version.definition.entry, occupancy);
        }),
      ),
    );
  };
}

export function getJourneyView(ports: Pick<JourneyViewPorts, 'journeys'>) {
  return async (appId: string, journeyId: string): Promise<JourneyDetail> => {
    const head = await requireHead(ports, appId, journeyId);
    const [versions, occupancy] = await Promise.all([ports.journeys.versions(appId, journeyId, VERSIONS_LISTED), ports.journeys.occupancy(appId, journeyId)]);
    const current = versions.find((version) => version.version === head.version) ?? (await requireVersion(ports, head));
    return {
      ...summaryOf(head, current.definition.entry, occupancy),
      definition: current.definition,
      versions: versions.map((version) => ({
        version: version.version,
        created_at: version.created_at,
        created_by: version.created_by ?? null,
        players_now: sum(occupancy.filter((row) => row.version === version.version)),
      })),
      occupancy,
    };
  };
}

/**
 * The player's journeys, newest entry first: where they are and what each entry's acting steps did. One read of the
 * instances, one of the heads, one per distinct version entered.
 */
export function playerJourneyViews(ports: Pick<JourneyViewPorts, 'journeys'>) {
  return async (appId: string, profileId: string): Promise<PlayerJourneyView[]> => {
    const [instances, heads] = await Promise.all([
      ports.journeys.playerInstances(appId, profileId, INSTANCES_LISTED),
      ports.journeys.list(appId, { archived: true }),
    ]);
    const names = new Map(heads.map((head) => [head.journey_id, head.name]));
    const wanted = [...new Set(instances.map(({ instance }) => `${instance.journeyId}\n${instance.version}`))];
    const limit = pLimit(READ_CONCURRENCY);
    const versions = new Map(
      await Promise.all(
        wanted.map((key) =>
          limit(async () => {
            const [journeyId, version] = key.split('\n');
            return [key, await ports.journeys.version(appId, journeyId, Number(version))] as const;
          }),
        ),
      ),
    );
    return instances
      .map(({ instance }): PlayerJourneyView => {
        const steps = versions.get(`${instance.journeyId}\n${instance.version}`)?.definition.steps ?? [];
        const stepOf = (id: string) => steps.find((step) => step.id === id);
        const visits = instance.visits ?? {};
        return {
          journey_id: instance.journeyId,
          name: names.get(instance.journeyId) ?? instance.journeyId,
          version: instance.version,
          entry_id: instance.entryId,
          entered_at: instance.enteredAt,
          at: instance.done ? null : { step_id: instance.stepId, type: stepOf(instance.stepId)?.type ?? null, waiting_until: instance.waitingUntil ?? null },
          done: instance.done ?? null,
          got: steps
            .filter((step) => (step.type === 'send' || step.type === 'set_attributes') && (visits[step.id] ?? 0) > 0)
            .map((step) => ({
              step_id: step.id,
              type: step.type,
              channel: step.type === 'send' ? step.channel : null,
              template_id: step.type === 'send' ? step.template_id : null,
              times: visits[step.id] ?? 0,
            })),
        };
      })
      .sort((a, b) => b.entered_at.localeCompare(a.entered_at));
  };
}

// ---- changes ---------------------------------------------------------------

export interface JourneyInput {
  journey_id?: string;
  name: string;
  definition: unknown;
}

export interface JourneyChange {
  name?: string;
  definition?: unknown;
}

/** The definition checked whole; its messages name the path under `definition` (`definition.steps[1].duration…`). */
function checkedDefinition(input: unknown): JourneyDefinition {
  try {
    return checkJourney(input);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(
      error.errors.map((message) => (message.startsWith('journey') ? message.replace(/^journey/, 'definition') : `definition.${message}`)),
      'journey is invalid',
    );
  }
}

/** A draft at version 1. 409 when the id is taken or the application keeps JOURNEYS_PER_APP journeys. */
export function createJourneyView(ports: JourneyViewPorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, input: JourneyInput): Promise<JourneyDetail> => {
    const journeyId = input.journey_id ?? segmentIdFromName(input.name);
    if (!idPattern.test(journeyId))
      throw new ValidationError(
        [
          input.journey_id === undefined
            ? 'journey_id is required: the name gives none (use two letters or digits at least)'
            : 'journey_id must be 2 to 64 lower-case letters, digits, _ or -, starting with a letter or digit',
        ],
        'journey is invalid',
      );
    if (reservedIds.includes(journeyId)) throw new ValidationError([`journey_id ${journeyId} is reserved: give another`], 'journey is invalid');
    const definition = checkedDefinition(input.definition);
    if ((await ports.journeys.count(appId)) >= JOURNEYS_PER_APP) throw new Conflict(`the application has ${JOURNEYS_PER_APP} journeys, the most it may keep`);
    const at = nowOf(ports).toISOString();
    const head: JourneyHead = {
      app_id: appId,
      journey_id: journeyId,
      name: input.name.trim(),
      status: 'draft',
      version: 1,
      revision: 1,
      created_at: at,
      updated_at: at,
      updated_by: actor.email,
    };
    const created = await ports.journeys.create(head, {
      app_id: appId,
      journey_id: journeyId,
      version: 1,
      definition,
      created_at: at,
      created_by: actor.email,
    });
    if (!created) throw new Conflict(`a journey with id ${journeyId} exists: give another journey_id`);
    await record({ appId, actor, action: 'journey.created', target: `journey:${journeyId}`, details: { version: 1 } });
    return getJourneyView(ports)(appId, journeyId);
  };
}

/** Writes the head at the revision read; a race with another change is a 409 to try again. */
async function writeHead(ports: Pick<JourneyViewPorts, 'journeys'>, head: JourneyHead, next: JourneyHead, version?: StoredJourneyVersion) {
  if (!(await ports.journeys.update(next, head.revision, version))) throw new Conflict('the journey was changed meanwhile: read it again and retry');
}

/** A new name, or a new definition as a new version (players in flight keep theirs; new entries take it). */
export function editJourneyView(ports: JourneyViewPorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, journeyId: string, change: JourneyChange): Promise<JourneyDetail> => {
    const head = await requireHead(ports, appId, journeyId);
    if (head.status === 'archived') throw new Conflict('the journey is archived: it cannot change');
    const definition = change.definition === undefined ? undefined : checkedDefinition(change.definition);
    const at = nowOf(ports).toISOString();
    const version = definition === undefined ? head.version : head.version + 1;
    const next: JourneyHead = {
      ...head,
      name: change.name?.trim() ?? head.name,
      version,
      revision: head.revision + 1,
      updated_at: at,
      updated_by: actor.email,
    };
    await writeHead(ports, head, next, definition && { app_id: appId, journey_id: journeyId, version, definition, created_at: at, created_by: actor.email });
    await record({ appId, actor, action: 'journey.edited', target: `journey:${journeyId}`, details: { version, new_version: definition !== undefined } });
    return getJourneyView(ports)(appId, journeyId);
  };
}

export type JourneyStatusAction = 'publish' | 'pause' | 'resume' | 'archive';

/** From which statuses each action goes, and to which. */
const transitions: Record<JourneyStatusAction, { from: readonly JourneyStatus[]; to: JourneyStatus; done: string }> = {
  publish: { from: ['draft'], to: 'live', done: 'journey.published' },
  pause: { from: ['live'], to: 'paused', done: 'journey.paused' },
  resume: { from: ['paused'], to: 'live', done: 'journey.resumed' },
  archive: { from: ['draft', 'live', 'paused'], to: 'archived', done: 'journey.archived' },
};

/** Publish, pause, resume or archive: 409 from a status the action does not start from. */
export function setJourneyStatus(ports: JourneyViewPorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, journeyId: string, action: JourneyStatusAction): Promise<JourneyDetail> => {
    const head = await requireHead(ports, appId, journeyId);
    const { from, to, done } = transitions[action];
    if (!from.includes(head.status)) throw new Conflict(`the journey is ${head.status}: it cannot ${action}`);
    const at = nowOf(ports).toISOString();
    await writeHead(ports, head, { ...head, status: to, revision: head.revision + 1, updated_at: at, updated_by: actor.email });
    await record({ appId, actor, action: done, target: `journey:${journeyId}`, details: { version: head.version } });
    return getJourneyView(ports)(appId, journeyId);
  };
}
