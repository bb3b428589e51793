/**
 * `npm start`: the whole service on this machine (see lib/local/stack.ts).
 *   --bundled       run each function's bundle as `cdk synth` stages it in cdk.out (lib/local/bundles.ts),
 *                   not its TypeScript source: what deploys is what runs
 *   --verbose       the functions' log lines in the terminal too (they always go to <data dir>/logs/<start time>.log;
 *                   the terminal otherwise gets warnings and errors in short, and one line per request)
 *   PORT            the API, default 3000 (DynamoDB Local, Kinesis and SES use PORT+1, PORT+2, PORT+3)
 *   DYNAMODB_PORT, KINESIS_PORT, SES_PORT   override those three
 *   URM_DATA_DIR    where data is kept, default .urm
 */
import '../lib/local/quiet-sdk-warning';
import { Command } from 'commander';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoConsoleUser } from '../lib/local/demo-app';
import { LocalStackError } from '../lib/local/emulators';
import { startLocalStack } from '../lib/local/stack';
import { captureProcessOutput, quietTerminal, requestLine } from '../lib/local/terminal-log';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const flags = new Command('start')
  .description('The whole urm service on this machine: API, stream consumers, emulators, demo application')
  .option('--bundled', 'run the bundles `cdk synth` stages (cdk.out) instead of the TypeScript sources')
  .option('--verbose', "show the functions' log lines in the terminal too, not only in the log file")
  .parse()
  .opts<{ bundled?: boolean; verbose?: boolean }>();

const dataDir = resolve(root, process.env.URM_DATA_DIR || '.urm');
// One file per run, named by its start (UTC); the handlers' JSON lines stay out of the terminal unless --verbose.
const logFile = join(dataDir, 'logs', `${new Date().toISOString().slice(0, 19).replaceAll(':', '-')}Z.log`);
captureProcessOutput(logFile, flags.verbose ? () => true : quietTerminal);
const shownPath = (file: string) => (relative(process.cwd(), file).startsWith('..') ? file : relative(process.cwd(), file));

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    console.error(`${name} must be a port number (1-65535), not "${raw}".`);
    process.exit(1);
  }
  return value;
}

async function main(): Promise<void> {
  const apiPort = port('PORT', 3000);
  const log = (line: string) => console.error(`[urm local] ${line}`);
  const stack = await startLocalStack({
    root,
    dataDir,
    host: '127.0.0.1',
    port: apiPort,
    dynamoPort: port('DYNAMODB_PORT', apiPort + 1),
    kinesisPort: port('KINESIS_PORT', apiPort + 2),
    sesPort: port('SES_PORT', apiPort + 3),
    region: process.env.AWS_REGION || 'us-east-1',
    log,
    bundled: flags.bundled === true,
    onRequest: (request) => console.log(requestLine(request)),
  });
  const { dev } = stack;
  console.log(
    [
      `urm local stack ready at ${stack.baseUrl}${flags.bundled ? ' (running the synthesized bundles)' : ''}`,
      `${stack.demoCreated ? 'Created the demo application' : 'Demo application'}: ${dev.app_id}`,
      `  server key:  ${dev.server_key}`,
      `  comms key:   ${dev.comms_key}`,
      `  browser key: ${dev.browser_key}`,
      `  email channel: ${dev.channel_id}`,
      `Sent mail: ${dev.mail_url} (web view; GET ${dev.mail_url}/store as JSON)`,
      `Web push demo: ${stack.baseUrl}/ (SDK at ${stack.baseUrl}/js/urm-notification.js, worker at ${stack.baseUrl}/urmSDKWorker.js)`,
      `API reference: ${stack.baseUrl}/docs (OpenAPI document at ${stack.baseUrl}/openapi.json)`,
      `Back office sign-in link: npm run admin -- portal link --app ${dev.app_id} --email ${demoConsoleUser.email}`,
      `(also in ${join(dataDir, 'dev.json')}; Ctrl-C stops)`,
      `Functions' logs: ${shownPath(logFile)}${flags.verbose ? '' : ' (here: warnings, errors, one line per request; --verbose shows all)'}`,
    ].join('\n'),
  );

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    stack.stop().then(
      () => process.exit(0),
      (error) => {
        log(`could not stop cleanly: ${error}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error) => {
  if (error instanceof LocalStackError) console.error(error.message);
  else console.error('The local stack could not start:', error);
  process.exit(1);
});
