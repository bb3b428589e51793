/**
 * Figure 8: the back-office console's speed budget (issue #16): every page
 * usable in under 1 s on the local stack with 10,000 players and a player
 * of 5,000 timeline entries, and a first load of at most 120 KB gzipped (the shell, its preloaded chunks and the CSS; each page is a lazy chunk).
 *
 * The local stack as `npm start` runs it (its own process); an application,
 * an admin signed in through sign_in's link, 10,000 players and one player
 * of 5,000 timeline entries written straight into DynamoDB Local with batch
 * writes through the real stores (the items the consumers write), 200
 * affiliates (one on a plan) and 500 rejected records. Then, in
 * headless Chromium, each console page is opened RUNS times in a fresh tab;
 * "usable" is the page's main content rendered and its primary control
 * enabled (per page, below). Baseline: navigating to one of the console's
 * static files on the same server, in the same run.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import pLimit from 'p-limit';
import { createApp } from '../../functions/back-office/apps';
import { assignPlan } from '../../functions/back-office/affiliates';
import { createPlan } from '../../functions/back-office/plans';
import type { BackOffice } from '../../functions/back-office/ports';
import { commandLineActor } from '../../functions/domain/audit';
import { issueKey } from '../../functions/back-office/keys';
import { DynamoTimelineStore } from '../../functions/adapters/dynamo-timeline-store';
import { batchWriteAll } from '../../functions/adapters/batch-write';
import { tables } from '../../functions/manifest/resources';
import { partitionKey } from '../../functions/domain/stream-record';
import type { StoredProfile } from '../../functions/domain/profile-state';
import type { TimelineEntry } from '../../functions/domain/timeline';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { consoleDistDir } from '../../lib/console/build';
import { launchChromium } from '../support/chromium';
import { request } from '../support/http';
import { median, report, round, withLocalStack, type BenchRow } from './support';

const PLAYERS = 10_000;
const TIMELINE_ENTRIES = 5_000;
/** One entry in this many is a withdrawal: the event the timeline filter looks for (sparse on purpose). */
const WITHDRAWAL_EVERY = 100;
const RUNS = Number(process.env.URM_BENCH_CONSOLE_RUNS ?? 5);
const BUDGET_MS = 1000;
const FIRST_LOAD_BUDGET_BYTES = 120 * 1024;
/** Waiting for any page is bounded: a page that never becomes usable is reported as this. */
const PAGE_TIMEOUT_MS = 15_000;
const BIG_PLAYER = 'whale-0001';
const AFFILIATES = 200;
const REJECTIONS = 500;

export interface ConsolePageTiming {
  page: string;
  /** What "usable" means for it. */
  usableWhen: string;
  runsMs: number[];
  medianMs: number;
  worstMs: number;
}

export interface ConsoleResult {
  players: number;
  timelineEntries: number;
  seedMs: number;
  budgetMs: number;
  baseline: { what: string; medianMs: number; worstMs: number };
  pages: ConsolePageTiming[];
  firstLoad: { gzipBytes: number; budgetBytes: number };
}

/** The 10,000 players (the big one among them) and the big player's timeline, in batch writes. */
async function seed(document: Parameters<typeof localBackOffice>[0], appId: string): Promise<void> {
  const now = new Date().toISOString();
  const profile = (profileId: string, i: number): StoredProfile => ({
    pk: partitionKey(appId, profileId),
    app_id: appId,
    profile_id: profileId,
    attrs: JSON.stringify({ country: ['MT', 'DE', 'SE', 'FI'][i % 4], deposits: i % 500, games: ['blackjack', 'roulette'].slice(0, 1 + (i % 2)) }),
    exists: true,
    version: 1,
    updated_at: now,
    applied: {},
    recent: {},
  });
  const ids = [BIG_PLAYER, ...Array.from({ length: PLAYERS - 1 }, (_, i) => `player-${String(i).padStart(5, '0')}`)];
  const chunks: StoredProfile[][] = [];
  for (let i = 0; i < ids.length; i += 500) chunks.push(ids.slice(i, i + 500).map((id, j) => profile(id, i + j)));
  const limit = pLimit(4);
  await Promise.all(
    chunks.map((chunk) =>
      limit(() =>
        batchWriteAll(
          document,
          tables.profiles.localName,
          chunk.map((Item) => ({ PutRequest: { Item } })),
        ),
      ),
    ),
  );

  const timeline = new DynamoTimelineStore(document, tables.timeline.localName);
  const pk = partitionKey(appId, BIG_PLAYER);
  const start = Date.parse('2026-01-01T00:00:00Z');
  const entries: TimelineEntry[] = Array.from({ length: TIMELINE_ENTRIES }, (_, i) => {
    const at = new Date(start + i * 60_000).toISOString();
    const insertId = `bench-${String(i).padStart(5, '0')}`;
    const withdrawal = i % WITHDRAWAL_EVERY === 0;
    return {
      pk,
      insert_id: insertId,
      ts: `${at}#${insertId}`,
      event: withdrawal ? 'withdrawal' : 'game_round',
      urm_date_time: at,
      received_at: at,
      shard: 'shardId-000000000000',
      seq: String(10_000 + i).padStart(21, '0'),
      attrs: JSON.stringify(withdrawal ? { amount: 100, currency: 'EUR' } : { game: 'blackjack', stake: 1 + (i % 5), win: i % 3 === 0 ? 2 : 0 }),
    };
  });
  const chunked: TimelineEntry[][] = [];
  for (let i = 0; i < entries.length; i += 500) chunked.push(entries.slice(i, i + 500));
  await Promise.all(chunked.map((chunk) => limit(() => timeline.writeNew(chunk))));
}

