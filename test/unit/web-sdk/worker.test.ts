import { describe, expect, test, jest } from '@jest/globals';
import { lifecycleEvent } from '../../../web-sdk/src/shared/records';
import { workerConfig } from '../../../web-sdk/src/worker/config';
import { clickTarget, notificationOptions, parsePayload, windowFor } from '../../../web-sdk/src/worker/notifications';
import { enqueue, flush, MAX_QUEUED_REPORTS, sendReports, type QueuedReport, type ReportQueue } from '../../../web-sdk/src/worker/reports';
import { receiptApi } from './receipts';

const payload = { notification_id: 'n-1', profile_id: 'player-42', title: 'Bonus', body: 'Spin now', url: 'https://casino.example/spin' };
const config = { apiUrl: 'https://api.example.com/v1', appId: 'app_1', apiKey: 'urm_browser_key' };

describe('the worker configuration', () => {
  test('comes from the query string the page registered it with', () => {
    expect(workerConfig('?apiUrl=https%3A%2F%2Fapi.example.com%2Fv1&appId=app_1&apiKey=urm_browser_key')).toEqual(config);
  });

  test('is missing when a part is missing or the address is not http(s)', () => {
    expect(workerConfig('?appId=app_1&apiKey=k')).toBe(undefined);
    expect(workerConfig('?apiUrl=javascript%3Ax&appId=app_1&apiKey=k')).toBe(undefined);
  });
});

describe('a push message', () => {
  test('of send_push becomes a notification that carries its payload, tagged with its id', () => {
    const parsed = parsePayload(JSON.stringify({ ...payload, icon: 'https://casino.example/i.png' }));

    expect(notificationOptions(parsed!)).toEqual({
      body: 'Spin now',
      icon: 'https://casino.example/i.png',
      tag: 'n-1',
      data: { ...payload, icon: 'https://casino.example/i.png' },
    });
  });

  test('that is not one of ours is ignored', () => {
    for (const text of [undefined, '', 'hello', '{"title":"x"}', 'null', '{"notification_id":1,"profile_id":"p","title":"t"}']) {
      expect(parsePayload(text)).toBe(undefined);
    }
  });
});

describe('a click', () => {
  test("leads to the notification's url, or to the site root", () => {
    expect(clickTarget(payload, 'https://site.example/')).toBe('https://casino.example/spin');
    expect(clickTarget({ ...payload, url: undefined }, 'https://site.example/')).toBe('https://site.example/');
    expect(clickTarget({ ...payload, url: '/promotions' }, 'https://site.example/')).toBe('https://site.example/promotions');
  });

  test('focuses a window already at the target, else none is chosen and one is opened', () => {
    const windows = [{ url: 'https://site.example/' }, { url: 'https://casino.example/spin' }];

    expect(windowFor(windows, 'https://casino.example/spin')).toBe(windows[1]);
    expect(windowFor(windows, 'https://casino.example/other')).toBe(undefined);
  });
});

describe('a lifecycle report', () => {
  test('names the event, the notification and its url, with the insert id notification id + kind', () => {
    expect(lifecycleEvent('clicked', 'app_1', payload, new Date('2026-11-21T10:00:00Z'))).toEqual({
      app_id: 'app_1',
      profile_id: 'player-42',
      event: 'urm_push_clicked',
      urm_date_time: '2026-11-21T10:00:00.000Z',
      urm_insert_id: 'n-1:clicked',
      notification_id: 'n-1',
      url: 'https://casino.example/spin',
    });
    expect(lifecycleEvent('received', 'app_1', payload, new Date()).urm_insert_id).toBe('n-1:received');
    expect(lifecycleEvent('dismissed', 'app_1', payload, new Date()).event).toBe('urm_push_dismissed');
  });
});

function memoryQueue(): ReportQueue & { items: Map<string, QueuedReport> } {
  const items = new Map<string, QueuedReport>();
  return {
    items,
    put: async (reports) => {
      for (const report of reports) items.set(report.id, report);
    },
    all: async () => [...items.values()],
    remove: async (ids) => {
      for (const id of ids) items.delete(id);
    },
  };
}

const report = (kind: 'received' | 'clicked' | 'dismissed', id = 'n-1') => lifecycleEvent(kind, 'app_1', { ...payload, notification_id: id }, new Date());

