/**
 * The back office's segments (docs/api.md, "Segments"): define, change and
 * archive a named condition over a player, read its size and backfill
 * progress, and page through its members (with their names and money, and as
 * CSV: segment-members.ts, which the integrator API does not bundle). Membership itself is kept by the segment engine (the consumer, its
 * timer and the backfill); this writes definitions and reads what it keeps.
 * The console, the command line and the integrator API call these.
 */
import pLimit from 'p-limit';
import type { AppStore } from '../domain/apps';
import type { AuditActor, AuditLog } from '../domain/audit';
import { Conflict, NotFound, ValidationError } from '../domain/errors';
import type { FunnelStore } from '../domain/funnel';
import { validCondition, type Condition } from '../domain/segments/condition';
import { MAX_ACTIVE_SEGMENTS, segmentIdPattern, type SegmentDefinition, type SegmentStatus, type SegmentStore } from '../domain/segments/model';
import type { ProfileStore } from '../domain/timeline';
import { audit } from './audit';
import { decodeCursor, encodeCursor } from './cursors';

export const segmentLimits = {
  nameLength: 100,
  descriptionLength: 1000,
  /** A members page: the console's preview and the integrator API. */
  defaultPageSize: 100,
  maxPageSize: 1000,
  /** A console page of members reads names and money for each (two BatchGetItems): at most this many. */
  maxDetailedPageSize: 100,
  /** One CSV file: a Lambda answer is at most 6 MB, and a row is about 150 bytes. */
  csvRowsPerFile: 10_000,
  /** Size reads of the list (one Query each) run this many at a time. */
  sizeReadConcurrency: 8,
} as const;

export interface SegmentPorts {
  segments: SegmentStore;
  /** The players' attributes: a member's name and email (one BatchGetItem a page). */
  profiles: Pick<ProfileStore, 'getMany'>;
  /** The funnel consumer's ledgers: a member's money (one BatchGetItem a page). */
  ledgers: Pick<FunnelStore, 'ledgers'>;
  /** The main currency the ledgers count in. */
  apps: Pick<AppStore, 'get'>;
  audit: AuditLog;
  now?: () => Date;
  /**
   * The segment engine's needs registry: told of a definition before it is written, so what its condition needs is
   * counted from then on. The engine lane provides it; until then nothing is registered.
   */
  registerNeeds?: (definition: SegmentDefinition) => Promise<void>;
}

export interface SegmentInput {
  segment_id?: string;
  name: string;
  description?: string;
  condition: unknown;
}

export interface SegmentChange {
  name?: string;
  description?: string;
  condition?: unknown;
}

/** A segment as the console, the command line and the API show it. */
export interface SegmentView {
  segment_id: string;
  name: string;
  description: string;
  size: number;
  status: SegmentStatus;
  version: number;
  backfill: { started_at: string; done: number; total: number | null; finished_at: string | null } | null;
  created_at: string;
  updated_at: string;
  updated_by: string;
}

export interface SegmentDetail extends SegmentView {
  condition: Condition;
}

const nowOf = (ports: Pick<SegmentPorts, 'now'>) => ports.now?.() ?? new Date();

function viewOf(segment: SegmentDefinition, size: number): SegmentView {
  const { backfill } = segment;
  return {
    segment_id: segment.segment_id,
    name: segment.name,
    description: segment.description ?? '',
    size,
    status: segment.status,
    version: segment.version,
    backfill: backfill
      ? { started_at: backfill.started_at, done: backfill.done, total: backfill.total ?? null, finished_at: backfill.finished_at ?? null }
      : null,
    created_at: segment.created_at,
    updated_at: segment.updated_at,
    updated_by: segment.updated_by,
  };
}

/** An archived segment is no longer kept: its members are not counted. */
const sizeOf = (ports: Pick<SegmentPorts, 'segments'>, segment: SegmentDefinition) =>
  segment.status === 'archived' ? Promise.resolve(0) : ports.segments.size(segment.app_id, segment.segment_id);

