/**
 * The local stack stays local (README, "The local stack"): every server it
 * starts, and the push service the tests run, listens on loopback only. Read
 * from the kernel's table of listening sockets (/proc/net/tcp, tcp6), and
 * tried: a connection to this machine's own non-loopback addresses on each
 * port must be refused.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startPushService, type PushService } from '../support/push-service';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
let push: PushService;
beforeAll(async () => {
  stack = await testStack();
  push = await startPushService();
});
afterAll(() => push.stop());

const portOf = (url: string) => Number(new URL(url).port);

function servers(): Record<string, number> {
  return {
    'the API server': portOf(stack.baseUrl),
    'DynamoDB Local': portOf(stack.endpoints.dynamodb_endpoint),
    kinesalite: portOf(stack.endpoints.kinesis_endpoint),
    'the local SES': portOf(stack.dev.mail_url!),
    'the push service (web-push-testing)': portOf(push.url),
  };
}

/** `0100007F:1F90` (little-endian IPv4) or 32 hex digits of IPv6, as /proc/net/tcp* write a local address. */
function addressOf(hex: string): string {
  if (hex.length === 8)
    return hex
      .match(/../g)!
      .reverse()
      .map((byte) => parseInt(byte, 16))
      .join('.');
  const words = hex.match(/.{8}/g)!.map((word) => word.match(/../g)!.reverse().join(''));
  return words
    .join('')
    .match(/.{4}/g)!
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':');
}

function isLoopback(address: string): boolean {
  return address.startsWith('127.') || address === '0:0:0:0:0:0:0:1' || /^0:0:0:0:0:ffff:7f/i.test(address);
}

/** The local addresses listening (TCP state 0A) on `port`, from both tables. */
function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== '0A' || local === undefined) continue;
      const [address, portHex] = local.split(':');
      if (parseInt(portHex, 16) === port) found.push(addressOf(address));
    }
  }
  return found;
}

/** This machine's own addresses other than loopback (the only non-loopback addresses this test sends anything to). */
function ownAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry !== undefined && !entry.internal && !entry.address.startsWith('fe80:'))
    .map((entry) => entry!.address);
}

/** Whether a TCP connection to `host:port` is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

describe('every local server listens on loopback only', () => {
  test.each(['the API server', 'DynamoDB Local', 'kinesalite', 'the local SES', 'the push service (web-push-testing)'])('%s, in the socket table', (name) => {
    const addresses = listeningAddresses(servers()[name]);

    expect(addresses.length > 0).toBe(true);
    expect(addresses.filter((address) => !isLoopback(address))).toEqual([]);
  });

  test("none answers on this machine's own non-loopback addresses", async () => {
    const reachable: string[] = [];
    for (const [name, port] of Object.entries(servers())) {
      for (const address of ownAddresses()) {
        if (await accepts(address, port)) reachable.push(`${name} on ${address}:${port}`);
      }
    }

    expect(reachable).toEqual([]);
  });
});
