/**
 * The back office's journeys (docs/api.md, "Journeys"): create, edit (a
 * changed definition is a new version; players in flight keep theirs),
 * publish, pause, resume and archive, list and read one with its versions and
 * how many players are at each step now, and a player's journeys (where they
 * are, what they got). The console and the command line call these; the
 * runtime (functions/domain/journeys/runner.ts) reads what they write.
 */
import type { AuditActor, AuditLog } from '../domain/audit';
import { Conflict, NotFound, ValidationError } from '../domain/errors';
import { checkJourney, type JourneyDefinition } from '../domain/journeys/definition';
import type { ExitReason } from '../domain/journeys/engine';
import {
  JOURNEYS_PER_APP,
  journeyIdPattern,
  type JourneyHead,
  type JourneyStatus,
  type JourneyStore,
  type StepOccupancy,
  type StoredJourneyVersion,
} from '../domain/journeys/store';
import type { TemplateStore } from '../domain/template-store';
import { audit } from './audit';
import { nowOf } from './ports';
import { segmentIdFromName } from './segments';

export const journeyNameLength = 100;

export interface JourneyPorts {
  journeys: JourneyStore;
  audit: AuditLog;
  /** When given, a send step must name a template the application has. */
  templates?: Pick<TemplateStore, 'get'>;
  now?: () => Date;
}

export interface JourneyInput {
  journey_id?: string;
  name: string;
  definition: unknown;
}

export interface JourneyChange {
  name?: string;
  definition?: unknown;
}

export interface JourneyDetail extends JourneyHead {
  definition: JourneyDefinition;
  versions: { version: number; created_at: string; created_by?: string }[];
  /** Players at each step of each version now. */
  occupancy: StepOccupancy[];
}

/** What moves a journey's status: the action, the statuses it moves from, the status it moves to. */
export const statusMoves = {
  publish: { from: ['draft'], to: 'live' },
  pause: { from: ['live'], to: 'paused' },
  resume: { from: ['paused'], to: 'live' },
  archive: { from: ['draft', 'live', 'paused'], to: 'archived' },
} as const satisfies Record<string, { from: readonly JourneyStatus[]; to: JourneyStatus }>;
export type StatusMove = keyof typeof statusMoves;

const idPattern = new RegExp(journeyIdPattern);

function nameProblems(name: unknown, required: boolean): string[] {
  if (name === undefined) return required ? ['name is required'] : [];
  if (typeof name !== 'string' || name.trim().length === 0) return ['name must not be empty'];
  if (name.length > journeyNameLength) return [`name must be at most ${journeyNameLength} characters`];
  return [];
}

async function checked(ports: JourneyPorts, appId: string, input: unknown): Promise<JourneyDefinition> {
  const definition = checkJourney(input);
  if (ports.templates) {
    const problems: string[] = [];
    for (const [index, step] of definition.steps.entries()) {
      if (step.type === 'send' && !(await ports.templates.get(appId, step.template_id)))
        problems.push(`steps[${index}].template_id: no template "${step.template_id}"`);
    }
    if (problems.length > 0) throw new ValidationError(problems, 'journey is invalid');
  }
  return definition;
}

async function requireJourney(ports: JourneyPorts, appId: string, journeyId: string): Promise<JourneyHead> {
  const head = idPattern.test(journeyId) ? await ports.journeys.get(appId, journeyId) : undefined;
  if (!head) throw new NotFound('no journey with this id');
  return head;
}

const versionOf = (appId: string, journeyId: string, version: number, definition: JourneyDefinition, at: string, actor: AuditActor): StoredJourneyVersion => ({
  app_id: appId,
  journey_id: journeyId,
  version,
  definition,
  created_at: at,
  created_by: actor.email,
});

const canonical = (value: unknown) => JSON.stringify(value);

/** A draft at version 1. 409 when the id is taken or the application has JOURNEYS_PER_APP journeys. */
export function createJourney(ports: JourneyPorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, input: JourneyInput): Promise<JourneyDetail> => {
    const problems = nameProblems(input.name, true);
    const journeyId = input.journey_id ?? (typeof input.name === 'string' ? segmentIdFromName(input.name) : '');
    if (problems.length === 0 && !idPattern.test(journeyId))
      problems.push(
        input.journey_id === undefined
          ? 'journey_id is required: the name gives none (use letters or digits)'
          : 'journey_id must be 2 to 64 lower-case letters, digits, _ or -, starting with a letter or digit',
      );
    if (problems.length === 0 && journeyId === 'new') problems.push('journey_id new is reserved: give another');
    if (problems.length > 0) throw new ValidationError(problems, 'journey is invalid');
    const definition = await checked(ports, appId, input.definition);
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
    if (!(await ports.journeys.create(head, versionOf(appId, journeyId, 1, definition, at, actor))))
      throw new Conflict(`a journey with id ${journeyId} exists: give another journey_id`);
    await record({ appId, actor, action: 'journey.created', target: `journey:${journeyId}`, details: { name: head.name, version: 1 } });
    return { ...head, definition, versions: [{ version: 1, created_at: at, created_by: actor.email }], occupancy: [] };
  };
}

