import { commandLineActor } from '../../functions/domain/audit';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { attributionRules, attributionWith, describeValue, missingTracking, registration, registrationRules, withField } from '../support/affiliates';
import { request } from '../support/http';
import { adminCli, testStack, type TestStack } from '../support/local-stack';
import { applyAndRead, readTimeline, until } from '../support/profiles';
import { readmeBlock, readmeCheckout, readmeVariables, type ReadmeCheckout } from '../support/readme';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

interface TestApp {
  appId: string;
  serverKey: string;
}

/** A fresh application, so uniqueness in one test does not depend on another. */
async function newApp(portalOrigin?: string): Promise<TestApp> {
  const office = localBackOffice(localClients(stack.endpoints).document);
  const app = await createApp(office, { name: `affiliates ${randomUUID()}`, portalOrigin });
  return { appId: app.app_id, serverKey: (await issueKey(office, app.app_id, commandLineActor, 'server')).key };
}

const register = (app: TestApp, body: unknown, key = app.serverKey) => request(stack.baseUrl, 'POST', '/api/register_affiliate', { key, body });
const registerRaw = (app: TestApp, rawBody: string) => request(stack.baseUrl, 'POST', '/api/register_affiliate', { key: app.serverKey, rawBody });
const setAffiliate = (body: unknown, key = stack.dev.server_key) => request(stack.baseUrl, 'POST', '/api/set_affiliate', { key, body });

/** `npm run admin -- --json affiliate list --app …` against the test stack. */
async function listedAffiliates(appId: string): Promise<Record<string, unknown>[]> {
  return JSON.parse(await adminCli(stack.dataDir, ['affiliate', 'list', '--app', appId])) as Record<string, unknown>[];
}

describe('register_affiliate: every rule accepted and rejected over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await newApp('https://portal.example.com');
  });

  for (const row of registrationRules) {
    for (const value of row.accepted) {
      test(`${row.field} ${describeValue(value)} is registered`, async () => {
        const response = await register(app, withField(registration(app.appId), row.field, value));

        expect(response.status).toBe(200);
        expect(response.body.login_url).toBe(`https://portal.example.com/affiliates/${app.appId}/login`);
        expect(response.body.affiliate_id).toMatch(/^aff_[0-9a-f]{20}$/);
      });
    }
    for (const [value, message] of row.rejected) {
      test(`${row.field} ${describeValue(value)} is answered 400 ${JSON.stringify({ errors: [message] })}`, async () => {
        const response = await register(app, withField(registration(app.appId), row.field, value));

        expect(response.status).toBe(400);
        expect(response.body).toEqual({ errors: [message] });
      });
    }
  }
});

