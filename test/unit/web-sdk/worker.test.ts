import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lifecycleEvent } from '../../../web-sdk/src/shared/records';
import { workerConfig } from '../../../web-sdk/src/worker/config';
import { clickTarget, notificationOptions, parsePayload, windowFor } from '../../../web-sdk/src/worker/notifications';
import { enqueue, flush, MAX_QUEUED_REPORTS, sendReports, type QueuedReport, type ReportQueue } from '../../../web-sdk/src/worker/reports';

const payload = { notification_id: 'n-1', profile_id: 'player-42', title: 'Bonus', body: 'Spin now', url: 'https://casino.example/spin' };
const config = { apiUrl: 'https://api.example.com/v1', appId: 'app_1', apiKey: 'urm_browser_key' };

describe('the worker configuration', () => {
  test('comes from the query string the page registered it with', () => {
    assert.deepEqual(workerConfig('?apiUrl=https%3A%2F%2Fapi.example.com%2Fv1&appId=app_1&apiKey=urm_browser_key'), config);
  });

  test('is missing when a part is missing or the address is not http(s)', () => {
    assert.equal(workerConfig('?appId=app_1&apiKey=k'), undefined);
    assert.equal(workerConfig('?apiUrl=javascript%3Ax&appId=app_1&apiKey=k'), undefined);
  });
});

describe('a push message', () => {
  test('of send_push becomes a notification that carries its payload, tagged with its id', () => {
    const parsed = parsePayload(JSON.stringify({ ...payload, icon: 'https://casino.example/i.png' }));

    assert.deepEqual(notificationOptions(parsed!), {
      body: 'Spin now',
      icon: 'https://casino.example/i.png',
      tag: 'n-1',
      data: { ...payload, icon: 'https://casino.example/i.png' },
    });
  });

  test('that is not one of ours is ignored', () => {
    for (const text of [undefined, '', 'hello', '{"title":"x"}', 'null', '{"notification_id":1,"profile_id":"p","title":"t"}']) {
      assert.equal(parsePayload(text), undefined, String(text));
    }
  });
});

describe('a click', () => {
  test("leads to the notification's url, or to the site root", () => {
    assert.equal(clickTarget(payload, 'https://site.example/'), 'https://casino.example/spin');
    assert.equal(clickTarget({ ...payload, url: undefined }, 'https://site.example/'), 'https://site.example/');
    assert.equal(clickTarget({ ...payload, url: '/promotions' }, 'https://site.example/'), 'https://site.example/promotions');
  });

  test('focuses a window already at the target, else none is chosen and one is opened', () => {
    const windows = [{ url: 'https://site.example/' }, { url: 'https://casino.example/spin' }];

    assert.equal(windowFor(windows, 'https://casino.example/spin'), windows[1]);
    assert.equal(windowFor(windows, 'https://casino.example/other'), undefined);
  });
});

describe('a lifecycle report', () => {
  test('names the event, the notification and its url, with the insert id notification id + kind', () => {
    assert.deepEqual(lifecycleEvent('clicked', 'app_1', payload, new Date('2026-11-21T10:00:00Z')), {
      app_id: 'app_1',
      profile_id: 'player-42',
      event: 'urm_push_clicked',
      urm_date_time: '2026-11-21T10:00:00.000Z',
      urm_insert_id: 'n-1:clicked',
      notification_id: 'n-1',
      url: 'https://casino.example/spin',
    });
    assert.equal(lifecycleEvent('received', 'app_1', payload, new Date()).urm_insert_id, 'n-1:received');
    assert.equal(lifecycleEvent('dismissed', 'app_1', payload, new Date()).event, 'urm_push_dismissed');
  });
});

function memoryQueue(): ReportQueue & { items: Map<string, QueuedReport> } {
  const items = new Map<string, QueuedReport>();
  return {
    items,
    put: async (reports) => reports.forEach((report) => items.set(report.id, report)),
    all: async () => [...items.values()],
    remove: async (ids) => ids.forEach((id) => items.delete(id)),
  };
}