/** The affiliate programme's pages' data: AFFILIATES affiliates (the first on a plan) and REJECTIONS rejected records; the first affiliate's id. */
async function seedProgramme(office: BackOffice, appId: string): Promise<string> {
  const limit = pLimit(4);
  const now = new Date().toISOString();
  const ids = Array.from({ length: AFFILIATES }, (_, i) => `aff_bench${String(i).padStart(4, '0')}`);
  await Promise.all(
    ids.map((affiliateId, i) =>
      limit(() =>
        office.affiliates.register({
          app_id: appId,
          affiliate_id: affiliateId,
          email: `${affiliateId}@affiliates.example`,
          username: affiliateId,
          first_name: 'Bench',
          last_name: `Affiliate ${i}`,
          password_hash: 'scrypt$not-a-real-hash',
          created_at: now,
          status: (['pending', 'approved', 'suspended'] as const)[i % 3],
        }),
      ),
    ),
  );
  const plan = await createPlan(office, appId, commandLineActor, {
    name: 'Bench hybrid',
    cpa: { amount: '50', min_deposit: '20' },
    revshare: { percent: '25' },
  });
  await assignPlan(office, appId, commandLineActor, ids[0]!, plan.plan_id);
  await Promise.all(
    Array.from({ length: REJECTIONS }, (_, i) =>
      limit(() =>
        office.rejections.put({
          app_id: appId,
          profile_id: `player-${String(i % PLAYERS).padStart(5, '0')}`,
          urm_insert_id: `bench-rejected-${i}`,
          kind: 'profile',
          shard: 'shardId-000000000000',
          seq: String(90_000 + i).padStart(21, '0'),
          reason: 'urm_add needs a number, but nickname is a string',
          record: JSON.stringify({ profile_id: `player-${i}`, urm_add: { nickname: 1 } }),
          record_truncated: false,
          received_at: new Date(Date.now() - i * 1000).toISOString(),
          rejected_at: new Date(Date.now() - i * 1000 + 50).toISOString(),
        }),
      ),
    ),
  );
  return ids[0]!;
}

interface PageCase {
  page: string;
  usableWhen: string;
  /** From a fresh tab: navigate (or act) and wait until usable; `affiliateId` names the affiliate on a plan. */
  open(page: Page, baseUrl: string, affiliateId: string): Promise<void>;
  /** Done before the clock starts (e.g. opening the page a filter is applied on). */
  before?(page: Page, baseUrl: string): Promise<void>;
}

const enabled = (page: Page, selector: string) => page.locator(`${selector}:not([disabled])`).first().waitFor({ timeout: PAGE_TIMEOUT_MS });
const shown = (page: Page, selector: string) => page.locator(selector).first().waitFor({ timeout: PAGE_TIMEOUT_MS });

