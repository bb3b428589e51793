/**
 * The local SES v2: aws-ses-v2-local, in process. It answers SendEmail as SES
 * does and keeps what was sent, in memory, for people (its web view at `/`)
 * and tests (`GET /store`). Sent mail does not survive a restart.
 *
 * A small HTTP front passes every request through to it and, after a
 * SendEmail it accepted, publishes what SES would for the mailbox simulator's
 * addresses (ses-simulator.ts): bounces, complaints and deliveries, for the
 * function the configuration set's EventBridge rule targets in AWS. A
 * campaign's mail gets SES's open pixel and tracked links (ses-tracking.ts),
 * served here under /track/.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sesLocalModule from 'aws-ses-v2-local';
import { LocalStackError, type RunningProcess } from './emulators';
import { keepingConnectionsAlive, readBody } from './server';
import { simulatedEvents, type SendEmailRequestBody, type SesEventBridgeEvent } from './ses-simulator';
import { sesTracking } from './ses-tracking';

// CommonJS with `exports.default`: imported from ESM, the function sits one level down.
const startSesServer = (sesLocalModule as unknown as { default?: typeof sesLocalModule }).default ?? sesLocalModule;

/** aws-ses-v2-local's own body bound (express.json's limit), and a little for the envelope. */
const MAX_BODY_BYTES = 26 * 1024 * 1024;
const SEND_EMAIL = '/v2/email/outbound-emails';

export interface RunningSes extends RunningProcess {
  /** Where the SES v2 API, the web view (`/`) and the store (`/store`) are. */
  url: string;
  /** Where the events of sent mail go, once the functions that take them are loaded; until then they are dropped. */
  publishTo(publish: (events: SesEventBridgeEvent[]) => void): void;
}

async function listening(server: Server, port: number, host: string): Promise<void> {
  await new Promise<void>((resolve) => {
    server.once('error', () => resolve());
    server.listen(port, host, () => resolve());
  });
}

async function closed(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** The request's body and SES's answer, when SES accepted a SendEmail: the simulator's input. */
function acceptedSendEmail(body: Buffer, answer: Buffer): { request: SendEmailRequestBody; messageId: string } | undefined {
  try {
    const request = JSON.parse(body.toString('utf8')) as SendEmailRequestBody;
    const messageId = (JSON.parse(answer.toString('utf8')) as { MessageId?: unknown }).MessageId;
    return typeof messageId === 'string' && request && typeof request === 'object' ? { request, messageId } : undefined;
  } catch {
    return undefined;
  }
}

export async function startSesLocal(options: { port: number; host: string; region: string; log: (line: string) => void }): Promise<RunningSes> {
  // The emulator itself on a port of the system's choosing, reached only through the front.
  const inner: Server = await startSesServer({ port: 0, host: options.host });
  // Its listen callback also runs on an error, so check that it really listens.
  if (!inner.listening) throw new LocalStackError(`The local SES server could not listen on ${options.host}.`);
  const innerPort = (inner.address() as AddressInfo).port;
  let publish: ((events: SesEventBridgeEvent[]) => void) | undefined;
  const tracking = sesTracking({
    baseUrl: `http://${options.host}:${options.port}`,
    region: options.region,
    publish: (event) => (publish ? publish([event]) : options.log('the local SES dropped a tracking event before the functions were loaded')),
  });

  const front = createServer(async (req, res) => {
    if (tracking.serve(req, res)) return;
    const received = await readBody(req, MAX_BODY_BYTES, MAX_BODY_BYTES).catch(() => undefined);
    if (received === undefined) {
      res.writeHead(413).end();
      return;
    }
    const sending = req.method === 'POST' && req.url?.split('?')[0] === SEND_EMAIL;
    const prepared = sending ? tracking.prepare(received) : { body: received, accepted: () => undefined };
    const body = prepared.body;
    const headers: IncomingHttpHeaders = { ...req.headers, host: `${options.host}:${innerPort}`, 'content-length': String(body.length) };
    delete headers['transfer-encoding'];
    const upstream = httpRequest({ host: options.host, port: innerPort, method: req.method, path: req.url, headers }, async (answer) => {
      const text = (await readBody(answer, MAX_BODY_BYTES, MAX_BODY_BYTES).catch(() => undefined)) ?? Buffer.alloc(0);
      const answerHeaders = { ...answer.headers, 'content-length': String(text.length) };
      delete answerHeaders['transfer-encoding'];
      res.writeHead(answer.statusCode ?? 502, answerHeaders).end(text);
      if (!sending || answer.statusCode !== 200) return;
      const accepted = acceptedSendEmail(body, text);
      if (!accepted) return;
      prepared.accepted(accepted.messageId, new Date());
      const events = simulatedEvents(accepted.request, accepted.messageId, new Date(), options.region);
      if (publish) publish(events);
      else options.log(`the local SES dropped ${events.length} event(s) of a mail sent before the functions were loaded`);
    });
    upstream.on('error', (error) => {
      options.log(`the local SES front could not reach the emulator: ${error.message}`);
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    upstream.end(body);
  });
  keepingConnectionsAlive(front);
  await listening(front, options.port, options.host);
  if (!front.listening) {
    await closed(inner);
    throw new LocalStackError(`The local SES server could not listen on ${options.host}:${options.port}.`);
  }
  return {
    url: `http://${options.host}:${options.port}`,
    publishTo(next) {
      publish = next;
    },
    async stop() {
      await closed(front);
      await closed(inner);
    },
    diagnostics: () => '',
    exited: () => false,
  };
}
