/**
 * Everything a process writes to stdout and stderr goes to a file as well;
 * the console gets only the lines worth a reader's attention. The shared
 * local stack of a test run captures its output this way
 * (test/support/jest/stack-process.ts: its handlers log with Powertools to
 * stdout, in that process), so the log audit (test/audit/) can read every
 * line of the run while CI output stays short. The capture itself is
 * `npm start`'s (lib/local/terminal-log.ts); what the console shows is the tests' own.
 */
import { captureProcessOutput as capture, type LogCapture } from '../../lib/local/terminal-log';

export type { LogCapture };

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

export function captureProcessOutput(file: string, show: (line: string) => boolean = worthShowing): LogCapture {
  return capture(file, show);
}
