/**
 * The session rules the console and the affiliate portal share
 * (functions/domain/sessions.ts): expiry, `last_seen`, the lookup of the
 * session a cookie names, and the CSRF tokens bound to a cookie, with a clock
 * the test moves.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { hashSecret, newSecret } from '../../../functions/domain/secrets-random';
import {
  consoleCsrf,
  currentSession,
  portalCsrf,
  sessionEndsAt,
  sessionLimits,
  sessionState,
  shouldTouch,
  startedSession,
  type SessionRecord,
} from '../../../functions/domain/sessions';
import { FakeClock } from '../../support/enterprise';
import { MemorySessionStore } from '../../support/sessions';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const signedInAt = '2026-11-23T08:00:00.000Z';
const afterSignIn = (ms: number) => new Date(Date.parse(signedInAt) + ms);
const iso = (ms: number) => afterSignIn(ms).toISOString();

/** A portal session: its absolute end derived from `created_at`. */
const derived = (lastSeenAfterMs = 0) => ({ created_at: signedInAt, last_seen: iso(lastSeenAfterMs) });
/** A console session: its absolute end stored. */
const stored = (lastSeenAfterMs?: number) => ({
  created_at: signedInAt,
  expires_at: iso(12 * HOUR),
  ...(lastSeenAfterMs === undefined ? {} : { last_seen: iso(lastSeenAfterMs) }),
});

describe('a session', () => {
  test('is live while used within the last 30 minutes', () => {
    expect(sessionState(derived(HOUR), afterSignIn(HOUR + 30 * MINUTE - 1))).toBe('live');
    expect(sessionState(stored(HOUR), afterSignIn(HOUR + 30 * MINUTE - 1))).toBe('live');
  });

  test('is idle once unused for 30 minutes', () => {
    expect(sessionState(derived(HOUR), afterSignIn(HOUR + 30 * MINUTE))).toBe('idle');
    expect(sessionState(stored(HOUR), afterSignIn(HOUR + 30 * MINUTE))).toBe('idle');
  });

  test('is expired 12 hours after sign-in however recently it was used, whether the end is derived or stored', () => {
    expect(sessionState(derived(12 * HOUR - MINUTE), afterSignIn(12 * HOUR - 1))).toBe('live');
    expect(sessionState(derived(12 * HOUR - MINUTE), afterSignIn(12 * HOUR))).toBe('expired');
    expect(sessionState(stored(12 * HOUR - MINUTE), afterSignIn(12 * HOUR))).toBe('expired');
  });

  test('ends where its stored end says, even before 12 hours', () => {
    expect(sessionState({ ...stored(0), expires_at: iso(10 * MINUTE) }, afterSignIn(10 * MINUTE))).toBe('expired');
  });

  test('without last_seen (a console session from before idle expiry) is idle 30 minutes after sign-in', () => {
    expect(sessionState(stored(), afterSignIn(30 * MINUTE - 1))).toBe('live');
    expect(sessionState(stored(), afterSignIn(30 * MINUTE))).toBe('idle');
  });

  test('stops being usable at the earlier of its idle end and its absolute end (its TTL)', () => {
    expect(sessionEndsAt(derived(HOUR))).toEqual(afterSignIn(HOUR + 30 * MINUTE));
    expect(sessionEndsAt(derived(12 * HOUR - 10 * MINUTE))).toEqual(afterSignIn(12 * HOUR));
    expect(sessionEndsAt(stored())).toEqual(afterSignIn(30 * MINUTE));
    expect(sessionEndsAt(stored(12 * HOUR - 10 * MINUTE))).toEqual(afterSignIn(12 * HOUR));
  });

  test('moves last_seen at most once a minute, counting from sign-in when it has none', () => {
    expect(shouldTouch(derived(HOUR), afterSignIn(HOUR + MINUTE - 1))).toBe(false);
    expect(shouldTouch(derived(HOUR), afterSignIn(HOUR + MINUTE))).toBe(true);
    expect(shouldTouch(stored(), afterSignIn(MINUTE - 1))).toBe(false);
    expect(shouldTouch(stored(), afterSignIn(MINUTE))).toBe(true);
  });

  test('starts stored by the hash of its id, last seen as it starts', () => {
    expect(startedSession('the-id', 'app_1', afterSignIn(0), true)).toEqual({
      session_hash: hashSecret('the-id'),
      app_id: 'app_1',
      created_at: signedInAt,
      last_seen: signedInAt,
      cookie_secure: true,
    });
  });
});

