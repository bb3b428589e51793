/**
 * What the console shows of journeys beyond the back office's use cases
 * (journeys.ts): the list with each journey's entry and how many players are
 * in it now, and one journey's figures (players now, per version) from what
 * its read already holds.
 */
import pLimit from 'p-limit';
import type { Entry } from '../domain/journeys/definition';
import type { JourneyStore, StepOccupancy } from '../domain/journeys/store';
import { type JourneyDetail, listJourneys } from './journeys';

/** Reads of versions and counters run this many at a time (a list of 200 journeys is 400 small reads). */
const READ_CONCURRENCY = 8;

const sum = (rows: readonly StepOccupancy[]) => rows.reduce((total, row) => total + row.players, 0);

export interface JourneySummary {
  journey_id: string;
  name: string;
  status: JourneyDetail['status'];
  version: number;
  entry: Entry;
  /** Players in the journey now, in any version. */
  players_now: number;
  updated_at: string;
}

/** A journey as the console's page reads it: the use case's detail, with players now in all and per version. */
export type JourneyView = Omit<JourneyDetail, 'versions'> & {
  players_now: number;
  versions: (JourneyDetail['versions'][number] & { players_now: number })[];
};

export function journeyView(detail: JourneyDetail): JourneyView {
  return {
    ...detail,
    players_now: sum(detail.occupancy),
    versions: detail.versions.map((version) => ({ ...version, players_now: sum(detail.occupancy.filter((row) => row.version === version.version)) })),
  };
}

/**
 * The application's journeys, newest change first, each with its current version's entry and its players now: the
 * heads (one query), then per journey its version (one read) and, unless a draft, its counters (one query).
 */
export function listJourneyViews(ports: { journeys: JourneyStore }) {
  const list = listJourneys(ports);
  return async (appId: string, options: { archived?: boolean } = {}): Promise<JourneySummary[]> => {
    const heads = await list(appId, options);
    const limit = pLimit(READ_CONCURRENCY);
    return Promise.all(
      heads.map((head) =>
        limit(async () => {
          const [version, occupancy] = await Promise.all([
            ports.journeys.version(appId, head.journey_id, head.version),
            head.status === 'draft' ? Promise.resolve([]) : ports.journeys.occupancy(appId, head.journey_id),
          ]);
          // Written in the head's own transaction: a head without its version is a broken store.
          if (!version) throw new Error(`journey ${head.journey_id} has no version ${head.version}`);
          return {
            journey_id: head.journey_id,
            name: head.name,
            status: head.status,
            version: head.version,
            entry: version.definition.entry,
            players_now: sum(occupancy),
            updated_at: head.updated_at,
          };
        }),
      ),
    );
  };
}
