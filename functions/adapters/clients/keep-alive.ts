/**
 * The request handler every AWS SDK client of the service shares: keep-alive
 * connections, so a warm container does not open a connection per call.
 */
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';

export const keepAlive = () =>
  new NodeHttpHandler({
    httpAgent: new HttpAgent({ keepAlive: true }),
    httpsAgent: new HttpsAgent({ keepAlive: true }),
  });
