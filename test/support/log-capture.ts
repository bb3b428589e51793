/**
 * Everything a process writes to stdout and stderr goes to a file as well;
 * the console gets only the lines worth a reader's attention. The shared
 * local stack of a test run captures its output this way
 * (test/support/jest/stack-process.ts: its handlers log with Powertools to
 * stdout, in that process), so the log audit (test/audit/) can read every
 * line of the run while CI output stays short.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

export interface LogCapture {
  file: string;
  /** A line for the file only (e.g. the local stack's own messages). */
  write(line: string): void;
  stop(): void;
}

const CONSOLE_LEVELS = new Set(['WARN', 'ERROR', 'CRITICAL', 'FATAL']);

/** Structured lines below WARN stay in the file; anything else (warnings, errors, plain text) is shown too. */
export function worthShowing(line: string): boolean {
  if (!line.startsWith('{')) return true;
  try {
    const level = (JSON.parse(line) as { level?: unknown }).level;
    return typeof level !== 'string' || CONSOLE_LEVELS.has(level.toUpperCase());
  } catch {
    return true;
  }
}

type Write = typeof process.stdout.write;

export function captureProcessOutput(file: string, show: (line: string) => boolean = worthShowing): LogCapture {
  const fd = openSync(file, 'a', 0o600);
  const restore: (() => void)[] = [];

  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream) as Write;
    let partial = '';
    stream.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      writeSync(fd, text);
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      const shown = lines.filter(show);
      const done = typeof encoding === 'function' ? encoding : callback;
      if (shown.length === 0) {
        if (typeof done === 'function') process.nextTick(done as () => void);
        return true;
      }
      return original(`${shown.join('\n')}\n`, done as () => void);
    }) as Write;
    restore.push(() => {
      if (partial && show(partial)) original(`${partial}\n`);
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