export async function requireSegment(ports: Pick<SegmentPorts, 'segments'>, appId: string, segmentId: string): Promise<SegmentDefinition> {
  const found = segmentIdPattern.test(segmentId) ? await ports.segments.get(appId, segmentId) : undefined;
  if (!found) throw new NotFound('no segment with this id');
  return found;
}

const reservedIds = ['new'];

/** The id a name gives: lower case, words joined by `-`, at most 64 characters. */
export function segmentIdFromName(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}

// ---- checks ----------------------------------------------------------------

function textProblems(input: { name?: unknown; description?: unknown }, required: boolean): string[] {
  const problems: string[] = [];
  const { name, description } = input;
  if (name === undefined) {
    if (required) problems.push('name is required');
  } else if (typeof name !== 'string' || name.trim().length === 0) problems.push('name must not be empty');
  else if (name.length > segmentLimits.nameLength) problems.push(`name must be at most ${segmentLimits.nameLength} characters`);
  if (description !== undefined && (typeof description !== 'string' || description.length > segmentLimits.descriptionLength))
    problems.push(`description must be text of at most ${segmentLimits.descriptionLength} characters`);
  return problems;
}

/** The condition checked by its schema: a ValidationError whose messages name the node's path. */
function checkedCondition(input: unknown): Condition {
  if (input === undefined) throw new ValidationError(['condition is required'], 'segment is invalid');
  return validCondition(input);
}

/** Each membership leaf with its path (`condition.all[1].segment`). */
function membershipPaths(condition: Condition, path = 'condition'): { segment: string; path: string }[] {
  if ('all' in condition) return condition.all.flatMap((child, i) => membershipPaths(child, `${path}.all[${i}]`));
  if ('any' in condition) return condition.any.flatMap((child, i) => membershipPaths(child, `${path}.any[${i}]`));
  if ('not' in condition) return membershipPaths(condition.not, `${path}.not`);
  return 'segment' in condition ? [{ segment: condition.segment, path: `${path}.segment` }] : [];
}

/**
 * What the condition of `segmentId` may not name: a segment that does not exist or is archived, itself, or one that
 * (through others) names it back.
 */
function referenceProblems(segmentId: string, condition: Condition, all: readonly SegmentDefinition[]): string[] {
  const byId = new Map(all.map((segment) => [segment.segment_id, segment]));
  const reaches = (from: string, seen = new Set<string>()): boolean => {
    if (from === segmentId) return true;
    if (seen.has(from)) return false;
    seen.add(from);
    const found = byId.get(from);
    return found !== undefined && membershipPaths(found.condition).some((ref) => reaches(ref.segment, seen));
  };
  return membershipPaths(condition).flatMap(({ segment, path }) => {
    const found = byId.get(segment);
    if (segment === segmentId) return [`${path} names this segment itself`];
    if (!found) return [`${path} names ${segment}, which is not a segment of this application`];
    if (found.status === 'archived') return [`${path} names ${segment}, which is archived`];
    if (reaches(segment)) return [`${path} names ${segment}, which is defined through this segment (a cycle)`];
    return [];
  });
}

// ---- reads -----------------------------------------------------------------

/** The application's segments with their sizes, oldest first (archived ones only when asked). */
export function listSegments(ports: Pick<SegmentPorts, 'segments'>) {
  return async (appId: string, options: { archived?: boolean } = {}): Promise<SegmentView[]> => {
    const segments = await ports.segments.list(appId, options);
    const limit = pLimit(segmentLimits.sizeReadConcurrency);
    const sizes = await Promise.all(segments.map((segment) => limit(() => sizeOf(ports, segment))));
    return segments.map((segment, i) => viewOf(segment, sizes[i]!));
  };
}

export function getSegment(ports: Pick<SegmentPorts, 'segments'>) {
  return async (appId: string, segmentId: string): Promise<SegmentDetail> => {
    const segment = await requireSegment(ports, appId, segmentId);
    return { ...viewOf(segment, await sizeOf(ports, segment)), condition: segment.condition };
  };
}