const cases: PageCase[] = [
  {
    page: 'players list',
    usableWhen: 'first player row shown, Search enabled',
    async open(page, baseUrl) {
      await page.goto(`${baseUrl}/console/players`);
      await shown(page, 'main tbody tr a');
      await enabled(page, 'form[aria-label="Find players"] button[type=submit]');
    },
  },
  {
    page: 'prefix search (player-012)',
    usableWhen: 'first matching row shown, Search enabled',
    async open(page, baseUrl) {
      await page.goto(`${baseUrl}/console/players?prefix=player-012`);
      await shown(page, 'main tbody tr a:text-matches("^player-012")');
      await enabled(page, 'form[aria-label="Find players"] button[type=submit]');
    },
  },
  {
    page: `player page (${TIMELINE_ENTRIES} timeline entries)`,
    usableWhen: 'attributes and first timeline row shown, Set attribute enabled',
    async open(page, baseUrl) {
      await page.goto(`${baseUrl}/console/players/${BIG_PLAYER}`);
      await shown(page, 'section[aria-labelledby="section-attributes"] tbody tr');
      await shown(page, 'table.timeline tbody tr');
      await enabled(page, 'form.change-attribute button[type=submit]');
    },
  },
  {
    page: `timeline filter (withdrawal, 1 in ${WITHDRAWAL_EVERY})`,
    usableWhen: 'from Filter pressed: only withdrawals listed, Filter enabled',
    async before(page, baseUrl) {
      await page.goto(`${baseUrl}/console/players/${BIG_PLAYER}`);
      await shown(page, 'table.timeline tbody tr');
      await page.locator('#timeline-event').fill('withdrawal');
    },
    async open(page) {
      await page.locator('form[aria-label="Filter the timeline"] button[type=submit]').click();
      await page.waitForFunction(
        () => {
          const cells = [...document.querySelectorAll('table.timeline tbody tr td:nth-child(2)')];
          return cells.length > 0 && cells.every((cell) => cell.textContent === 'withdrawal');
        },
        undefined,
        { timeout: PAGE_TIMEOUT_MS },
      );
      await enabled(page, 'form[aria-label="Filter the timeline"] button[type=submit]');
    },
  },
  {
    page: `affiliates (${AFFILIATES})`,
    usableWhen: 'first affiliate row and the plans shown, the status filter enabled',
    async open(page, baseUrl) {
      await page.goto(`${baseUrl}/console/affiliates`);
      await shown(page, 'main tbody tr a');
      await shown(page, 'section[aria-labelledby="section-plans"] tbody tr');
      await enabled(page, '#affiliate-status');
    },
  },
  {
    page: 'affiliate page (30-day report, postbacks)',
    usableWhen: 'report table and postbacks shown, Show and Assign plan rendered',
    async open(page, baseUrl, affiliateId) {
      await page.goto(`${baseUrl}/console/affiliates/${affiliateId}`);
      await shown(page, 'table.report tbody tr');
      await shown(page, 'section[aria-labelledby="section-postbacks"] h3');
      await enabled(page, 'form[aria-label="Report period"] button[type=submit]');
    },
  },
  {
    page: `rejections (${REJECTIONS})`,
    usableWhen: 'first rejection row shown, Next enabled',
    async open(page, baseUrl) {
      await page.goto(`${baseUrl}/console/rejections`);
      await shown(page, 'main tbody tr');
      await enabled(page, 'nav.pager button');
    },
  },
  {
    page: 'settings (6 sections)',
    usableWhen: 'every section loaded (no loading note left), Create key enabled',
    async open(page, baseUrl) {
      await page.goto(`${baseUrl}/console/settings`);
      await shown(page, 'section[aria-labelledby="card-api-keys"] tbody tr');
      await page.waitForFunction(
        () => document.querySelectorAll('main h2').length >= 6 && document.querySelectorAll('main p[aria-busy="true"]').length === 0,
        undefined,
        {
          timeout: PAGE_TIMEOUT_MS,
        },
      );
      await enabled(page, 'section[aria-labelledby="card-api-keys"] button[type=submit]');
    },
  },
  {
    page: 'users',
    usableWhen: 'first user row shown, its role button rendered',
    async open(page, baseUrl) {
      await page.goto(`${baseUrl}/console/users`);
      await shown(page, 'main tbody tr');
      await shown(page, 'main tbody tr button[type=submit]');
    },
  },
  {
    page: 'audit log',
    usableWhen: 'first audit row shown',
    async open(page, baseUrl) {
      await page.goto(`${baseUrl}/console/audit`);
      await shown(page, 'main tbody tr');
    },
  },
];

/** The files the console's page loads first (its JS and CSS), gzipped, as figure 5 counts them. */
function firstLoad(): ConsoleResult['firstLoad'] & { files: string[] } {
  const page = readFileSync(join(consoleDistDir, 'index.html'), 'utf8');
  const files = [...page.matchAll(/\/console\/(assets\/[\w.-]+)/g)].map((match) => match[1]!);
  const gzipBytes = files.reduce((sum, file) => sum + gzipSync(readFileSync(join(consoleDistDir, file)), { level: 9 }).length, 0);
  return { gzipBytes, budgetBytes: FIRST_LOAD_BUDGET_BYTES, files };
}

