/**
 * A push service on this machine: web-push-testing, run in this process. It
 * mints subscriptions for an application server key, receives and decrypts
 * what send_push sends, and can expire a subscription so the next send gets 410.
 */
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import { freePort } from './ports';

const require = createRequire(import.meta.url);

export interface MintedSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  clientHash: string;
}

export interface PushService {
  url: string;
  subscribe(applicationServerKey: string): Promise<MintedSubscription>;
  expire(subscription: MintedSubscription): Promise<void>;
  /** The decrypted messages the subscription received, oldest first. */
  messages(subscription: MintedSubscription): Promise<string[]>;
  stop(): Promise<void>;
}

async function call(url: string, body: unknown): Promise<any> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text}`);
  return response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text;
}

/** The subscription as a browser gives it (toJSON), the token the SDK stores. */
export function tokenOf(subscription: MintedSubscription): string {
  return JSON.stringify({ endpoint: subscription.endpoint, keys: subscription.keys });
}

export async function startPushService(): Promise<PushService> {
  const { PushApiModel } = require('web-push-testing/src/PushApiModel.js') as { PushApiModel: new () => unknown };
  const WebPushTestingServer = require('web-push-testing/src/server.js') as new (model: unknown, port: number) => { startServer(): void; _server: Server };
  const port = await freePort();
  const log = console.log;
  console.log = () => undefined; // it announces its port on stdout, which the test reporter would print
  const server = new WebPushTestingServer(new PushApiModel(), port);
  // It listens on every interface; the local stack's servers listen on loopback only (test/integration/local-binding.test.ts).
  const app = (server as unknown as { _app: { listen(port: number, callback: () => void): Server } })._app;
  const listen = (app as unknown as { listen(port: number, host: string, callback: () => void): Server }).listen.bind(app);
  app.listen = (portToUse, callback) => listen(portToUse, '127.0.0.1', callback);
  server.startServer();
  await new Promise<void>((resolve) => (server._server.listening ? resolve() : server._server.once('listening', () => resolve())));
  console.log = log;
  const url = `http://localhost:${port}`;
  return {
    url,
    subscribe: async (applicationServerKey) => (await call(`${url}/subscribe`, { applicationServerKey, userVisibleOnly: 'true' })).data,
    expire: async (subscription) => void (await call(`${url}/expire-subscription/${subscription.clientHash}`, {})),
    messages: async (subscription) => (await call(`${url}/get-notifications`, { clientHash: subscription.clientHash })).data.messages,
    stop: () =>
      new Promise<void>((resolve) => {
        server._server.closeAllConnections();
        server._server.close(() => resolve());
      }),
  };
}