// ---- changes ---------------------------------------------------------------

/**
 * Defines a segment: `backfilling` at version 1 until the engine has evaluated every existing player. 409 when the
 * id is taken or the application has MAX_ACTIVE_SEGMENTS active segments.
 */
export function createSegment(ports: SegmentPorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, input: SegmentInput): Promise<SegmentDetail> => {
    const problems = textProblems(input, true);
    const segmentId = input.segment_id ?? (typeof input.name === 'string' ? segmentIdFromName(input.name) : '');
    if (problems.length === 0 && !segmentIdPattern.test(segmentId))
      problems.push(
        input.segment_id === undefined
          ? 'segment_id is required: the name gives none (use letters or digits)'
          : 'segment_id must be 1 to 64 lower-case letters, digits, _ or -, starting with a letter or digit',
      );
    // The console's address of the new-segment form.
    if (problems.length === 0 && reservedIds.includes(segmentId)) problems.push(`segment_id ${segmentId} is reserved: give another`);
    if (problems.length > 0) throw new ValidationError(problems, 'segment is invalid');
    const condition = checkedCondition(input.condition);
    const all = await ports.segments.list(appId, { archived: true });
    if (all.some((segment) => segment.segment_id === segmentId)) throw new Conflict(`a segment with id ${segmentId} exists: give another segment_id`);
    const references = referenceProblems(segmentId, condition, all);
    if (references.length > 0) throw new ValidationError(references, 'condition is invalid');
    if (all.filter((segment) => segment.status !== 'archived').length >= MAX_ACTIVE_SEGMENTS)
      throw new Conflict(`the application has ${MAX_ACTIVE_SEGMENTS} segments, the most it may keep: archive one first`);
    const at = nowOf(ports).toISOString();
    const definition: SegmentDefinition = {
      app_id: appId,
      segment_id: segmentId,
      name: input.name.trim(),
      ...(input.description ? { description: input.description } : {}),
      condition,
      version: 1,
      status: 'backfilling',
      created_at: at,
      updated_at: at,
      updated_by: actor.email,
      backfill: { started_at: at, done: 0 },
    };
    await registerNeedsOf(ports, definition);
    if (!(await ports.segments.create(definition))) throw new Conflict(`a segment with id ${segmentId} exists: give another segment_id`);
    await record({ appId, actor, action: 'segment.created', target: `segment:${segmentId}`, details: { name: definition.name, version: 1 } });
    return { ...viewOf(definition, 0), condition };
  };
}

/**
 * Changes a segment's name, description or condition. A new condition is a new version, `backfilling` again with a
 * fresh backfill; a name or description alone keeps the version and status. An archived segment is not changed (409).
 */
export function editSegment(ports: SegmentPorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, segmentId: string, change: SegmentChange): Promise<SegmentDetail> => {
    const problems = textProblems(change, false);
    if (problems.length > 0) throw new ValidationError(problems, 'segment is invalid');
    const current = await requireSegment(ports, appId, segmentId);
    if (current.status === 'archived') throw new Conflict('the segment is archived: it can no longer be changed');
    const condition = change.condition === undefined ? current.condition : checkedCondition(change.condition);
    const conditionChanged = canonical(condition) !== canonical(current.condition);
    if (conditionChanged) {
      const references = referenceProblems(segmentId, condition, await ports.segments.list(appId, { archived: true }));
      if (references.length > 0) throw new ValidationError(references, 'condition is invalid');
    }
    const at = nowOf(ports).toISOString();
    const description = change.description ?? current.description;
    const updated: SegmentDefinition = {
      ...current,
      name: change.name?.trim() ?? current.name,
      ...(description ? { description } : {}),
      condition,
      updated_at: at,
      updated_by: actor.email,
      ...(conditionChanged ? { version: current.version + 1, status: 'backfilling' as const, backfill: { started_at: at, done: 0 } } : {}),
    };
    if (!description) delete updated.description;
    if (conditionChanged) await registerNeedsOf(ports, updated);
    if (!(await ports.segments.put(updated, current.version))) throw new Conflict('the segment changed meanwhile: read it again and retry');
    const changed = (['name', 'description'] as const).filter((field) => (updated[field] ?? '') !== (current[field] ?? ''));
    await record({
      appId,
      actor,
      action: 'segment.updated',
      target: `segment:${segmentId}`,
      details: { changed: [...changed, ...(conditionChanged ? ['condition'] : [])], version: updated.version },
    });
    return { ...viewOf(updated, await sizeOf(ports, updated)), condition };
  };
}

