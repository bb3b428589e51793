/**
 * Figure 9: finding a player among 100,000 (issue 27) on DynamoDB Local: p50
 * and p95 of the console's search (functions/back-office/players.ts
 * `searchPlayers`: one Query per field of the index, the profiles of the
 * hits checked in one BatchGetItem, their ledgers in another) by a first
 * name's beginning, an exact email and a phone number's digits. Baseline, in
 * the same run: a GetItem of one profile.
 *
 * The profiles and their index items are written straight into the tables
 * with batch writes (the items the profile consumer writes, its terms as
 * functions/domain/player-search.ts makes them): 100,000 players through the
 * stream would take longer than a figure may. Seeding stops at 100,000 or
 * at SEED_MS, whichever comes first; the result says how many.
 */
import pLimit from 'p-limit';
import { defaultSearchAttributes, searchKey, termsOf } from '../../functions/domain/player-search';
import { partitionKey } from '../../functions/domain/stream-record';
import { tables } from '../../functions/manifest/resources';
import { storedProfile } from '../support/players';
import { functionEnvironment, percentile, report, round, startBenchDynamo } from './support';

const PLAYERS = Number(process.env.URM_BENCH_SEARCH_PLAYERS ?? 100_000);
const SEED_MS = Number(process.env.URM_BENCH_SEARCH_SEED_MS ?? 150_000);
const RUNS = Number(process.env.URM_BENCH_SEARCH_RUNS ?? 60);
const APP = 'app_bench_search';

const firstNames = ['Liam', 'Olivia', 'Noah', 'Emma', 'Mateo', 'Sofia', 'Luca', 'Maria', 'Jake', 'Chiara', 'Kai', 'Aisha', 'Omar', 'Zoe', 'Ivan', 'Nora'];
const lastNames = ['Borg', 'Camilleri', 'Vella', 'Farrugia', 'Zammit', 'Galea', 'Micallef', 'Grech', 'Attard', 'Spiteri', 'Azzopardi', 'Mifsud'];

/** The attributes of player `i`: every name is shared by thousands, every email and phone unique. */
const playerAttributes = (i: number) => ({
  first_name: `${firstNames[i % firstNames.length]}${i % 7 === 0 ? '' : String.fromCharCode(97 + (i % 26))}`,
  last_name: lastNames[Math.floor(i / firstNames.length) % lastNames.length]!,
  email: `player${i}@example.com`,
  phone: `+356 79${String(i).padStart(6, '0')}`,
  country: 'MT',
});

export interface PlayerSearchResult {
  players: number;
  seedSeconds: number;
  runs: number;
  baseline: { p50Ms: number; p95Ms: number };
  searches: { name: string; query: string; found: number; p50Ms: number; p95Ms: number; ratio: number }[];
}

async function main(): Promise<PlayerSearchResult> {
  const { endpoint, stop } = await startBenchDynamo('urm-bench-search-');
  try {
    Object.assign(process.env, functionEnvironment({ dynamodb: endpoint }));
    const { dynamo } = await import('../../functions/adapters/clients/dynamo');
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    const { batchWriteAll } = await import('../../functions/adapters/batch-write');
    const stores = await import('../../functions/adapters/stores');
    const { searchPlayers } = await import('../../functions/back-office/players');
    await dynamo.send(new PutCommand({ TableName: tables.apps.localName, Item: { app_id: APP, name: 'Bench', created_at: '2026-11-01T00:00:00Z' } }));

    // Seeding: each chunk of 25 players is their profiles and their index items, written in parallel.
    const seedStart = performance.now();
    const limit = pLimit(16);
    let seeded = 0;
    const CHUNK = 25;
    for (let start = 0; start < PLAYERS && performance.now() - seedStart < SEED_MS; start += CHUNK * 64) {
      await Promise.all(
        Array.from({ length: 64 }, (_, c) => start + c * CHUNK)
          .filter((from) => from < PLAYERS)
          .map((from) =>
            limit(async () => {
              const ids = Array.from({ length: Math.min(CHUNK, PLAYERS - from) }, (_, k) => from + k);
              const profiles = ids.map((i) => ({ PutRequest: { Item: storedProfile(APP, `player-${i}`, playerAttributes(i)) } }));
              const terms = ids.flatMap((i) =>
                [...termsOf(`player-${i}`, playerAttributes(i), defaultSearchAttributes).values()].map(({ field, term }) => ({
                  PutRequest: { Item: searchKey(APP, field, term, `player-${i}`) },
                })),
              );
              await batchWriteAll(dynamo, tables.profiles.localName, profiles);
              await batchWriteAll(dynamo, tables.playerSearch.localName, terms);
              seeded += ids.length;
            }),
          ),
      );
    }
    const seedSeconds = round((performance.now() - seedStart) / 1000, 1);

    const profiles = stores.profileStore();
    const search = searchPlayers({
      directory: stores.playerDirectory(),
      profiles,
      apps: stores.appStore(),
      ledgers: stores.funnelStore(),
      search: stores.playerSearch(),
    });
    const actor = { appId: APP };
    const timed = async (work: () => Promise<unknown>) => {
      // DynamoDB Local runs on the JVM: a few runs to warm it first.
      for (let i = 0; i < 5; i++) await work();
      const runs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        await work();
        runs.push(performance.now() - started);
      }
      return { p50Ms: round(percentile(runs, 50), 2), p95Ms: round(percentile(runs, 95), 2) };
    };
    const someone = Math.floor(seeded / 2);
    const baseline = await timed(() => profiles.get(partitionKey(APP, `player-${someone}`), false));
    const cases = [
      { name: 'first name, beginning', query: 'lia' },
      { name: 'email, exact', query: `player${someone}@example.com` },
      { name: 'phone, digits', query: `35679${String(someone).padStart(6, '0')}` },
    ];
    const searches = [];
    for (const { name, query } of cases) {
      const found = (await search(actor, query)).length;
      if (found === 0) throw new Error(`the search "${query}" found nobody`);
      const figures = await timed(() => search(actor, query));
      searches.push({ name, query, found, ...figures, ratio: round(figures.p50Ms / Math.max(0.01, baseline.p50Ms), 1) });
    }
    return { players: seeded, seedSeconds, runs: RUNS, baseline, searches };
  } finally {
    await stop();
  }
}

report(await main());
process.exit(0);