const report = (kind: 'received' | 'clicked' | 'dismissed', id = 'n-1') => lifecycleEvent(kind, 'app_1', { ...payload, notification_id: id }, new Date());

describe('the report queue', () => {
  test('sends everything queued in one request and empties itself when the service takes it', async () => {
    const queue = memoryQueue();
    const sent: unknown[][] = [];
    await enqueue(queue, [report('received'), report('clicked')], 1);

    const outcome = await flush(queue, async (records) => (sent.push(records), 'sent'));

    assert.equal(outcome, 'sent');
    assert.equal(sent[0].length, 2);
    assert.equal(queue.items.size, 0);
  });

  test('keeps what failed, and sends it with the next report', async () => {
    const queue = memoryQueue();
    await enqueue(queue, [report('received')], 1);
    assert.equal(await flush(queue, async () => 'retry'), 'retry');
    assert.equal(queue.items.size, 1);

    await enqueue(queue, [report('clicked')], 2);
    const sent: string[] = [];
    await flush(queue, async (records) => (sent.push(...records.map((r) => String(r.urm_insert_id))), 'sent'));

    assert.deepEqual(sent.sort(), ['n-1:clicked', 'n-1:received']);
    assert.equal(queue.items.size, 0);
  });

  test('keeps one copy of a report queued twice', async () => {
    const queue = memoryQueue();

    await enqueue(queue, [report('received')], 1);
    await enqueue(queue, [report('received')], 2);

    assert.equal(queue.items.size, 1);
  });

  test('drops what the service refuses for good, saying so on the console', async (t) => {
    const errors = t.mock.method(console, 'error', () => undefined);
    const queue = memoryQueue();
    await enqueue(queue, [report('received')], 1);

    await flush(queue, async () => 'refused');

    assert.equal(queue.items.size, 0);
    assert.match(String(errors.mock.calls[0].arguments[0]), /refused 1 notification report/);
  });

  test('holds at most MAX_QUEUED_REPORTS, dropping the oldest with a warning', async (t) => {
    const warnings = t.mock.method(console, 'warn', () => undefined);
    const queue = memoryQueue();
    for (let i = 0; i < MAX_QUEUED_REPORTS; i++) await enqueue(queue, [report('received', `n-${i}`)], i);

    await enqueue(queue, [report('received', 'newest')], MAX_QUEUED_REPORTS);

    assert.equal(queue.items.size, MAX_QUEUED_REPORTS);
    assert.equal(queue.items.has('n-0:received'), false);
    assert.equal(queue.items.has('newest:received'), true);
    assert.match(String(warnings.mock.calls[0].arguments[0]), /1 unsent notification report/);
  });
});

describe('sending reports', () => {
  const answering = (status: number) => (async () => new Response('{}', { status })) as unknown as typeof fetch;

  test('posts them to /events with the browser key', async () => {
    let request: { url: string; init: RequestInit } | undefined;
    const fetchImpl = (async (url: string, init: RequestInit) => {
      request = { url, init };
      return Response.json({ FailedRecordCount: 0 });
    }) as unknown as typeof fetch;

    assert.equal(await sendReports(config, [report('received')], fetchImpl), 'sent');
    assert.equal(request?.url, 'https://api.example.com/v1/events?app_id=app_1');
    assert.equal((request?.init.headers as Record<string, string>)['x-api-key'], 'urm_browser_key');
  });

  test('retries after a network failure, a 5xx, 429, 408 or 403; gives up on another 4xx', async () => {
    const unreachable = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;

    assert.equal(await sendReports(config, [report('received')], unreachable), 'retry');
    for (const status of [500, 503, 429, 408, 403]) assert.equal(await sendReports(config, [], answering(status)), 'retry', String(status));
    for (const status of [400, 413]) assert.equal(await sendReports(config, [], answering(status)), 'refused', String(status));
  });
});
