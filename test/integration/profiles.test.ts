import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { listRejections } from '../../functions/back-office/records';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { applyAndRead, at, profileRecord, readProfile, readTimeline, send, until } from '../support/profiles';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

const id = (name: string) => `${name}-${randomUUID()}`;

/** The four columns of the directive table (docs/api.md, "Directives"): how the attribute `a` is before the directive. */
const states = ['missing', 'null', 'expected', 'other'] as const;

interface Row {
  directive: string;
  expectedValue: unknown;
  otherValue: unknown;
  change: Record<string, unknown>;
  results: { missing: unknown; null: unknown; expected: unknown; other: unknown };
}

const MISSING = Symbol('missing');
const REJECTED = Symbol('rejected');

const rows: Row[] = [
  {
    directive: 'urm_set',
    expectedValue: 'old',
    otherValue: 7,
    change: { urm_set: { a: 'new' } },
    results: { missing: 'new', null: 'new', expected: 'new', other: 'new' },
  },
  {
    directive: 'urm_set_if_null',
    expectedValue: 'old',
    otherValue: 7,
    change: { urm_set_if_null: { a: 'new' } },
    results: { missing: 'new', null: 'new', expected: 'old', other: 7 },
  },
  { directive: 'urm_add', expectedValue: 5, otherValue: 'five', change: { urm_add: { a: 2 } }, results: { missing: 2, null: 2, expected: 7, other: REJECTED } },
  {
    directive: 'urm_append',
    expectedValue: ['x'],
    otherValue: 'x',
    change: { urm_append: { a: ['x', 'y'] } },
    results: { missing: ['x', 'y'], null: ['x', 'y'], expected: ['x', 'x', 'y'], other: REJECTED },
  },
  {
    directive: 'urm_unique_append',
    expectedValue: ['x'],
    otherValue: 'x',
    change: { urm_unique_append: { a: ['x', 'y'] } },
    results: { missing: ['x', 'y'], null: ['x', 'y'], expected: ['x', 'y'], other: REJECTED },
  },
  {
    directive: 'urm_remove',
    expectedValue: ['x', 'y', 'x'],
    otherValue: 'x',
    change: { urm_remove: { a: ['x'] } },
    results: { missing: MISSING, null: null, expected: ['y'], other: REJECTED },
  },
  {
    directive: 'urm_unset',
    expectedValue: 'old',
    otherValue: 7,
    change: { urm_unset: ['a'] },
    results: { missing: null, null: null, expected: null, other: null },
  },
  {
    directive: 'urm_delete',
    expectedValue: 'old',
    otherValue: 7,
    change: { urm_delete: ['a'] },
    results: { missing: MISSING, null: MISSING, expected: MISSING, other: MISSING },
  },
];

describe('each row of the directive table, sent over HTTP and read back', () => {
  for (const row of rows) {
    for (const state of states) {
      const expected = row.results[state];
      const outcome = expected === REJECTED ? 'rejects the record' : expected === MISSING ? 'leaves no attribute' : `gives ${JSON.stringify(expected)}`;
      test(`${row.directive} on an attribute that is ${state === 'expected' ? 'of the expected type' : state === 'other' ? 'of another type' : state} ${outcome}`, async () => {
        const profileId = id(`${row.directive}-${state}`);
        const setup =
          state === 'missing'
            ? []
            : state === 'null'
              ? [profileRecord(stack, profileId, { urm_unset: ['a'] })]
              : [profileRecord(stack, profileId, { urm_set: { a: state === 'expected' ? row.expectedValue : row.otherValue } })];

        const attributes = await applyAndRead(stack, profileId, [
          profileRecord(stack, profileId, { other: 1 }),
          ...setup,
          profileRecord(stack, profileId, row.change),
        ]);

        const before = state === 'missing' ? MISSING : state === 'null' ? null : state === 'expected' ? row.expectedValue : row.otherValue;
        const after = expected === REJECTED ? before : expected;
        if (after === MISSING) expect(!('a' in attributes)).toBeTruthy();
        else expect(attributes.a).toEqual(after);
        expect(attributes.other).toBe(1);
      });
    }
  }
});