async function main(): Promise<ConsoleResult> {
  return withLocalStack(async ({ endpoints }) => {
    const baseUrl = endpoints.base_url.replace(/\/$/, '');
    const document = localClients(endpoints).document;
    const office = localBackOffice(document);
    const created = await createApp(office, { name: `Bench casino ${randomUUID().slice(0, 8)}`, portalOrigin: baseUrl });
    const serverKey = (await issueKey(office, created.app_id, commandLineActor, 'server')).key;
    const signUp = await request(baseUrl, 'POST', '/enterprises/sign_up', {
      key: serverKey,
      body: { app_id: created.app_id, users: [{ email: `bench-${randomUUID()}@operator.example`, first_name: 'Bench', last_name: 'Admin' }] },
    });
    if (signUp.status !== 200) throw new Error(`sign_up answered ${signUp.status}`);
    const userId = signUp.body.users[0].user_id as string;

    const seedStarted = performance.now();
    await seed(document, created.app_id);
    const affiliateId = await seedProgramme(office, created.app_id);
    const seedMs = performance.now() - seedStarted;

    const browser = await launchChromium();
    try {
      const signIn = await request(baseUrl, 'POST', '/enterprises/sign_in', { key: serverKey, body: { app_id: created.app_id, user_id: userId } });
      if (signIn.status !== 200) throw new Error(`sign_in answered ${signIn.status}`);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const landing = await context.newPage();
      await landing.goto(signIn.body.redirect_url as string);
      await shown(landing, 'main h1');
      await landing.close();

      const load = firstLoad();
      const staticUrl = `${baseUrl}/console/${load.files.find((file) => file.endsWith('.css')) ?? load.files[0]}`;
      const baselineRuns: number[] = [];
      const timings = new Map(cases.map((c) => [c.page, [] as number[]]));
      // Runs interleave the pages (and the baseline), so a slow moment of the machine is shared among them.
      for (let run = 0; run < RUNS; run++) {
        const tab = await context.newPage();
        const started = performance.now();
        await tab.goto(staticUrl, { waitUntil: 'load' });
        baselineRuns.push(performance.now() - started);
        await tab.close();
        for (const c of cases) {
          const page = await context.newPage();
          try {
            await c.before?.(page, baseUrl);
            const t0 = performance.now();
            await c.open(page, baseUrl, affiliateId).catch(() => undefined);
            timings.get(c.page)!.push(Math.min(performance.now() - t0, PAGE_TIMEOUT_MS));
          } finally {
            await page.close();
          }
        }
      }
      const stats = (runs: number[]) => ({ runsMs: runs.map((ms) => round(ms, 0)), medianMs: round(median(runs), 0), worstMs: round(Math.max(...runs), 0) });
      const base = stats(baselineRuns);
      return {
        players: PLAYERS,
        timelineEntries: TIMELINE_ENTRIES,
        seedMs: round(seedMs, 0),
        budgetMs: BUDGET_MS,
        baseline: { what: 'the console stylesheet, navigated to on the same server', medianMs: base.medianMs, worstMs: base.worstMs },
        pages: cases.map((c) => ({ page: c.page, usableWhen: c.usableWhen, ...stats(timings.get(c.page)!) })),
        firstLoad: { gzipBytes: load.gzipBytes, budgetBytes: load.budgetBytes },
      };
    } finally {
      await browser.close();
    }
  });
}

/** The rows `npm run bench` prints: each page's time to usable against the 1 s budget, and the first load. */
export function consoleRows(c: ConsoleResult): BenchRow[] {
  const rows: BenchRow[] = c.pages.map((p) => ({
    figure: '8 console',
    measure: `${p.page}: ms to usable, median / worst (${c.players} players)`,
    value: `${p.medianMs} / ${p.worstMs}`,
    baseline: `${c.baseline.medianMs} (a static file)`,
    ratio: `${round(p.medianMs / Math.max(c.baseline.medianMs, 1), 1)} (page ÷ file)`,
    target: `≤ ${c.budgetMs}`,
  }));
  rows.push({
    figure: '8 console',
    measure: 'first load (JS + CSS), gzipped KB',
    value: round(c.firstLoad.gzipBytes / 1024, 1),
    baseline: '',
    ratio: '',
    target: `≤ ${round(c.firstLoad.budgetBytes / 1024, 0)}`,
  });
  return rows;
}

// Run as a figure's process; run.ts imports only the rows above.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  report(await main());
  process.exit(0);
}
