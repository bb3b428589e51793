/**
 * The affiliate funnel end to end on the local stack: an integrator
 * attributes players with /api/set_affiliate and sends their money events to
 * /events; the funnel consumer's rows are read back through the FunnelReader
 * adapter (what the report API reads). Each test has its own affiliate.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { listRejections } from '../../functions/back-office/records';
import { aroundToday, funnelOf, moneyEvent, noTotals, setAffiliate, totalsOf, type Totals } from '../support/funnel';
import { adminCli, testStack, type TestStack } from '../support/local-stack';
import { send, until } from '../support/profiles';

let stack: TestStack;
let funnel: ReturnType<typeof funnelOf>;
beforeAll(async () => {
  stack = await testStack();
  funnel = funnelOf(stack.endpoints);
});

const newIds = () => {
  const run = randomUUID().slice(0, 8);
  return { affiliateId: `aff-${run}`, linkId: `link-${run}`, player: `player-${run}` };
};

async function totals(affiliateId: string): Promise<Totals> {
  const { from, to } = aroundToday();
  return totalsOf(await funnel.reader.days(stack.dev.app_id, affiliateId, from, to));
}

/** Waits until the bets reach `bets` (the last event each test sends is a bet), then gives the figures. */
const totalsOnceBetsReach = (affiliateId: string, bets: string) =>
  until(
    () => totals(affiliateId),
    (t) => t.bets === bets,
    `the funnel of ${affiliateId} to count bets of ${bets}`,
  );

describe('the affiliate funnel over HTTP', () => {
  test('set_affiliate, a Deposit and a Bet/Win pair count a registration, an FTD, the deposit and the bets and wins, exactly', async () => {
    const { affiliateId, linkId, player } = newIds();

    await setAffiliate(stack, { profile_id: player, urm_aff_id: affiliateId, urm_aff_link_id: linkId, urm_aff: 'spring' });
    await send(stack, '/events', [
      moneyEvent(stack, player, 'Deposit', 100.1),
      moneyEvent(stack, player, 'Win', 0.2),
      moneyEvent(stack, player, 'Bet', 0.1),
      moneyEvent(stack, player, 'Bet', 0.2),
    ]);

    const counted = await totalsOnceBetsReach(affiliateId, '0.3');
    expect(counted).toEqual({ ...noTotals, registrations: 1, ftds: 1, deposit_count: 1, deposits: '100.1', bets: '0.3', wins: '0.2' });
    const { from, to } = aroundToday();
    const [days, registrations, ftds] = await Promise.all([
      funnel.reader.days(stack.dev.app_id, affiliateId, from, to),
      funnel.reader.registrations(stack.dev.app_id, affiliateId, from, to),
      funnel.reader.ftds(stack.dev.app_id, affiliateId, from, to),
    ]);
    expect(days.map((row) => row.link_id)).toEqual([linkId]);
    expect(registrations).toEqual([expect.objectContaining({ profile_id: player, link_id: linkId, sub_id: 'spring' })]);
    expect(ftds).toEqual([expect.objectContaining({ profile_id: player, link_id: linkId, amount: '100.1' })]);
    expect(Object.keys(days[0])).not.toContain('applied');
  });

  test('money sent before the attribution is counted for the affiliate once the attribution arrives', async () => {
    const { affiliateId, player } = newIds();

    await send(stack, '/events', [moneyEvent(stack, player, 'Deposit', 40), moneyEvent(stack, player, 'Bonus', 5)]);
    await setAffiliate(stack, { profile_id: player, urm_aff_id: affiliateId });
    await send(stack, '/events', [moneyEvent(stack, player, 'Bet', 12)]);

    expect(await totalsOnceBetsReach(affiliateId, '12')).toEqual({
      ...noTotals,
      registrations: 1,
      ftds: 1,
      deposit_count: 1,
      deposits: '40',
      bonuses: '5',
      bets: '12',
    });
  });

  test('the same /events request sent twice, with the same insert ids, is counted once', async () => {
    const { affiliateId, player } = newIds();
    await setAffiliate(stack, { profile_id: player, urm_aff_id: affiliateId });
    const events = [
      moneyEvent(stack, player, 'Deposit', 25, { urm_insert_id: randomUUID() }),
      moneyEvent(stack, player, 'Deposit', 15, { urm_insert_id: randomUUID() }),
    ];

    await send(stack, '/events', events);
    await send(stack, '/events', events);
    await send(stack, '/events', [moneyEvent(stack, player, 'Bet', 1)]);

    expect(await totalsOnceBetsReach(affiliateId, '1')).toEqual({ ...noTotals, registrations: 1, ftds: 1, deposit_count: 2, deposits: '40', bets: '1' });
  });

  test('a money event without an amount stays out of the figures and is listed among the rejections', async () => {
    const { affiliateId, player } = newIds();
    const insertId = randomUUID();
    await setAffiliate(stack, { profile_id: player, urm_aff_id: affiliateId });

    await send(stack, '/events', [moneyEvent(stack, player, 'Deposit', undefined, { urm_insert_id: insertId }), moneyEvent(stack, player, 'Bet', 2)]);

    expect(await totalsOnceBetsReach(affiliateId, '2')).toEqual({ ...noTotals, registrations: 1, bets: '2' });
    const rejections = await listRejections(funnel.office, stack.dev.app_id, 1000);
    expect(rejections.filter((r) => r.urm_insert_id === insertId).map((r) => [r.profile_id, r.reason])).toEqual([
      [player, 'money event "Deposit": amount must be a number greater than 0'],
    ]);
  });
});

/** `npm run admin -- --json app money …` against the test stack. */
async function adminMoney(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    return { code: 0, stdout: await adminCli(stack.dataDir, ['app', 'money', ...args], { timeout: 60_000 }), stderr: '' };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('money settings on the command line', () => {
  test('app money sets the currency and the mapping, and prints them', async () => {
    const app = await createApp(funnel.office, { name: `money-${randomUUID().slice(0, 8)}` });

    const set = await adminMoney(['--app', app.app_id, '--currency', 'USD', '--map', 'Deposit=deposit', '--map', 'Admin Deposit=deposit', '--map', 'Spin=bet']);
    const shown = await adminMoney(['--app', app.app_id]);

    const expected = { app_id: app.app_id, currency: 'USD', money_events: { Deposit: 'deposit', 'Admin Deposit': 'deposit', Spin: 'bet' } };
    expect([set.code, JSON.parse(set.stdout)]).toEqual([0, expected]);
    expect(JSON.parse(shown.stdout)).toEqual(expected);
  });

  test('a currency that is not three upper-case letters, or an unknown kind, is refused and changes nothing', async () => {
    const app = await createApp(funnel.office, { name: `money-${randomUUID().slice(0, 8)}` });

    const refused = await adminMoney(['--app', app.app_id, '--currency', 'euro', '--map', 'Deposit=cashback']);

    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('currency must be three upper-case letters (ISO 4217), e.g. EUR');
    expect(refused.stderr).toContain('money_events.Deposit must be one of deposit, withdrawal, bet, win, bonus');
    expect(JSON.parse((await adminMoney(['--app', app.app_id])).stdout)).toEqual({ app_id: app.app_id, currency: 'EUR', money_events: {} });
  });
});