/**
 * Archives a segment: it is no longer kept, shows no members and frees its place among the active ones. Refused
 * (409) while an active segment's condition names it. Archiving an archived segment changes nothing.
 */
export function archiveSegment(ports: SegmentPorts) {
  const record = audit(ports);
  return async (appId: string, actor: AuditActor, segmentId: string): Promise<SegmentDetail> => {
    const current = await requireSegment(ports, appId, segmentId);
    if (current.status === 'archived') return { ...viewOf(current, 0), condition: current.condition };
    const users = (await ports.segments.list(appId)).filter(
      (segment) => segment.segment_id !== segmentId && membershipPaths(segment.condition).some((ref) => ref.segment === segmentId),
    );
    if (users.length > 0) throw new Conflict(`the segment is used by ${users.map((segment) => segment.segment_id).join(', ')}: change or archive those first`);
    const updated: SegmentDefinition = { ...current, status: 'archived', updated_at: nowOf(ports).toISOString(), updated_by: actor.email };
    if (!(await ports.segments.put(updated, current.version))) throw new Conflict('the segment changed meanwhile: read it again and retry');
    await record({ appId, actor, action: 'segment.archived', target: `segment:${segmentId}`, details: { name: current.name, version: current.version } });
    return { ...viewOf(updated, 0), condition: current.condition };
  };
}

/** A condition as JSON with its keys in order: the same condition however its keys were written. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** The one call site of the engine's needs registry. */
async function registerNeedsOf(ports: Pick<SegmentPorts, 'registerNeeds'>, definition: SegmentDefinition): Promise<void> {
  await ports.registerNeeds?.(definition);
}

// ---- members ---------------------------------------------------------------

const listing = 'segment';

/** A page of member ids, in profile id order, behind a cursor bound to the application and the segment. */
export async function memberIds(ports: Pick<SegmentPorts, 'segments'>, segment: SegmentDefinition, limit: number, cursor: string | undefined) {
  // Archived: no longer kept, so whatever member items are left say nothing.
  if (segment.status === 'archived') return { members: [], next: null };
  const scope = [segment.app_id, segment.segment_id];
  const position = cursor === undefined ? undefined : decodeCursor(cursor, scope, listing);
  let page: Awaited<ReturnType<SegmentStore['members']>>;
  try {
    page = await ports.segments.members(segment.app_id, segment.segment_id, limit, position);
  } catch (error) {
    if (error instanceof RangeError) throw new ValidationError([`cursor is not one this ${listing} gave`], 'request is invalid');
    throw error;
  }
  return { members: page.members, next: page.next === undefined ? null : encodeCursor(scope, page.next) };
}

export interface SegmentMemberPage {
  members: { profile_id: string; entered_at: string }[];
  next_cursor: string | null;
}

/** Members' ids and when they entered, a page at a time: the integrator API's answer. An archived segment is not found. */
export function segmentMemberIds(ports: Pick<SegmentPorts, 'segments'>) {
  return async (appId: string, segmentId: string, options: { limit?: number; cursor?: string } = {}): Promise<SegmentMemberPage> => {
    const segment = await requireSegment(ports, appId, segmentId);
    if (segment.status === 'archived') throw new NotFound('no segment with this id');
    const page = await memberIds(ports, segment, options.limit ?? segmentLimits.defaultPageSize, options.cursor);
    return { members: page.members.map(({ profile_id, entered_at }) => ({ profile_id, entered_at })), next_cursor: page.next };
  };
}