describe('the session a cookie names (currentSession)', () => {
  type Session = SessionRecord & { owner_id: string; last_seen: string };
  let clock: FakeClock;
  let sessions: MemorySessionStore<Session>;
  let principals: Map<string, string>;
  let reads: number;
  const lookup = () =>
    currentSession({ sessions, now: clock.now }, async (session: Session) => {
      reads++;
      return principals.get(session.owner_id);
    });

  async function started(appId = 'app_1'): Promise<string> {
    const sessionId = newSecret();
    await sessions.put({ ...startedSession(sessionId, appId, clock.now(), true), owner_id: 'usr_1' });
    return sessionId;
  }

  beforeEach(() => {
    clock = new FakeClock(new Date(signedInAt));
    sessions = new MemorySessionStore();
    principals = new Map([['usr_1', 'Ada']]);
    reads = 0;
  });

  test('answers a live session, its id and its principal', async () => {
    const sessionId = await started();

    const found = await lookup()(sessionId);

    expect(found).toEqual({ sessionId, session: expect.objectContaining({ session_hash: hashSecret(sessionId), owner_id: 'usr_1' }), principal: 'Ada' });
  });

  test("answers nothing for a missing id, an unknown one, or one not of a secret's shape, which is never looked up", async () => {
    const get = sessions.get.bind(sessions);
    let lookups = 0;
    sessions.get = async (hash) => {
      lookups++;
      return get(hash);
    };

    const answers = await Promise.all([undefined, '', 'short', `${newSecret()}x`, newSecret()].map((id) => lookup()(id)));

    expect(answers).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(lookups).toBe(1);
  });

  test("answers nothing for another application's session where the area names its application", async () => {
    const sessionId = await started('app_2');

    expect(await lookup()(sessionId, 'app_1')).toBe(undefined);
    expect(await lookup()(sessionId, 'app_2')).toEqual(expect.objectContaining({ principal: 'Ada' }));
  });

  test('answers nothing once the session is idle, and each use keeps it alive until then', async () => {
    const sessionId = await started();

    clock.advance(sessionLimits.idleMs - 1);
    const kept = await lookup()(sessionId);
    clock.advance(sessionLimits.idleMs - 1);
    const stillKept = await lookup()(sessionId);
    clock.advance(sessionLimits.idleMs);

    expect([kept?.principal, stillKept?.principal]).toEqual(['Ada', 'Ada']);
    expect(await lookup()(sessionId)).toBe(undefined);
  });

  test('asks for the principal only of a live session, and answers nothing when it is gone, without moving last_seen', async () => {
    const sessionId = await started();
    clock.advance(sessionLimits.idleMs);
    await lookup()(sessionId);
    expect(reads).toBe(0);

    const fresh = await started();
    principals.clear();
    clock.advance(5 * MINUTE);

    expect(await lookup()(fresh)).toBe(undefined);
    expect(reads).toBe(1);
    expect(sessions.sessions.get(hashSecret(fresh))?.last_seen).toBe(iso(30 * MINUTE));
  });

  test('moves last_seen at most once a minute', async () => {
    const sessionId = await started();
    const lastSeen = () => sessions.sessions.get(hashSecret(sessionId))?.last_seen;

    clock.advance(MINUTE - 1);
    await lookup()(sessionId);
    const first = lastSeen();
    clock.advance(1);
    await lookup()(sessionId);

    expect(first).toBe(signedInAt);
    expect(lastSeen()).toBe(iso(MINUTE));
  });
});

describe('CSRF tokens', () => {
  test('the token derived from a cookie secret matches it', () => {
    expect(consoleCsrf.matches('secret-a', consoleCsrf.tokenFor('secret-a'))).toBe(true);
    expect(portalCsrf.matches('secret-a', portalCsrf.tokenFor('secret-a'))).toBe(true);
  });

  test("another secret's token, a missing or empty token, one not a string and a missing secret do not match", () => {
    for (const csrf of [consoleCsrf, portalCsrf]) {
      expect(csrf.matches('secret-a', csrf.tokenFor('secret-b'))).toBe(false);
      expect(csrf.matches('secret-a', undefined)).toBe(false);
      expect(csrf.matches('secret-a', '')).toBe(false);
      expect(csrf.matches('secret-a', [csrf.tokenFor('secret-a')])).toBe(false);
      expect(csrf.matches(undefined, csrf.tokenFor('secret-a'))).toBe(false);
      expect(csrf.matches('', csrf.tokenFor(''))).toBe(false);
    }
  });

  test("one area's token is not the other's for the same secret", () => {
    expect(portalCsrf.matches('secret-a', consoleCsrf.tokenFor('secret-a'))).toBe(false);
    expect(consoleCsrf.matches('secret-a', portalCsrf.tokenFor('secret-a'))).toBe(false);
  });

  test('the token does not contain the cookie secret', () => {
    expect(consoleCsrf.tokenFor('secret-a')).not.toContain('secret-a');
    expect(portalCsrf.tokenFor('secret-a')).not.toContain('secret-a');
  });

  test('is derived as before (labels urm-console-csrf and urm-affiliate-portal-csrf): tokens already issued still match', () => {
    expect(consoleCsrf.tokenFor('secret-a')).toBe('UfBTz7Ogv-DYWlzfjEti4Ep1MBN7qQ8WoMZLCA65MjU');
    expect(portalCsrf.tokenFor('secret-a')).toBe('5Yr6fhRLKZh08MKdV11FTnFPElmOBkjK4EtjHT6e4Vg');
  });
});
