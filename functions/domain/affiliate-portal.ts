/**
 * The affiliate portal (docs/api.md, "The affiliate portal"): sessions, the
 * brute-force lockout and password-reset tokens. The records, the ports the
 * cores use, and the rules that need no I/O, so each is tested with a clock
 * the test moves. The session and token rules it shares with the console are
 * in sessions.ts and one-time-tokens.ts.
 */
import type { AffiliateReport, AffiliateStatus } from './affiliate-program';
import type { AffiliateContactField, AffiliateRecord } from './affiliates';
import type { OneTimeToken, OneTimeTokenStore } from './one-time-tokens';
import type { SessionRecord, SessionStore } from './sessions';

export const portalLimits = {
  /** Sign-in attempts are counted in windows of this length… */
  attemptWindowMs: 15 * 60 * 1000,
  /**
   * …and at most this many per account in a window get their password checked (each counted before its
   * check, a success given back): the 5th failure locks the account until the window ends…
   */
  failuresPerAccount: 5,
  /** …and at most this many from one client address (the 20th failure locks the address). */
  failuresPerClient: 20,
  /** A reset link works once, within this time. */
  resetTokenLifetimeMs: 60 * 60 * 1000,
  /** The pre-session cookie that binds the sign-in and reset forms' CSRF tokens. */
  preSessionLifetimeMs: 2 * 60 * 60 * 1000,
  loginLength: 254,
  passwordMinLength: 8,
  passwordMaxLength: 256,
} as const;

/** An affiliate's portal session, as stored; its absolute end is derived from `created_at`. */
export interface AffiliateSession extends SessionRecord {
  affiliate_id: string;
  last_seen: string;
}

export interface AffiliateSessionStore extends SessionStore<AffiliateSession> {
  /** Ends every session of the affiliate; answers how many there were. */
  deleteAllOf(appId: string, affiliateId: string): Promise<number>;
}

/** Who a counter counts sign-in attempts of: an account (the login as typed, compared like uniqueness) or a client address. */
export type AttemptSubject = { kind: 'account'; appId: string; login: string } | { kind: 'client'; appId: string; ip: string };

export function attemptKey(subject: AttemptSubject): string {
  return subject.kind === 'account'
    ? `account#${subject.appId}#${subject.login.trim().normalize('NFC').toLowerCase()}`
    : `client#${subject.appId}#${subject.ip}`;
}

/** How many attempts a window of each kind lets through to a password check. */
export const attemptLimits = { account: portalLimits.failuresPerAccount, client: portalLimits.failuresPerClient } as const;

/**
 * A window's count of sign-in attempts. An attempt is counted before its
 * password is checked and stays counted unless it signs in, so `attempts`
 * is the failures plus the attempts still being checked.
 */
export interface AttemptWindow {
  attempts: number;
  /** Of those, the ones that ended without a session. */
  failures: number;
  /** When the window (and any lockout it caused) ends. */
  ends_at: string;
}

/** An attempt counted (`admitted`), or refused because its window already holds the limit (nothing counted). */
export type Admission = { admitted: boolean; window: AttemptWindow };

export interface SignInAttempts {
  /** The live windows of these keys (consistent reads); an ended window reads as none. */
  current(keys: string[], now: Date): Promise<(AttemptWindow | undefined)[]>;
  /**
   * Counts one attempt, before its password is checked, in one conditional write: into the key's live window
   * if it holds fewer than `limit` attempts, else refused; a new window of `windowMs` when none is live. Of
   * attempts made at once, at most `limit` are admitted per window. Answers the window as counted (or as found).
   */
  admit(key: string, limit: number, now: Date, windowMs: number): Promise<Admission>;
  /** Takes back an admitted attempt that did not fail (it signed in, or another key refused it), if its window (ending `endsAt`) is still the key's. */
  release(key: string, endsAt: string): Promise<void>;
  /** Counts one failure in the key's live window, or opens a new window of `windowMs` with it; answers the window as counted. */
  recordFailure(key: string, now: Date, windowMs: number): Promise<AttemptWindow>;
  /** Forgets the key's window (an account after a correct sign-in or a reset). */
  clear(key: string): Promise<void>;
}

