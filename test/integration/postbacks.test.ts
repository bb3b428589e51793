/**
 * Affiliate postbacks on the local stack: an affiliate's URL set with the
 * back-office use case (as `npm run admin -- affiliate postback` does), a
 * player attributed with set_affiliate and a Deposit over HTTP, and a
 * receiver on 127.0.0.1 (the local stack's development host) that checks
 * what urm calls it with.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { adminProgram } from '../../bin/admin';
import { postbackDeliveries, setPostbackUrl } from '../../functions/back-office/postbacks';
import type { BackOffice } from '../../functions/back-office/ports';
import { ValidationError } from '../../functions/domain/errors';
import { tables } from '../../functions/manifest/resources';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { registration } from '../support/affiliates';
import { moneyEvent, setAffiliate } from '../support/funnel';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { send, until } from '../support/profiles';

interface Received {
  url: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
}

let stack: TestStack;
let office: BackOffice;
let server: Server;
let port: number;
/** What the receiver got, by affiliate (the `a` query parameter), and the statuses it answers with, in turn, by affiliate and event. */
const received = new Map<string, Received[]>();
const answers = new Map<string, number[]>();

beforeAll(async () => {
  stack = await testStack();
  office = localBackOffice(localClients(stack.endpoints).document);
  server = createServer((req, res) => {
    const url = `http://127.0.0.1:${port}${req.url}`;
    const query = Object.fromEntries(new URL(url).searchParams);
    received.set(query.a, [...(received.get(query.a) ?? []), { url, query, headers: req.headers }]);
    res.writeHead(answers.get(`${query.a} ${query.e}`)?.shift() ?? 200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function affiliateWithPostback(): Promise<{ affiliateId: string; secret: string }> {
  const registered = await request(stack.baseUrl, 'POST', '/api/register_affiliate', { key: stack.dev.server_key, body: registration(stack.dev.app_id) });
  expect(registered.status).toBe(200);
  const affiliateId: string = registered.body.affiliate_id;
  const set = await setPostbackUrl(
    office,
    stack.dev.app_id,
    affiliateId,
    `http://127.0.0.1:${port}/pb?a={affiliate_id}&e={event}&s={sub_id}&id={event_id}&m={amount}&c={currency}`,
  );
  expect(set.signing_secret).toBeDefined();
  return { affiliateId, secret: set.signing_secret! };
}

async function playerOf(affiliateId: string): Promise<string> {
  const player = `player-${randomUUID()}`;
  await setAffiliate(stack, { profile_id: player, urm_aff_id: affiliateId, urm_aff: 'spring sale' });
  await send(stack, '/events', [moneyEvent(stack, player, 'Deposit', 25.5)]);
  return player;
}

const callsOf = (affiliateId: string) =>
  until(
    async () => received.get(affiliateId) ?? [],
    (calls) => calls.length >= 2,
    `two postbacks for ${affiliateId}`,
    30_000,
  );

describe('postbacks', () => {
  test('a registration and a first deposit each reach the receiver once, signed, with the sub-id', async () => {
    const { affiliateId, secret } = await affiliateWithPostback();
    const player = await playerOf(affiliateId);

    await callsOf(affiliateId);
    // Three more runs of the sender (one a second): nothing is sent again.
    await new Promise((resolve) => setTimeout(resolve, 3000));

    const calls = received.get(affiliateId)!;
    expect(calls.map((call) => [call.query.e, call.query.s, call.query.m, call.query.c]).sort()).toEqual([
      ['ftd', 'spring sale', '25.5', 'EUR'],
      ['registration', 'spring sale', '', ''],
    ]);
    for (const call of calls) {
      const expected = createHmac('sha256', secret).update(`${call.headers['x-urm-timestamp']}.${call.url}`).digest('hex');
      expect(call.headers['x-urm-signature']).toBe(`sha256=${expected}`);
      expect(call.headers['x-urm-event-id']).toBe(call.query.id);
      expect(call.url).not.toContain(player);
    }
    const log = await postbackDeliveries(office, stack.dev.app_id, affiliateId);
    expect(log.map((entry) => [entry.event, entry.outcome, entry.attempts, entry.status_code]).sort()).toEqual([
      ['ftd', 'delivered', 1, 200],
      ['registration', 'delivered', 1, 200],
    ]);
  });

  test('a receiver that answers 500 gets the postback again, with the same event id, and the log shows the attempts', async () => {
    const { affiliateId } = await affiliateWithPostback();
    answers.set(`${affiliateId} registration`, [500]);
    await playerOf(affiliateId);
    const registrationCalls = () => (received.get(affiliateId) ?? []).filter((call) => call.query.e === 'registration');
    await until(
      async () => registrationCalls(),
      (calls) => calls.length === 1,
      'the first attempt',
      30_000,
    );

    // The retry is due a minute later: move the clock of that row instead of waiting (the schedule itself is unit-tested).
    const [first] = registrationCalls();
    const { document } = localClients(stack.endpoints);
    const due = await until(
      async () => (await postbackDeliveries(office, stack.dev.app_id, affiliateId)).filter((entry) => entry.outcome === 'retrying'),
      (entries) => entries.length === 1,
      'the failed attempt in the log',
    );
    expect(due[0]).toMatchObject({ event: 'registration', attempts: 1, status_code: 500, event_id: first.query.id });
    const sk = await registrationSk(affiliateId);
    await document.send(
      new UpdateCommand({
        TableName: tables.funnel.localName,
        Key: { pk: `a#${stack.dev.app_id}#${affiliateId}`, sk },
        UpdateExpression: 'SET postback_due = :now',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
      }),
    );

    const calls = await until(
      async () => registrationCalls(),
      (all) => all.length === 2,
      'the second attempt',
      30_000,
    );
    expect(calls[1].query.id).toBe(first.query.id);
    const log = await until(
      async () => (await postbackDeliveries(office, stack.dev.app_id, affiliateId)).filter((entry) => entry.event === 'registration'),
      (entries) => entries.length === 2,
      'both attempts in the log',
    );
    expect(log.map((entry) => [entry.outcome, entry.attempts, entry.status_code])).toEqual([
      ['delivered', 2, 200],
      ['retrying', 1, 500],
    ]);
  });

  test.each(['https://169.254.169.254/latest/meta-data/', 'https://10.0.0.1/pb', 'https://0xa9.254.169.254/pb'])(
    'a postback URL to %s is refused when set',
    async (url) => {
      const registered = await request(stack.baseUrl, 'POST', '/api/register_affiliate', { key: stack.dev.server_key, body: registration(stack.dev.app_id) });

      const refused = setPostbackUrl(office, stack.dev.app_id, registered.body.affiliate_id, url);

      await expect(refused).rejects.toThrow(ValidationError);
      await expect(refused).rejects.toMatchObject({ errors: [expect.stringContaining('private or reserved address')] });
    },
  );
});

describe('the admin command line', () => {
  async function admin(...args: string[]): Promise<any> {
    const printed = jest.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await adminProgram()
        .exitOverride()
        .parseAsync(['--data-dir', stack.dataDir, '--json', ...args], { from: 'user' });
      return JSON.parse(String(printed.mock.calls.at(-1)?.[0]));
    } finally {
      printed.mockRestore();
    }
  }

  test('affiliate postback sets the URL (showing the new secret once), rotates the secret, turns postbacks off; affiliate postbacks lists the log', async () => {
    const registered = await request(stack.baseUrl, 'POST', '/api/register_affiliate', { key: stack.dev.server_key, body: registration(stack.dev.app_id) });
    const target = ['--app', stack.dev.app_id, '--affiliate', registered.body.affiliate_id];

    const set = await admin('affiliate', 'postback', ...target, '--url', 'https://tracker.example.com/pb?cid={sub_id}');
    const again = await admin('affiliate', 'postback', ...target, '--url', 'https://tracker.example.com/pb?cid={sub_id}&e={event}');
    const rotated = await admin('affiliate', 'postback', ...target, '--rotate-secret');
    const off = await admin('affiliate', 'postback', ...target, '--off');
    const log = await admin('affiliate', 'postbacks', ...target);

    expect(set).toMatchObject({ postback_url: 'https://tracker.example.com/pb?cid={sub_id}', signing_secret: expect.stringMatching(/^urm_postback_/) });
    expect(again.signing_secret).toBeUndefined();
    expect(rotated.signing_secret).toMatch(/^urm_postback_/);
    expect(rotated.signing_secret).not.toBe(set.signing_secret);
    expect(off.postback_url).toBeNull();
    expect(log).toEqual([]);
  });
});

/** The sort key of the affiliate's one registration row: read back through the report reader, as the trace does. */
async function registrationSk(affiliateId: string): Promise<string> {
  const today = new Date().toISOString().slice(0, 10);
  const [row] = await office.funnel.registrations(stack.dev.app_id, affiliateId, today, today);
  return `r#${row.day}#${row.profile_id}`;
}
