/** Sending profile records and reading the result back through the API, as an integrator does. */
import { expect } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { request } from './http';
import type { TestStack } from './local-stack';

export const at = '2026-11-21T10:00:00Z';

export function profileRecord(stack: TestStack, profileId: string, fields: Record<string, unknown> = {}) {
  return { app_id: stack.dev.app_id, profile_id: profileId, urm_date_time: at, ...fields };
}

export async function send(stack: TestStack, path: '/profiles' | '/events', records: unknown[]): Promise<void> {
  const response = await request(stack.baseUrl, 'POST', path, { key: stack.dev.server_key, body: records });
  expect({ status: response.status, failed: response.body.FailedRecordCount }).toEqual({ status: 200, failed: 0 });
}

export async function readProfile(stack: TestStack, profileId: string) {
  return request(stack.baseUrl, 'GET', `/profiles/${encodeURIComponent(profileId)}?app_id=${stack.dev.app_id}`, {
    key: stack.dev.server_key,
  });
}

export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Sends the records, then a marker record, and waits until the marker is
 * applied: every record before it (same profile, same shard) has been too.
 * Returns the attributes without the marker.
 */
export async function applyAndRead(stack: TestStack, profileId: string, records: Record<string, unknown>[]) {
  const marker = randomUUID();
  await send(stack, '/profiles', [...records, profileRecord(stack, profileId, { urm_set: { applied_marker: marker } })]);
  const response = await until(
    () => readProfile(stack, profileId),
    (r) => r.status === 200 && r.body.attributes.applied_marker === marker,
    `profile ${profileId} to be applied`,
  );
  const { applied_marker: _marker, ...attributes } = response.body.attributes;
  return attributes as Record<string, unknown>;
}

export async function readTimeline(stack: TestStack, profileId: string) {
  const events: any[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `app_id=${stack.dev.app_id}&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
    const page = await request(stack.baseUrl, 'GET', `/profiles/${encodeURIComponent(profileId)}/events?${query}`, {
      key: stack.dev.server_key,
    });
    expect(page.status).toBe(200);
    events.push(...page.body.events);
    cursor = page.body.next_cursor;
  } while (cursor);
  return events;
}