/** The moment an account or client is allowed again, if either window is full now. */
export function lockedUntil(account: AttemptWindow | undefined, client: AttemptWindow | undefined): Date | undefined {
  const ends = [
    account && account.attempts >= attemptLimits.account ? Date.parse(account.ends_at) : undefined,
    client && client.attempts >= attemptLimits.client ? Date.parse(client.ends_at) : undefined,
  ].filter((end): end is number => end !== undefined);
  return ends.length > 0 ? new Date(Math.max(...ends)) : undefined;
}

/**
 * Whether a right password must still be refused: its window is full now, and
 * not by attempts that had all ended before this one began (as when a person
 * fails four times and then types the right password), but by attempts checked
 * alongside it: others still being checked when it was admitted, or admitted
 * after it. A burst of guesses never signs in, wherever the right one is in it.
 */
export function filledAlongside(admitted: AttemptWindow, now: AttemptWindow | undefined, limit: number): boolean {
  if (!now || now.ends_at !== admitted.ends_at || now.attempts < limit) return false;
  const unfinishedBefore = admitted.attempts - 1 - admitted.failures > 0;
  const admittedAfter = now.attempts > admitted.attempts;
  return unfinishedBefore || admittedAfter;
}

/** A password-reset token as stored: only its hash. */
export interface ResetToken extends OneTimeToken {
  affiliate_id: string;
}

export type ResetTokenStore = OneTimeTokenStore<ResetToken>;

/** The affiliates as the portal reads and changes them. */
export interface AffiliateAccounts {
  /** The application's affiliate whose username, or else email, is `login` (compared like uniqueness). */
  findByLogin(appId: string, login: string): Promise<AffiliateRecord | undefined>;
  findByEmail(appId: string, email: string): Promise<AffiliateRecord | undefined>;
  get(appId: string, affiliateId: string): Promise<AffiliateRecord | undefined>;
  setPasswordHash(appId: string, affiliateId: string, passwordHash: string, at: Date): Promise<void>;
  /** Replaces the names and contact fields the affiliate edits in the portal (a contact left out is removed); email and username stay. */
  setProfile(appId: string, affiliateId: string, profile: AffiliateProfile, at: Date): Promise<void>;
}

/** What an affiliate edits of itself in the portal: its names and contacts (never its email or username, which sign it in). */
export type AffiliateProfile = Pick<AffiliateRecord, 'first_name' | 'last_name'> & Partial<Record<AffiliateContactField, string>>;

/** Absent status (affiliates from before statuses) counts as approved. */
export function statusOf(affiliate: Pick<AffiliateRecord, 'status'>): AffiliateStatus {
  return affiliate.status ?? 'approved';
}

/** A period of whole UTC days, inclusive. */
export interface Period {
  from: string;
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function validDay(value: unknown): value is string {
  if (typeof value !== 'string' || !DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** The longest period a page or CSV shows: what the report computes at most (maxReportDays, back-office/affiliate-report.ts). */
export const maxPeriodDays = 366;

/**
 * The period asked for, or this month so far (UTC) when nothing valid was;
 * `to` before `from` is swapped, a span over `maxPeriodDays` is cut at its end.
 */
export function periodOf(query: { from?: unknown; to?: unknown }, now: Date): { period: Period; adjusted: boolean } {
  const today = now.toISOString().slice(0, 10);
  const thisMonth: Period = { from: `${today.slice(0, 7)}-01`, to: today };
  if (query.from === undefined && query.to === undefined) return { period: thisMonth, adjusted: false };
  if (!validDay(query.from) || !validDay(query.to)) return { period: thisMonth, adjusted: true };
  let [from, to] = [query.from, query.to];
  let adjusted = false;
  if (to < from) [from, to, adjusted] = [to, from, true];
  const span = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (span > maxPeriodDays) {
    to = new Date(Date.parse(`${from}T00:00:00Z`) + (maxPeriodDays - 1) * 86_400_000).toISOString().slice(0, 10);
    adjusted = true;
  }
  return { period: { from, to }, adjusted };
}

/** Every day of the period, in order. */
export function daysOf(period: Period): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${period.from}T00:00:00Z`); at <= Date.parse(`${period.to}T00:00:00Z`); at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/** The report the dashboard shows: lane C's affiliateReport, behind a port. */
export type AffiliateReportSource = (appId: string, affiliateId: string, from: string, to: string, options?: { subIds?: boolean }) => Promise<AffiliateReport>;