describe('register_affiliate over HTTP', () => {
  test('20 concurrent registrations of one email make exactly one affiliate', async () => {
    const app = await newApp('https://portal.example.com');
    const email = `race-${randomUUID()}@example.com`;

    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => register(app, { ...registration(app.appId), email: i % 2 ? email.toUpperCase() : email })),
    );

    expect(responses.filter((r) => r.status === 200).length).toEqual(1);
    for (const response of responses.filter((r) => r.status !== 200)) {
      expect([response.status, response.body]).toEqual([400, { errors: ['email is invalid'] }]);
    }
    const listed = await listedAffiliates(app.appId);
    expect(listed.length).toBe(1);
    expect(String(listed[0].email).toLowerCase()).toBe(email);
  });

  test('20 concurrent registrations of one username, in different cases, make exactly one affiliate', async () => {
    const app = await newApp('https://portal.example.com');
    const spellings = ['Alice', 'alice', 'ALICE', ' aLiCe '];

    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => register(app, { ...registration(app.appId), username: spellings[i % spellings.length] })),
    );

    expect(responses.filter((r) => r.status === 200).length).toBe(1);
    for (const response of responses.filter((r) => r.status !== 200)) {
      expect([response.status, response.body]).toEqual([400, { errors: ['username is invalid'] }]);
    }
    expect((await listedAffiliates(app.appId)).length).toBe(1);
  });

  test('"alice" after "Alice" is answered {"errors": ["username is invalid"]}', async () => {
    const app = await newApp('https://portal.example.com');
    expect((await register(app, { ...registration(app.appId), username: 'Alice' })).status).toBe(200);

    const response = await register(app, { ...registration(app.appId), username: 'alice' });

    expect([response.status, response.body]).toEqual([400, { errors: ['username is invalid'] }]);
  });

  test('a used email, padded and in capitals, is answered {"errors": ["email is invalid"]}', async () => {
    const app = await newApp('https://portal.example.com');
    expect((await register(app, { ...registration(app.appId), email: 'ada@example.com' })).status).toBe(200);

    const response = await register(app, { ...registration(app.appId), email: '  ADA@Example.com ' });

    expect([response.status, response.body]).toEqual([400, { errors: ['email is invalid'] }]);
  });

  test('the same email and username register in two applications', async () => {
    const [first, second] = [await newApp(), await newApp()];
    const body = registration(first.appId);

    expect((await register(first, body)).status).toBe(200);
    expect((await register(second, { ...body, app_id: second.appId })).status).toBe(200);
  });

  test('the affiliate list shows what was stored, trimmed, without ignored fields and never a password', async () => {
    const app = await newApp('https://portal.example.com');
    const body = {
      ...registration(app.appId),
      email: '  Grace@Example.com ',
      first_name: ' Grace ',
      telegram: 'grace_h',
      skype: ' grace.hopper ',
      website_url: 'https://grace.example.com',
      facebook: '',
      youtube: null,
      whatsapp: '   ',
    };
    const registered = await register(app, body);
    expect(registered.status).toBe(200);

    const listed = await listedAffiliates(app.appId);

    expect(listed).toEqual([
      {
        app_id: app.appId,
        affiliate_id: registered.body.affiliate_id,
        email: 'Grace@Example.com',
        username: body.username,
        first_name: 'Grace',
        last_name: 'Lovelace',
        website_url: 'https://grace.example.com',
        telegram: 'grace_h',
        skype: 'grace.hopper',
        created_at: listed[0].created_at,
        status: 'pending',
      },
    ]);
    expect(!JSON.stringify(listed).includes('scrypt') && !JSON.stringify(listed).includes(String(body.password))).toBeTruthy();
  });

  test('without a portal origin, the affiliate is registered and login_url is null, not an address from the request', async () => {
    const app = await newApp();

    const response = await register(app, registration(app.appId));

    expect(response.status).toBe(200);
    expect(response.body.login_url).toBe(null);
    expect(response.body.affiliate_id).toMatch(/^aff_[0-9a-f]{20}$/);
  });

  for (const [name, raw] of [
    ['not JSON', '{"app_id": '],
    ['an array', '[{"app_id": "x"}]'],
    ['a string', '"register me"'],
  ] as const) {
    test(`a body that is ${name} is answered 400 {"errors": ["body is invalid"]}`, async () => {
      const app = await newApp();

      const response = await registerRaw(app, raw);

      expect([response.status, response.body]).toEqual([400, { errors: ['body is invalid'] }]);
    });
  }

  test('a body breaking several rules gets one string per rule, each naming its field', async () => {
    const app = await newApp();

    const response = await register(app, { ...registration(app.appId), password: 'short', email: 'nope', phone_number: '12', last_name: undefined });

    expect(response.status).toBe(400);
    expect(new Set(response.body.errors)).toEqual(
      new Set([
        'last_name is required',
        'password must be at least 8 characters',
        'email must be a valid email address',
        'phone_number must be + followed by 7 to 20 digits (spaces, dashes and parentheses allowed)',
      ]),
    );
  });

  for (const [name, key, appOf] of [
    ['a comms key', () => stack.dev.comms_key, (app: TestApp) => app.appId],
    ['no key', () => '', (app: TestApp) => app.appId],
    ["another application's app_id", () => stack.dev.server_key, (app: TestApp) => app.appId],
  ] as const) {
    test(`${name} is answered 403 {"message": "Forbidden"}`, async () => {
      const app = await newApp();

      const response = await register(app, registration(appOf(app)), key());

      expect([response.status, response.body]).toEqual([403, { message: 'Forbidden' }]);
    });
  }
});