describe('profiles through the local stack', () => {
  test('urm_add of 0.1 and then 0.2 reads back as 0.3', async () => {
    const profileId = id('decimal');

    const attributes = await applyAndRead(stack, profileId, [
      profileRecord(stack, profileId, { urm_add: { balance: 0.1 } }),
      profileRecord(stack, profileId, { urm_add: { balance: 0.2 } }),
    ]);

    expect(attributes.balance).toBe(0.3);
  });

  test('a rejected record changes nothing, is kept with its reason for an operator, and later records apply', async () => {
    const profileId = id('rejected');

    const attributes = await applyAndRead(stack, profileId, [
      profileRecord(stack, profileId, { nickname: 'ace' }),
      profileRecord(stack, profileId, { urm_insert_id: `bad-${profileId}`, urm_add: { nickname: 1 }, urm_set: { level: 9 } }),
      profileRecord(stack, profileId, { level: 2 }),
    ]);

    expect(attributes).toEqual({ nickname: 'ace', level: 2 });
    const { document } = localClients(stack.endpoints);
    const rejections = await listRejections(localBackOffice(document), stack.dev.app_id, 100);
    const mine = rejections.find((r) => r.profile_id === profileId);
    expect(mine).toBeTruthy();
    expect(mine!.urm_insert_id).toBe(`bad-${profileId}`);
    expect(mine!.reason).toMatch(/urm_add needs a number, but nickname is a string/);
  });

  test('re-sending a request with the same urm_insert_ids applies it once', async () => {
    const profileId = id('resend');
    const records = [
      profileRecord(stack, profileId, { urm_insert_id: `${profileId}-1`, urm_add: { deposits: 10 } }),
      profileRecord(stack, profileId, { urm_insert_id: `${profileId}-2`, urm_append: { games: ['poker'] } }),
    ];
    const events = [
      { app_id: stack.dev.app_id, profile_id: profileId, event: 'deposit', urm_date_time: '2026-11-21T10:00:00Z', urm_insert_id: `${profileId}-e1` },
    ];

    await send(stack, '/profiles', records);
    await send(stack, '/events', events);
    await send(stack, '/profiles', records);
    await send(stack, '/events', events);
    const attributes = await applyAndRead(stack, profileId, []);

    expect(attributes).toEqual({ deposits: 10, games: ['poker'] });
    const timeline = await until(
      () => readTimeline(stack, profileId),
      (t) => t.length > 0,
      'the event',
    );
    expect(timeline.length).toBe(1);
  });

  test('an event re-sent in a later request with the same urm_insert_id and other properties leaves the first on the timeline', async () => {
    const profileId = id('first-wins');
    const event = (fields: Record<string, unknown>) => ({ app_id: stack.dev.app_id, profile_id: profileId, event: 'deposit', urm_date_time: at, ...fields });
    await send(stack, '/events', [event({ urm_insert_id: 'deposit-1', amount: 10 })]);
    await until(
      () => readTimeline(stack, profileId),
      (t) => t.length === 1,
      'the first event',
    );

    // The marker follows the re-send on the profile's shard: the consumer handles the re-send first or in the same batch.
    await send(stack, '/events', [event({ urm_insert_id: 'deposit-1', amount: 99, currency: 'EUR' }), event({ urm_insert_id: 'marker', event: 'marker' })]);
    const timeline = await until(
      () => readTimeline(stack, profileId),
      (t) => t.length === 2,
      'the marker event',
    );

    expect(timeline.find((e) => e.urm_insert_id === 'deposit-1')?.attributes).toEqual({ amount: 10 });
  });

  test('urm_merge copies what the target lacks, unions push tokens, and brings the source’s timeline', async () => {
    const visitor = id('anon');
    const player = id('player');
    await send(stack, '/events', [
      { app_id: stack.dev.app_id, profile_id: visitor, event: 'page_view', urm_date_time: '2026-11-20T09:00:00Z', page: '/promo' },
    ]);
    await until(
      () => readTimeline(stack, visitor),
      (t) => t.length === 1,
      'the visitor event',
    );
    await applyAndRead(stack, visitor, [profileRecord(stack, visitor, { language: 'mt', country: 'MT', urm_web_push_notification_token: ['device-a'] })]);

    const attributes = await applyAndRead(stack, player, [
      profileRecord(stack, player, { country: 'IT', urm_web_push_notification_token: ['device-b'] }),
      profileRecord(stack, player, { urm_merge: [visitor, id('missing')] }),
    ]);

    expect(attributes).toEqual({ country: 'IT', language: 'mt', urm_web_push_notification_token: ['device-b', 'device-a'] });
    const timeline = await readTimeline(stack, player);
    expect(timeline.map((e) => [e.event, e.merged_from, e.attributes.page])).toEqual([['page_view', visitor, '/promo']]);
    expect((await readProfile(stack, visitor)).body.attributes.country).toBe('MT');
  });

  test('urm_merge of a profile into itself is refused with 400', async () => {
    const profileId = id('self');

    const response = await request(stack.baseUrl, 'POST', '/profiles', {
      key: stack.dev.server_key,
      body: [profileRecord(stack, profileId, { urm_merge: [profileId] })],
    });

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual(['[0].urm_merge must not name the profile itself']);
  });

  test('urm_delete_profile removes attributes and timeline; a later record starts an empty profile', async () => {
    const profileId = id('deleted');
    await send(stack, '/events', [{ app_id: stack.dev.app_id, profile_id: profileId, event: 'login', urm_date_time: at }]);
    await until(
      () => readTimeline(stack, profileId),
      (t) => t.length === 1,
      'the event',
    );
    await applyAndRead(stack, profileId, [profileRecord(stack, profileId, { vip: true })]);

    await send(stack, '/profiles', [profileRecord(stack, profileId, { urm_delete_profile: 'profile_id' })]);
    await until(
      () => readProfile(stack, profileId),
      (r) => r.status === 404,
      'the delete',
    );

    expect((await readProfile(stack, profileId)).body).toEqual({ message: 'profile not found' });
    expect(await readTimeline(stack, profileId)).toEqual([]);
    const attributes = await applyAndRead(stack, profileId, [profileRecord(stack, profileId, { fresh: 1 })]);
    expect(attributes).toEqual({ fresh: 1 });
  });
});