describe('the report queue', () => {
  test('sends everything queued in one request and empties itself when the service takes it', async () => {
    const queue = memoryQueue();
    const sent: unknown[][] = [];
    await enqueue(queue, [report('received'), report('clicked')], 1);

    await flush(queue, async (records) => {
      sent.push(records);
      return [];
    });

    expect(sent.length).toBe(1);
    expect(sent[0].length).toBe(2);
    expect(queue.items.size).toBe(0);
  });

  test('keeps what failed, and sends it with the next report', async () => {
    const queue = memoryQueue();
    await enqueue(queue, [report('received')], 1);
    await flush(queue, async (records) => records);
    expect(queue.items.size).toBe(1);

    await enqueue(queue, [report('clicked')], 2);
    const sent: string[] = [];
    await flush(queue, async (records) => {
      sent.push(...records.map((r) => String(r.urm_insert_id)));
      return [];
    });

    expect(sent.sort()).toEqual(['n-1:clicked', 'n-1:received']);
    expect(queue.items.size).toBe(0);
  });

  test('keeps one copy of a report queued twice', async () => {
    const queue = memoryQueue();

    await enqueue(queue, [report('received')], 1);
    await enqueue(queue, [report('received')], 2);

    expect(queue.items.size).toBe(1);
  });

  test('drops what the service refuses for good, saying so on the console', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const queue = memoryQueue();
    await enqueue(queue, [report('received')], 1);

    await flush(queue, async () => 'refused');

    expect(queue.items.size).toBe(0);
    expect(String(errors.mock.calls[0][0])).toMatch(/refused 1 notification report/);
  });

  test('holds at most MAX_QUEUED_REPORTS, dropping the oldest with a warning', async () => {
    const warnings = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const queue = memoryQueue();
    for (let i = 0; i < MAX_QUEUED_REPORTS; i++) await enqueue(queue, [report('received', `n-${i}`)], i);

    await enqueue(queue, [report('received', 'newest')], MAX_QUEUED_REPORTS);

    expect(queue.items.size).toBe(MAX_QUEUED_REPORTS);
    expect(queue.items.has('n-0:received')).toBe(false);
    expect(queue.items.has('newest:received')).toBe(true);
    expect(String(warnings.mock.calls[0][0])).toMatch(/1 unsent notification report/);
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

    expect(await sendReports(config, [report('received')], fetchImpl)).toEqual([]);
    expect(request?.url).toBe('https://api.example.com/v1/events?app_id=app_1');
    expect((request!.init.headers as Record<string, string>)['x-api-key']).toBe('urm_browser_key');
  });

  test('keeps all to send again after a network failure, a 5xx, 429, 408 or 403; gives up on another 4xx', async () => {
    const unreachable = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const records = [report('received')];

    expect(await sendReports(config, records, unreachable)).toEqual(records);
    for (const status of [500, 503, 429, 408, 403]) expect(await sendReports(config, records, answering(status))).toEqual(records);
    for (const status of [400, 413]) expect(await sendReports(config, records, answering(status))).toBe('refused');
  });
});

describe('a write receipt with failed entries', () => {
  const three = () => [report('received'), report('clicked'), report('dismissed')];

  test('has only the failed entry sent again, with its insert id, and the queue empties once it is stored', async () => {
    const api = receiptApi((id, post) => id === 'n-1:clicked' && post === 0);
    const queue = memoryQueue();
    await enqueue(queue, three(), 1);

    await flush(queue, (records) => sendReports(config, records, api.fetch, api.wait));

    expect(api.posts).toEqual([['n-1:received', 'n-1:clicked', 'n-1:dismissed'], ['n-1:clicked']]);
    expect(queue.items.size).toBe(0);
  });

  test('keeps an entry that still fails queued, after a bounded number of re-sends with backoff, and never sends the others again', async () => {
    const api = receiptApi((id) => id === 'n-1:clicked');
    const queue = memoryQueue();
    await enqueue(queue, three(), 1);

    await flush(queue, (records) => sendReports(config, records, api.fetch, api.wait));

    expect(api.posts.length).toBeGreaterThan(1);
    expect(api.posts.length).toBeLessThanOrEqual(4);
    expect(api.posts.slice(1)).toEqual(api.posts.slice(1).map(() => ['n-1:clicked']));
    expect(api.waits.length).toBe(api.posts.length - 1);
    expect([...queue.items.keys()]).toEqual(['n-1:clicked']);

    const later = receiptApi(() => false);
    await flush(queue, (records) => sendReports(config, records, later.fetch, later.wait));
    expect(later.posts).toEqual([['n-1:clicked']]);
  });

  test('with FailedRecordCount 0 sends nothing again', async () => {
    const api = receiptApi(() => false);
    const queue = memoryQueue();
    await enqueue(queue, three(), 1);

    await flush(queue, (records) => sendReports(config, records, api.fetch, api.wait));

    expect(api.posts.length).toBe(1);
    expect(api.waits).toEqual([]);
    expect(queue.items.size).toBe(0);
  });
});
