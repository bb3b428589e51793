/** `npm start`'s terminal: the handlers' log lines go to the file, the terminal gets warnings and errors in short and one line per request. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@jest/globals';
import { type AnsweredRequest, captureProcessOutput, quietTerminal, reportRequests, requestLine } from '../../../lib/local/terminal-log';

const powertoolsLine = (level: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ level, message: 'Events recorded', timestamp: '2026-11-21T10:00:00.000Z', service: 'urm', function_name: 'RecordEventsFunction', ...extra });

test('the terminal gets no INFO or DEBUG line of a handler, nor a metric', () => {
  const lines = [powertoolsLine('DEBUG'), powertoolsLine('INFO'), JSON.stringify({ _aws: { Timestamp: 0, CloudWatchMetrics: [] }, requests: 1 })];

  expect(lines.map(quietTerminal)).toEqual([false, false, false]);
});

test('a warning or an error shows as one short line naming the function, the message and the error', () => {
  const warning = quietTerminal(powertoolsLine('WARN'));
  const error = quietTerminal(
    powertoolsLine('ERROR', { error: { name: 'ConditionalCheckFailedException', message: 'The conditional request failed', stack: 'at …' } }),
  );

  expect(warning).toBe('WARN RecordEventsFunction: Events recorded');
  expect(error).toBe('ERROR RecordEventsFunction: Events recorded (ConditionalCheckFailedException: The conditional request failed)');
});

test('plain text, such as the banner, shows as it is', () => {
  expect(quietTerminal('urm local stack ready at http://127.0.0.1:3000')).toBe(true);
  expect(quietTerminal('{not json')).toBe(true);
});

test('a request line says method, path, status and milliseconds', () => {
  expect(requestLine({ method: 'POST', path: '/events', status: 200, ms: 14.4 })).toBe('POST /events 200 14 ms');
  expect(requestLine({ method: 'GET', path: '/profiles/p1', status: undefined, ms: 3 })).toBe('GET /profiles/p1 no answer (client gone) 3 ms');
});

test("a request line leaves out an unsubscribe link's token, which names the player", () => {
  expect(requestLine({ method: 'POST', path: '/unsubscribe/eyJ2IjoxfQ.mac/preferences', status: 200, ms: 5 })).toBe('POST /unsubscribe/…/preferences 200 5 ms');
  expect(requestLine({ method: 'GET', path: '/unsubscribe/eyJ2IjoxfQ.mac', status: 404, ms: 2 })).toBe('GET /unsubscribe/… 404 2 ms');
});

test('the file gets every line as written while the terminal gets the short form', () => {
  const dir = mkdtempSync(join(tmpdir(), 'urm-terminal-'));
  const file = join(dir, 'logs', 'run.log');
  const offered: (boolean | string)[] = [];
  // Nothing reaches the real terminal: the test runner's own output is never taken.
  const capture = captureProcessOutput(file, (line) => {
    offered.push(quietTerminal(line));
    return false;
  });
  try {
    process.stdout.write(`${powertoolsLine('INFO')}\n${powertoolsLine('WARN')}\n`);
  } finally {
    capture.stop();
  }

  const written = readFileSync(file, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  expect(written).toBe(`${powertoolsLine('INFO')}\n${powertoolsLine('WARN')}\n`);
  expect(offered).toEqual([false, 'WARN RecordEventsFunction: Events recorded']);
});

test('each answered request is reported once, with its path but not its query string', async () => {
  const reported: AnsweredRequest[] = [];
  const server = createServer((_request, response) => {
    response.statusCode = 404;
    response.end();
  });
  reportRequests(server, (request) => reported.push(request));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await (await fetch(`http://127.0.0.1:${port}/redirect?token=secret`)).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  expect(reported).toEqual([{ method: 'GET', path: '/redirect', status: 404, ms: expect.any(Number) }]);
});