describe('the read API', () => {
  test('pages a timeline newest first behind an opaque cursor', async () => {
    const profileId = id('pages');
    const times = ['2026-11-01T10:00:00Z', '2026-11-03T10:00:00Z', '2026-11-02T10:00:00+01:00', '2026-11-05T00:00:00Z', '2026-11-04T10:00:00Z'];
    await send(
      stack,
      '/events',
      times.map((t, i) => ({ app_id: stack.dev.app_id, profile_id: profileId, event: `e${i}`, urm_date_time: t })),
    );
    await until(
      () => readTimeline(stack, profileId),
      (t) => t.length === 5,
      'five events',
    );

    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const query: string = `app_id=${stack.dev.app_id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await request(stack.baseUrl, 'GET', `/profiles/${profileId}/events?${query}`, { key: stack.dev.server_key });
      pages.push(page.body.events.map((e: { event: string }) => e.event));
      cursor = page.body.next_cursor;
    } while (cursor);

    expect(pages.flat()).toEqual(['e3', 'e4', 'e1', 'e2', 'e0']);
    expect(pages.map((p) => p.length).slice(0, 2)).toEqual([2, 2]);
  });

  test('refuses a cursor of another timeline, a bad limit, and another application', async () => {
    const foreign = Buffer.from(JSON.stringify(['x#y', 'i', 't'])).toString('base64url');
    const cases: [string, number][] = [
      [`/profiles/p/events?app_id=${stack.dev.app_id}&cursor=${foreign}`, 400],
      [`/profiles/p/events?app_id=${stack.dev.app_id}&limit=101`, 400],
      [`/profiles/p/events?app_id=${stack.dev.app_id}&limit=0`, 400],
      [`/profiles/p/events`, 400],
      [`/profiles/p?app_id=app_other`, 403],
      [`/profiles/p/events?app_id=app_other`, 403],
    ];
    for (const [path, status] of cases) {
      const response = await request(stack.baseUrl, 'GET', path, { key: stack.dev.server_key });
      expect(response.status).toBe(status);
    }
  });

  test('answers 404 for a profile that never existed', async () => {
    const response = await readProfile(stack, id('nobody'));

    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'profile not found' });
  });
});
