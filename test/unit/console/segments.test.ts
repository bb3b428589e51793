/** The console's segments routes (functions/console/segments) through the router: roles, CSRF, bodies, answers. */
import { describe, expect, test } from '@jest/globals';
import { consoleRouter } from '../../support/console-router';
import { storedProfile } from '../../support/players';

const condition = { events: { name: 'Deposit' }, measure: 'count', op: 'gte', value: 2, within_days: 30 };

describe('POST /console/api/segments', () => {
  test('an editor creates a segment: 201 with it backfilling at version 1, then listed with its size', async () => {
    const api = consoleRouter();
    const marketer = await api.signIn('marketer');

    const created = await api.call('POST', '/console/api/segments', { as: marketer, body: { name: 'Active depositors', condition } });
    const listed = await api.call('GET', '/console/api/segments', { as: marketer });

    expect(created.status).toBe(201);
    expect(created.body.segment).toMatchObject({ segment_id: 'active-depositors', status: 'backfilling', version: 1, condition });
    expect(listed.body.segments).toMatchObject([{ segment_id: 'active-depositors', name: 'Active depositors', size: 0, status: 'backfilling' }]);
    expect(api.audit.entries.map((entry) => entry.action)).toEqual(['segment.created']);
  });

  test("a bad condition is 400 with messages naming the node's path", async () => {
    const api = consoleRouter();

    const response = await api.call('POST', '/console/api/segments', { body: { name: 'Bad', condition: { all: [{ lifecycle: 'ngr' }] } } });

    expect([response.status, response.body]).toEqual([400, { message: 'condition is invalid', errors: ['condition.all[0] needs op and value for ngr'] }]);
  });

  test('a body without a name is 400 naming the field', async () => {
    const api = consoleRouter();

    const response = await api.call('POST', '/console/api/segments', { body: { condition } });

    expect(response.status).toBe(400);
    expect(response.body.errors.join(' ')).toMatch(/name/);
  });

  test('a viewer is refused (403); a call without the CSRF token too; nothing is made', async () => {
    const api = consoleRouter();
    const viewer = await api.signIn('viewer');

    const asViewer = await api.call('POST', '/console/api/segments', { as: viewer, body: { name: 'X', condition } });
    const noCsrf = await api.call('POST', '/console/api/segments', { csrf: false, body: { name: 'X', condition } });

    expect([asViewer.status, noCsrf.status]).toEqual([403, 403]);
    expect(api.segments.definitions.size).toBe(0);
  });
});

describe('one segment', () => {
  test('an unknown segment is 404 on every route', async () => {
    const api = consoleRouter();
    await api.admin();

    const answers = await Promise.all([
      api.call('GET', '/console/api/segments/nope'),
      api.call('GET', '/console/api/segments/nope/members'),
      api.call('GET', '/console/api/segments/nope/members.csv'),
      api.call('POST', '/console/api/segments/nope', { body: { name: 'X' } }),
      api.call('POST', '/console/api/segments/nope/archive'),
    ]);

    expect(answers.map((answer) => [answer.status, answer.body.message])).toEqual(Array(5).fill([404, 'no segment with this id']));
  });

  test('a viewer reads the segment, its members with name and money, and the CSV; an edit and an archive are refused', async () => {
    const api = consoleRouter();
    const viewer = await api.signIn('viewer');
    await api.call('POST', '/console/api/segments', { body: { segment_id: 'vip', name: 'VIP', condition } });
    api.segments.addMember('app_1', 'vip', { profile_id: 'p-1', entered_at: '2026-11-21T10:00:00.000Z' });
    api.profiles.add(storedProfile('app_1', 'p-1', { name: 'Ada', email: 'ada@example.com' }));

    const read = await api.call('GET', '/console/api/segments/vip', { as: viewer });
    const members = await api.call('GET', '/console/api/segments/vip/members?limit=10', { as: viewer });
    const csv = await api.call('GET', '/console/api/segments/vip/members.csv', { as: viewer });
    const edit = await api.call('POST', '/console/api/segments/vip', { as: viewer, body: { name: 'X' } });
    const archive = await api.call('POST', '/console/api/segments/vip/archive', { as: viewer });

    expect(read.body.segment).toMatchObject({ segment_id: 'vip', size: 1, condition });
    expect(members.body).toMatchObject({
      currency: 'EUR',
      members: [{ profile_id: 'p-1', name: 'Ada', email: 'ada@example.com', deposits: '0' }],
      next_cursor: null,
    });
    expect(csv.headers).toMatchObject({ 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="segment-vip.csv"' });
    expect(csv.text.split('\r\n')[1]).toBe('p-1,Ada,ada@example.com,2026-11-21T10:00:00.000Z,0,0,0,,,EUR');
    expect([edit.status, archive.status]).toEqual([403, 403]);
  });

  test('an edit of the condition bumps the version; archiving while another segment names it is 409', async () => {
    const api = consoleRouter();
    await api.call('POST', '/console/api/segments', { body: { segment_id: 'base', name: 'Base', condition } });
    await api.call('POST', '/console/api/segments', { body: { segment_id: 'user', name: 'User', condition: { segment: 'base' } } });

    const edited = await api.call('POST', '/console/api/segments/base', { body: { condition: { ...condition, value: 3 } } });
    const archived = await api.call('POST', '/console/api/segments/base/archive');

    expect(edited.body.segment).toMatchObject({ version: 2, status: 'backfilling' });
    expect([archived.status, archived.body.message]).toEqual([409, 'the segment is used by user: change or archive those first']);
  });

  test('a members limit over 100 is 400 naming the field', async () => {
    const api = consoleRouter();
    await api.call('POST', '/console/api/segments', { body: { segment_id: 'vip', name: 'VIP', condition } });

    const response = await api.call('GET', '/console/api/segments/vip/members?limit=101');

    expect(response.status).toBe(400);
    expect(response.body.errors.join(' ')).toMatch(/^limit/);
  });
});
