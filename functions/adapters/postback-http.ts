/**
 * The one way urm calls an affiliate's postback URL (a GET) or a webhook
 * template's (a POST, functions/messaging/webhook.ts): never private space. The host is resolved here, every address it resolves to must
 * be public (unless the operator allowed the host for development), and the
 * connection goes to the address that was checked (the socket's lookup is
 * pinned), so a DNS answer that changes between check and connect (rebinding)
 * changes nothing. No redirect is followed, the whole attempt has a deadline,
 * and no more than a few KiB of the answer are read.
 */
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { hostOf, isPublicAddress, postbackLimits, postbackUrlProblems, type PostbackResponse, type PostbackTransport } from '../domain/postbacks';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

export interface PostbackHttpOptions {
  /** The operator's development hosts (postbackSending in resources.ts). */
  allowedHosts: readonly string[];
  resolve?: Resolver;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

export class PostbackHttp implements PostbackTransport {
  private readonly resolve: Resolver;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;

  constructor(private readonly options: PostbackHttpOptions) {
    this.resolve = options.resolve ?? systemResolver;
    this.timeoutMs = options.timeoutMs ?? postbackLimits.timeoutMs;
    this.maxResponseBytes = options.maxResponseBytes ?? postbackLimits.responseBytes;
  }

  get(target: string, headers: Record<string, string>): Promise<PostbackResponse> {
    return this.call('GET', target, headers);
  }

  /** The same rules, with a body (a webhook's JSON). */
  post(target: string, headers: Record<string, string>, body: string): Promise<PostbackResponse> {
    return this.call('POST', target, headers, body);
  }

  private async call(method: 'GET' | 'POST', target: string, headers: Record<string, string>, body?: string): Promise<PostbackResponse> {
    // Checked again at send time: the rules may be stricter than when the URL was set.
    const problems = postbackUrlProblems(target, this.options.allowedHosts);
    if (problems.length > 0) return { error: `refused: ${problems.join('; ')}`, unsent: true };
    const url = new URL(target);
    const host = hostOf(url);
    let addresses: ResolvedAddress[];
    try {
      addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await this.resolve(host);
    } catch (error) {
      return { error: `cannot resolve ${host}: ${(error as Error).message}`, unsent: true };
    }
    if (addresses.length === 0) return { error: `cannot resolve ${host}`, unsent: true };
    if (!this.options.allowedHosts.includes(host)) {
      const refused = addresses.find((candidate) => !isPublicAddress(candidate.address));
      if (refused) return { error: `refused: ${host} resolves to ${refused.address}, which is not a public address`, unsent: true };
    }
    return this.send(method, url, host, addresses[0], headers, body);
  }

  private send(
    method: 'GET' | 'POST',
    url: URL,
    host: string,
    pinned: ResolvedAddress,
    headers: Record<string, string>,
    body?: string,
  ): Promise<PostbackResponse> {
    // The socket connects to the checked address whatever it asks for.
    const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) callback(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<PostbackResponse>((resolve) => {
      let settled = false;
      const finish = (outcome: PostbackResponse) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        request.destroy();
        resolve(outcome);
      };
      const request = client.request(url, {
        method,
        headers: {
          'user-agent': method === 'GET' ? 'urm-postback/1' : 'urm-webhook/1',
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
          ...headers,
        },
        lookup: pinnedLookup,
        agent: false,
        ...(url.protocol === 'https:' && isIP(host) === 0 ? { servername: host } : {}),
      });
      // Until the connection (and TLS) is up, not a byte of the request has left: a failure then surely sent nothing.
      let connected = false;
      request.on('socket', (socket) => socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => (connected = true)));
      const failed = (error: string): PostbackResponse => (connected ? { error } : { error, unsent: true });
      const deadline = setTimeout(() => finish(failed(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      request.on('error', (error) => finish(failed(error.message)));
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= this.maxResponseBytes) finish({ status });
        });
        response.on('end', () => finish({ status }));
        response.on('error', () => finish({ status }));
      });
      request.end(body);
    });
  }
}