describe('set_affiliate: every rule accepted and rejected over HTTP', () => {
  for (const row of attributionRules) {
    for (const value of row.accepted) {
      test(`${row.field} ${describeValue(value)} is answered "Affiliate set"`, async () => {
        const response = await setAffiliate(attributionWith(stack.dev.app_id, row.field, value));

        expect(response.status).toBe(200);
        expect(response.body.message).toBe('Affiliate set');
        expect(response.body.message_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      });
    }
    for (const [value, message] of row.rejected) {
      test(`${row.field} ${describeValue(value)} is answered 400 naming "${message}"`, async () => {
        const response = await setAffiliate(attributionWith(stack.dev.app_id, row.field, value));

        expect(response.status).toBe(400);
        expect(response.body).toEqual({ message: 'request body is invalid', errors: [message] });
      });
    }
  }

  test('none of the tracking parameters is answered 400 naming all three', async () => {
    const response = await setAffiliate({ app_id: stack.dev.app_id, profile_id: 'p' });

    expect([response.status, response.body]).toEqual([400, { message: 'request body is invalid', errors: [missingTracking] }]);
  });

  test('another application\'s app_id and a comms key are answered 403 {"message": "Forbidden"}', async () => {
    const other = await newApp();

    for (const response of [
      await setAffiliate(attributionWith(other.appId, 'urm_aff', 'x')),
      await setAffiliate(attributionWith(stack.dev.app_id, 'urm_aff', 'x'), stack.dev.comms_key),
    ]) {
      expect([response.status, response.body]).toEqual([403, { message: 'Forbidden' }]);
    }
  });
});

describe('set_affiliate read back', () => {
  test('twice with different urm_aff_id: the first stays on the profile, both attempts are on the timeline', async () => {
    const profileId = `attributed-${randomUUID()}`;
    const attempt = (fields: Record<string, string>) => setAffiliate({ app_id: stack.dev.app_id, profile_id: profileId, ...fields });

    const first = await attempt({ urm_aff_id: 'aff-first', urm_aff_link_id: 'link-first' });
    const second = await attempt({ urm_aff_id: 'aff-second', urm_aff: 'campaign-2' });

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.body.message_id).not.toBe(second.body.message_id);
    const attributes = await applyAndRead(stack, profileId, []);
    // First attribution wins per parameter: urm_aff was not set before, so the second attempt sets it.
    expect(attributes).toEqual({ urm_aff_id: 'aff-first', urm_aff_link_id: 'link-first', urm_aff: 'campaign-2' });
    const timeline = await until(
      () => readTimeline(stack, profileId),
      (events) => events.length >= 2,
      'both attributions on the timeline',
    );
    const byId = new Map(timeline.map((event) => [event.urm_insert_id, event]));
    expect(timeline.length).toBe(2);
    expect([byId.get(first.body.message_id)?.event, byId.get(first.body.message_id)?.attributes]).toEqual([
      'urm_affiliate_attributed',
      { urm_aff_id: 'aff-first', urm_aff_link_id: 'link-first' },
    ]);
    expect([byId.get(second.body.message_id)?.event, byId.get(second.body.message_id)?.attributes]).toEqual([
      'urm_affiliate_attributed',
      { urm_aff_id: 'aff-second', urm_aff: 'campaign-2' },
    ]);
  });

  test('the affiliate attributes cannot be written through /profiles', async () => {
    const response = await request(stack.baseUrl, 'POST', '/profiles', {
      key: stack.dev.server_key,
      body: [{ app_id: stack.dev.app_id, profile_id: 'p', urm_date_time: '2026-11-21T10:00:00Z', urm_set: { urm_aff_id: 'forged' } }],
    });

    expect(response.status).toBe(400);
  });
});

describe('the README affiliates example', () => {
  let checkout: ReadmeCheckout;
  beforeAll(() => {
    checkout = readmeCheckout(stack, 'affiliates');
  });
  afterAll(() => checkout.remove());

  test('answers "Affiliate set", then the login address and affiliate id, then the listing and the report, as shown', async () => {
    // The variables come from the first lines of the events example, as in the README.
    const lines = await checkout.run(`${readmeVariables()}\n${readmeBlock('affiliates')}\n${readmeBlock('affiliate-report')}`);

    const [set, registered, listed, report] = lines.map((line) => JSON.parse(line));
    expect(set.message).toBe('Affiliate set');
    expect(set.message_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(registered.login_url).toBe(`${stack.baseUrl}/affiliates/${stack.dev.app_id}/login`);
    expect(registered.affiliate_id).toMatch(/^aff_[0-9a-f]{20}$/);
    expect(listed.affiliates.length).toBeGreaterThan(0);
    expect(report).toMatchObject({ affiliate_id: registered.affiliate_id, currency: 'EUR', from: '2026-11-01', to: '2026-11-30' });
    expect(report.days.length).toBe(30);
    expect(report.totals.commission).toMatch(/^\d+\.\d{2}$/);
  });
});
