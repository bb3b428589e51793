/**
 * The postback events an affiliate chooses, on the local stack: the affiliate
 * signs in to the portal as a browser does, sets its URL and ticks the events;
 * an operator gives it a CPA plan; a player registers and deposits over HTTP;
 * a receiver on 127.0.0.1 (the local stack's development host) records each
 * call. The delivery log shows the URL called, its token masked.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { assignPlan } from '../../functions/back-office/affiliates';
import { createPlan } from '../../functions/back-office/plans';
import type { BackOffice } from '../../functions/back-office/ports';
import { postbackDeliveries, setPostbackEvents, setPostbackUrl } from '../../functions/back-office/postbacks';
import { commandLineActor } from '../../functions/domain/audit';
import { affiliatePk } from '../../functions/domain/funnel';
import { tables } from '../../functions/manifest/resources';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { aroundToday, moneyEvent, setAffiliate } from '../support/funnel';
import { testStack, type TestStack } from '../support/local-stack';
import { PortalVisitor, registeredAffiliate } from '../support/portal';
import { send, until } from '../support/profiles';

let stack: TestStack;
let office: BackOffice;
let server: Server;
let port: number;
/** The query of each call the receiver got, by affiliate (the `a` parameter). */
const received = new Map<string, Record<string, string>[]>();

beforeAll(async () => {
  stack = await testStack();
  office = localBackOffice(localClients(stack.endpoints).document);
  server = createServer((req, res) => {
    const query = Object.fromEntries(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
    received.set(query.a, [...(received.get(query.a) ?? []), query]);
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const template = () => `http://127.0.0.1:${port}/pb?a={affiliate_id}&e={event}&s={sub_id}&m={amount}&p={payout}&token=tk-not-for-logs&id={event_id}`;
const callsOf = (affiliateId: string) => received.get(affiliateId) ?? [];
const summary = (calls: Record<string, string>[]) => calls.map((call) => [call.e, call.s, call.m, call.p]).sort();

async function withCpaPlan(affiliateId: string, minDeposit: string): Promise<void> {
  const plan = await createPlan(office, stack.dev.app_id, commandLineActor, {
    name: `CPA 30 from ${minDeposit}`,
    cpa: { amount: '30', min_deposit: minDeposit },
  });
  await assignPlan(office, stack.dev.app_id, commandLineActor, affiliateId, plan.plan_id);
}

/** A player of the affiliate (sub-id "spring") who deposits 25.5 then 10 EUR; resolves when the funnel counted both. */
async function playerDeposits(affiliateId: string): Promise<void> {
  const player = `player-${randomUUID()}`;
  await setAffiliate(stack, { profile_id: player, urm_aff_id: affiliateId, urm_aff: 'spring' });
  await send(stack, '/events', [moneyEvent(stack, player, 'Deposit', 25.5)]);
  await send(stack, '/events', [moneyEvent(stack, player, 'Deposit', 10)]);
  const { from, to } = aroundToday();
  await until(
    async () => (await office.funnel.days(stack.dev.app_id, affiliateId, from, to)).reduce((n, row) => n + row.deposit_count, 0),
    (deposits) => deposits === 2,
    'both deposits counted',
    30_000,
  );
}

/** The affiliate's CPA and deposit outbox rows (`pc#`, `pd#`), with their marks. */
async function postbackRows(affiliateId: string): Promise<Record<string, unknown>[]> {
  const out = await localClients(stack.endpoints).document.send(
    new QueryCommand({
      TableName: tables.funnel.localName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': affiliatePk(stack.dev.app_id, affiliateId), ':from': 'pc#', ':to': 'pd#\uffff' },
    }),
  );
  return out.Items ?? [];
}

describe('postback events', () => {
  test('switched on in the portal: registration, ftd, a cpa with its payout and every deposit arrive, and the log shows the URL with its token masked', async () => {
    const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);
    await withCpaPlan(affiliate.affiliate_id, '20');
    const person = new PortalVisitor(stack.baseUrl, stack.dev.app_id);
    expect((await person.signIn(affiliate.username, affiliate.password)).status).toBe(303);
    const csrf = PortalVisitor.csrfOf((await person.get('postbacks')).text);
    expect((await person.post('postbacks', { csrf, action: 'set', postback_url: template() })).status).toBe(200);
    const events = { event_registration: 'on', event_ftd: 'on', event_cpa: 'on', event_deposit: 'on' };
    expect((await person.post('postbacks', { csrf, action: 'events', ...events })).status).toBe(303);

    await playerDeposits(affiliate.affiliate_id);
    const calls = await until(
      async () => callsOf(affiliate.affiliate_id),
      (all) => all.length >= 5,
      'five postbacks',
      30_000,
    );

    expect(summary(calls)).toEqual([
      ['cpa', 'spring', '25.5', '30.00'],
      ['deposit', 'spring', '10', ''],
      ['deposit', 'spring', '25.5', ''],
      ['ftd', 'spring', '25.5', ''],
      ['registration', 'spring', '', ''],
    ]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(5);
    const log = await until(
      async () => postbackDeliveries(office, stack.dev.app_id, affiliate.affiliate_id),
      (entries) => entries.length === 5,
      'five deliveries in the log',
    );
    const called = new RegExp(
      `^http://127\\.0\\.0\\.1:${port}/pb\\?a=${affiliate.affiliate_id}&e=\\w+&s=spring&m=[\\d.]*&p=[\\d.]*&token=\\*\\*\\*&id=[0-9a-f-]{36}$`,
    );
    for (const entry of log) expect(entry.url).toMatch(called);
    expect(JSON.stringify(log)).not.toContain('tk-not-for-logs');
    const page = (await person.get('postbacks')).text;
    expect(page).toMatch(/<th scope="row">CPA<\/th>/);
    expect(page).toMatch(
      /<td class="left called"><code>http:\/\/127\.0\.0\.1:\d+\/pb\?a=[^<]*&amp;e=cpa&amp;s=spring&amp;m=25\.5&amp;p=30\.00&amp;token=\*\*\*&amp;id=[^<]+<\/code><\/td>/,
    );
  });

  test('deposit switched off: no deposit postbacks and no deposit rows; an FTD below the minimum earns no cpa postback', async () => {
    const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);
    await withCpaPlan(affiliate.affiliate_id, '100');
    await setPostbackUrl(office, stack.dev.app_id, affiliate.affiliate_id, template());
    await setPostbackEvents(office, stack.dev.app_id, affiliate.affiliate_id, ['registration', 'ftd', 'cpa']);

    await playerDeposits(affiliate.affiliate_id);
    await until(
      async () => callsOf(affiliate.affiliate_id),
      (all) => all.length >= 2,
      'the registration and FTD postbacks',
      30_000,
    );
    // The CPA row was written with the FTD; the sender takes it and, the FTD below the plan's minimum, sends nothing.
    const rows = await until(
      async () => postbackRows(affiliate.affiliate_id),
      (all) => all.length === 1 && all[0].postback_queue === undefined,
      'the CPA row taken and dropped',
      30_000,
    );

    expect(rows.map((row) => String(row.sk).slice(0, 3))).toEqual(['pc#']);
    expect(summary(callsOf(affiliate.affiliate_id))).toEqual([
      ['ftd', 'spring', '25.5', ''],
      ['registration', 'spring', '', ''],
    ]);
  });
});
