/**
 * What a local stack's process writes, split between a log file and the terminal. The handlers log
 * with Powertools to this process's stdout (one JSON line each); everything written goes to the file,
 * and the terminal gets only what a reader needs: `npm start` shows warnings and errors in one short
 * line each, plain text (its banner, the stack's own messages) and one line per request; the tests'
 * shared stack (test/support/jest/stack-process.ts) its own choice.
 */
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname } from 'node:path';

export interface LogCapture {
  file: string;
  /** A line for the file only (e.g. the local stack's own messages). */
  write(line: string): void;
  stop(): void;
}

/** For each complete line written: false hides it from the terminal, true shows it, a string shows that instead. */
export type TerminalFilter = (line: string) => boolean | string;

type Write = typeof process.stdout.write;

/** Everything written to stdout and stderr goes to `file` (appended) as well; the terminal gets what `terminal` lets through. */
export function captureProcessOutput(file: string, terminal: TerminalFilter): LogCapture {
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, 'a', 0o600);
  const restore: (() => void)[] = [];

  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream) as Write;
    let partial = '';
    const shownOf = (line: string) => {
      const verdict = terminal(line);
      return verdict === true ? line : verdict === false ? undefined : verdict;
    };
    stream.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      writeSync(fd, text);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      const shown = lines.map(shownOf).filter((line) => line !== undefined);
      const done = typeof encoding === 'function' ? encoding : callback;
      if (shown.length === 0) {
        if (typeof done === 'function') process.nextTick(done as () => void);
        return true;
      }
      return original(`${shown.join('\n')}\n`, done as () => void);
    }) as Write;
    restore.push(() => {
      const last = partial ? shownOf(partial) : undefined;
      if (last !== undefined) original(`${last}\n`);
      stream.write = original;
    });
  }

  return {
    file,
    write: (line) => writeSync(fd, line.endsWith('\n') ? line : `${line}\n`),
    stop() {
      for (const undo of restore) undo();
      closeSync(fd);
    },
  };
}

const shownLevels = new Set(['WARN', 'ERROR', 'CRITICAL', 'FATAL']);

interface StructuredLine {
  level?: unknown;
  message?: unknown;
  function_name?: unknown;
  service?: unknown;
  error?: { name?: unknown; message?: unknown };
}

/**
 * `npm start`'s terminal: a structured line (a handler's log, a metric) only at WARN and above, as
 * `LEVEL function: message (error)`; plain text as it is. The file keeps the whole line.
 */
export function quietTerminal(line: string): boolean | string {
  if (!line.startsWith('{')) return true;
  let entry: StructuredLine;
  try {
    entry = JSON.parse(line) as StructuredLine;
  } catch {
    return true;
  }
  const level = typeof entry.level === 'string' ? entry.level.toUpperCase() : undefined;
  if (level === undefined || !shownLevels.has(level)) return false;
  const source = typeof entry.function_name === 'string' ? entry.function_name : typeof entry.service === 'string' ? entry.service : 'function';
  const error =
    typeof entry.error?.message === 'string' ? ` (${typeof entry.error.name === 'string' ? `${entry.error.name}: ` : ''}${entry.error.message})` : '';
  return `${level} ${source}: ${String(entry.message ?? '')}${error}`;
}

/** One request as the local server (lib/local/server.ts) answered it. */
export interface AnsweredRequest {
  method: string;
  /** The path without its query string (which may carry a token). */
  path: string;
  /** Undefined when the client went away before the answer was complete. */
  status: number | undefined;
  ms: number;
}

/** `POST /events 200 14 ms`; an unsubscribe link's token (a player's lasting credential, naming them) is left out. */
export function requestLine(request: AnsweredRequest): string {
  const path = request.path.replace(/^\/unsubscribe\/[^/]+/, '/unsubscribe/…');
  return `${request.method} ${path} ${request.status ?? 'no answer (client gone)'} ${Math.round(request.ms)} ms`;
}

/** Calls `report` for each request `server` answers (or its client abandons), once the response is done. */
export function reportRequests(server: Server, report: (request: AnsweredRequest) => void): void {
  server.on('request', (request, response) => {
    const started = performance.now();
    const path = (request.url ?? '/').split('?')[0];
    response.once('close', () =>
      report({ method: request.method ?? '?', path, status: response.writableFinished ? response.statusCode : undefined, ms: performance.now() - started }),
    );
  });
}
