/**
 * The send gate's clock: what time it is for an application. Real time,
 * moved by an offset per application when the environment variable
 * URM_CLOCK_OFFSETS holds one (a JSON object of application id to
 * milliseconds). The CDK stack never sets it; the local stack sets it when a
 * test moves an application's time (`PUT /local/clock`), so caps, quiet hours
 * and deferred sends can be tested without waiting for a day to pass, and
 * without moving the time of the other applications' tests.
 */
export const CLOCK_OFFSETS_ENV = 'URM_CLOCK_OFFSETS';

let parsedFrom: string | undefined;
let parsed: Record<string, number> = {};

function offsets(): Record<string, number> {
  const raw = process.env[CLOCK_OFFSETS_ENV];
  if (raw === undefined || raw === '') return {};
  if (raw !== parsedFrom) {
    parsedFrom = raw;
    try {
      const value = JSON.parse(raw) as unknown;
      parsed = value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([, ms]) => Number.isFinite(ms))) : {};
    } catch {
      parsed = {};
    }
  }
  return parsed;
}

/** The time for an application. */
export function nowFor(appId: string): Date {
  return new Date(Date.now() + (offsets()[appId] ?? 0));
}

/** How far ahead of real time the furthest application is (0 in AWS): a scheduler looks that far for due work. */
export function furthestAheadMs(): number {
  return Math.max(0, ...Object.values(offsets()));
}
