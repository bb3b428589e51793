/** The console's broadcasts routes (functions/console/broadcasts) through the router: roles, bodies, the states' refusals, the audit. */
import { describe, expect, test } from '@jest/globals';
import { consoleRouter } from '../../support/console-router';
import { emailTemplate, storedTemplate } from '../../support/templates';

const body = { name: 'Weekend reload', template_id: 'welcome', segment_id: 'vips', purpose: 'marketing', schedule: { kind: 'now' } };

async function arranged() {
  const api = consoleRouter();
  await api.templates.create(storedTemplate('app_1', emailTemplate()));
  await api.call('POST', '/console/api/segments', { body: { segment_id: 'vips', name: 'VIPs', condition: { attribute: 'vip', op: 'equals', value: true } } });
  return api;
}

describe('the broadcasts routes', () => {
  test('a marketer creates a draft, starts it (scheduled now, in the application clock), pauses and cancels it; each change audited', async () => {
    const api = await arranged();
    const marketer = await api.signIn('marketer');

    const created = await api.call('POST', '/console/api/broadcasts', { as: marketer, body });
    const id = created.body.broadcast.broadcast_id as string;
    const started = await api.call('POST', `/console/api/broadcasts/${id}/start`, { as: marketer });
    const paused = await api.call('POST', `/console/api/broadcasts/${id}/pause`, { as: marketer });
    const cancelled = await api.call('POST', `/console/api/broadcasts/${id}/cancel`, { as: marketer });
    const listed = await api.call('GET', '/console/api/broadcasts', { as: marketer });

    expect(created.status).toBe(201);
    expect(id).toMatch(/^weekend-reload-[0-9a-f]{6}$/);
    expect(created.body.broadcast).toMatchObject({ status: 'draft', progress: { done: 0, total: 0 } });
    expect(started.body.broadcast).toMatchObject({ status: 'scheduled', start_at: '2026-11-21T10:00:00.000Z' });
    expect([paused.body.broadcast.status, cancelled.body.broadcast.status]).toEqual(['paused', 'cancelled']);
    expect(listed.body.broadcasts.map((b: { status: string }) => b.status)).toEqual(['cancelled']);
    expect(api.audit.entries.map((entry) => entry.action).filter((action) => action.startsWith('broadcast.'))).toEqual([
      'broadcast.created',
      'broadcast.started',
      'broadcast.paused',
      'broadcast.cancelled',
    ]);
  });

  test('an action the state does not allow is a 409, and changes nothing', async () => {
    const api = await arranged();
    const created = await api.call('POST', '/console/api/broadcasts', { body: { ...body, broadcast_id: 'b1' } });

    const resumed = await api.call('POST', '/console/api/broadcasts/b1/resume');

    expect(created.status).toBe(201);
    expect([resumed.status, resumed.body.message]).toEqual([409, 'a draft broadcast cannot resume']);
    expect((await api.call('GET', '/console/api/broadcasts/b1')).body.broadcast.status).toBe('draft');
  });

  test('an unknown template, segment or topic is a 400 naming each; a holdout over 50 too', async () => {
    const api = await arranged();

    const unknown = await api.call('POST', '/console/api/broadcasts', { body: { ...body, template_id: 'nope', segment_id: 'nope', topic: 'news' } });
    const holdout = await api.call('POST', '/console/api/broadcasts', { body: { ...body, holdout_percent: 60 } });

    expect([unknown.status, unknown.body.errors]).toEqual([
      400,
      [
        'segment_id names no segment of the application: nope',
        'template_id names no template of the application: nope',
        'topic names no topic of the application (Settings, Messaging): news',
      ],
    ]);
    expect(holdout.status).toBe(400);
  });

  test('a viewer reads but may not create or change; an unknown broadcast is a 404', async () => {
    const api = await arranged();
    await api.call('POST', '/console/api/broadcasts', { body: { ...body, broadcast_id: 'b1' } });
    const viewer = await api.signIn('viewer');

    const create = await api.call('POST', '/console/api/broadcasts', { as: viewer, body });
    const start = await api.call('POST', '/console/api/broadcasts/b1/start', { as: viewer });
    const read = await api.call('GET', '/console/api/broadcasts/b1', { as: viewer });
    const missing = await api.call('GET', '/console/api/broadcasts/none', { as: viewer });

    expect([create.status, start.status, read.status, missing.status]).toEqual([403, 403, 200, 404]);
  });
});