/** Renames, or changes the definition: a new version that new entries take; players in flight keep theirs. */
export function editJourney(ports: JourneyPorts) {
  const record = audit(ports);
  const read = getJourney(ports);
  return async (appId: string, actor: AuditActor, journeyId: string, change: JourneyChange): Promise<JourneyDetail> => {
    const problems = nameProblems(change.name, false);
    if (problems.length > 0) throw new ValidationError(problems, 'journey is invalid');
    const head = await requireJourney(ports, appId, journeyId);
    if (head.status === 'archived') throw new Conflict('the journey is archived: it can no longer be changed');
    const current = await ports.journeys.version(appId, journeyId, head.version);
    const definition = change.definition === undefined ? current?.definition : await checked(ports, appId, change.definition);
    const definitionChanged = definition !== undefined && canonical(definition) !== canonical(current?.definition);
    const at = nowOf(ports).toISOString();
    const updated: JourneyHead = {
      ...head,
      name: change.name?.trim() ?? head.name,
      version: definitionChanged ? head.version + 1 : head.version,
      revision: head.revision + 1,
      updated_at: at,
      updated_by: actor.email,
    };
    const version = definitionChanged && definition ? versionOf(appId, journeyId, updated.version, definition, at, actor) : undefined;
    if (!(await ports.journeys.update(updated, head.revision, version))) throw new Conflict('the journey changed meanwhile: read it again and retry');
    const changed = [...(updated.name !== head.name ? ['name'] : []), ...(definitionChanged ? ['definition'] : [])];
    await record({ appId, actor, action: 'journey.updated', target: `journey:${journeyId}`, details: { changed, version: updated.version } });
    return read(appId, journeyId);
  };
}

/** Publishes, pauses, resumes or archives; a move from a status it does not start from is a 409. */
export function moveJourney(ports: JourneyPorts) {
  const record = audit(ports);
  const read = getJourney(ports);
  return async (appId: string, actor: AuditActor, journeyId: string, move: StatusMove): Promise<JourneyDetail> => {
    const head = await requireJourney(ports, appId, journeyId);
    const { from, to } = statusMoves[move];
    if (head.status === to) return read(appId, journeyId);
    if (!(from as readonly JourneyStatus[]).includes(head.status)) throw new Conflict(`a ${head.status} journey cannot be ${to === 'live' ? 'made live' : to}`);
    const updated: JourneyHead = { ...head, status: to, revision: head.revision + 1, updated_at: nowOf(ports).toISOString(), updated_by: actor.email };
    if (!(await ports.journeys.update(updated, head.revision))) throw new Conflict('the journey changed meanwhile: read it again and retry');
    await record({ appId, actor, action: `journey.${to === 'live' ? (move === 'publish' ? 'published' : 'resumed') : to}`, target: `journey:${journeyId}` });
    return read(appId, journeyId);
  };
}

/** The application's journeys, newest change first; archived ones only when asked. */
export function listJourneys(ports: Pick<JourneyPorts, 'journeys'>) {
  return (appId: string, options: { archived?: boolean } = {}): Promise<JourneyHead[]> => ports.journeys.list(appId, options);
}

/** One journey: its head, current definition, versions (newest first) and players at each step now. */
export function getJourney(ports: Pick<JourneyPorts, 'journeys'>) {
  return async (appId: string, journeyId: string): Promise<JourneyDetail> => {
    const head = await requireJourney(ports as JourneyPorts, appId, journeyId);
    const [versions, occupancy] = await Promise.all([ports.journeys.versions(appId, journeyId), ports.journeys.occupancy(appId, journeyId)]);
    const current = versions.find((version) => version.version === head.version) ?? (await ports.journeys.version(appId, journeyId, head.version));
    if (!current) throw new NotFound('no journey with this id');
    return {
      ...head,
      definition: current.definition,
      versions: versions.map(({ version, created_at, created_by }) => ({ version, created_at, ...(created_by ? { created_by } : {}) })),
      occupancy,
    };
  };
}

export interface PlayerJourney {
  journey_id: string;
  name: string;
  version: number;
  entry_id: string;
  entered_at: string;
  /** Where the player is (while in it) or was last. */
  step_id: string;
  status: 'active' | 'done';
  waiting_until?: string;
  done?: { reason: ExitReason; at: string };
  /** The send steps that acted for this entry: what the player got (the gate may still have suppressed one: see the timeline). */
  sends: { step_id: string; channel: string; template_id: string }[];
}

/** A player's journeys, entries in flight first, then the newest done. */
export function playerJourneys(ports: Pick<JourneyPorts, 'journeys'>) {
  return async (appId: string, profileId: string): Promise<PlayerJourney[]> => {
    const [instances, heads] = await Promise.all([ports.journeys.playerInstances(appId, profileId), ports.journeys.list(appId, { archived: true })]);
    const names = new Map(heads.map((head) => [head.journey_id, head.name]));
    const definitions = new Map<string, Promise<StoredJourneyVersion | undefined>>();
    const definitionOf = (journeyId: string, version: number) => {
      const key = `${journeyId}#${version}`;
      if (!definitions.has(key)) definitions.set(key, ports.journeys.version(appId, journeyId, version));
      return definitions.get(key)!;
    };
    const rows = await Promise.all(
      instances.map(async ({ instance }): Promise<PlayerJourney> => {
        const stored = await definitionOf(instance.journeyId, instance.version);
        const sends = (stored?.definition.steps ?? []).flatMap((step) =>
          step.type === 'send' && (instance.visits?.[step.id] ?? 0) > 0 ? [{ step_id: step.id, channel: step.channel, template_id: step.template_id }] : [],
        );
        return {
          journey_id: instance.journeyId,
          name: names.get(instance.journeyId) ?? instance.journeyId,
          version: instance.version,
          entry_id: instance.entryId,
          entered_at: instance.enteredAt,
          step_id: instance.stepId,
          status: instance.done ? 'done' : 'active',
          ...(instance.waitingUntil && !instance.done ? { waiting_until: instance.waitingUntil } : {}),
          ...(instance.done ? { done: instance.done } : {}),
          sends,
        };
      }),
    );
    return rows.sort((a, b) => (a.status === b.status ? b.entered_at.localeCompare(a.entered_at) : a.status === 'active' ? -1 : 1));
  };
}
