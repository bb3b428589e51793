/**
 * The shared local stack of a test run, as its own process (started by
 * stack-setup.js): the stack's handlers log with Powertools to this process's
 * stdout, and all of it, at every level, goes to URM_TEST_LOG for the log
 * audit (test/audit/); the console gets warnings and errors only. When the
 * stack is up, its description goes to URM_TEST_STACK_FILE; SIGTERM stops it,
 * and so does the end of its stdin (the test run that started it is gone).
 */
import { writeFileSync } from 'node:fs';
import { captureProcessOutput } from '../log-capture';
import { startTestStack } from '../local-stack';

const logFile = process.env.URM_TEST_LOG;
const readyFile = process.env.URM_TEST_STACK_FILE;
if (!logFile || !readyFile) throw new Error('stack-process needs URM_TEST_LOG and URM_TEST_STACK_FILE');

const capture = captureProcessOutput(logFile);
const log = (line: string) => (process.env.URM_TEST_VERBOSE ? console.error(`[stack] ${line}`) : capture.write(`[stack] ${line}`));
const stack = await startTestStack({ log });

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await stack.stop();
  capture.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
// The test run holds our stdin open: when it ends, however abruptly (a killed jest), the stack ends with it.
process.stdin.on('close', () => void stop());
process.stdin.resume();

writeFileSync(readyFile, JSON.stringify({ ...stack, stop: undefined }), { mode: 0o600 });
