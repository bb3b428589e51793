/**
 * The portal's Postbacks page over HTTP on the local stack: an affiliate signs
 * in as a browser does, sets a postback URL (a receiver on 127.0.0.1, the local
 * stack's development host), sees it and its signing secret once, and then
 * sees the delivery of a registration in the log.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { setAffiliate } from '../support/funnel';
import { testStack, type TestStack } from '../support/local-stack';
import { PortalVisitor, registeredAffiliate } from '../support/portal';
import { until } from '../support/profiles';

let stack: TestStack;
let server: Server;
let port: number;
const calls: string[] = [];

beforeAll(async () => {
  stack = await testStack();
  server = createServer((req, res) => {
    calls.push(req.url ?? '');
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the Postbacks page over HTTP', () => {
  test('an affiliate sets a URL, sees it with the secret once, and then the delivery of a registration in the log', async () => {
    const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);
    const person = new PortalVisitor(stack.baseUrl, stack.dev.app_id);
    expect((await person.signIn(affiliate.username, affiliate.password)).status).toBe(303);
    const before = await person.get('postbacks');
    const template = `http://127.0.0.1:${port}/pb?e={event}&id={event_id}&s={sub_id}`;

    const saved = await person.post('postbacks', { csrf: PortalVisitor.csrfOf(before.text), action: 'set', postback_url: template });
    const after = await person.get('postbacks');

    expect(before.status).toBe(200);
    expect(before.text).toContain('Postbacks are off');
    expect(saved.status).toBe(200);
    const secret = /urm_postback_[A-Za-z0-9_-]{43}/.exec(saved.text)?.[0];
    expect(secret).toBeDefined();
    expect(after.status).toBe(200);
    expect(after.text).toContain(template.replaceAll('&', '&amp;'));
    expect(after.text).not.toContain(secret!);

    await setAffiliate(stack, { profile_id: `player-${randomUUID()}`, urm_aff_id: affiliate.affiliate_id, urm_aff: 'portal-test' });
    const logged = await until(
      async () => (await person.get('postbacks')).text,
      (html) => html.includes('id="deliveries"'),
      'a postback in the log',
      30_000,
    );

    expect(logged).toMatch(
      /<th scope="row">Registration<\/th><td class="left wrap"><code>[^<]+<\/code><\/td><td class="left outcome-delivered">Delivered<\/td><td>1<\/td><td class="left wrap">204<\/td>/,
    );
    expect(calls.some((url) => url.startsWith('/pb?e=registration&') && url.endsWith('&s=portal-test'))).toBe(true);
  });

  test('a URL on a private address is refused next to the field, and a form without its CSRF token is refused 403', async () => {
    const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);
    const person = new PortalVisitor(stack.baseUrl, stack.dev.app_id);
    await person.signIn(affiliate.username, affiliate.password);
    const page = await person.get('postbacks');

    const refused = await person.post('postbacks', { csrf: PortalVisitor.csrfOf(page.text), action: 'set', postback_url: 'https://10.0.0.1/pb' });
    const forged = await person.post('postbacks', { action: 'set', postback_url: 'https://tracker.example.com/pb' });

    expect(refused.status).toBe(400);
    expect(refused.text).toContain('The URL must not point at a private or reserved address (10.0.0.1).');
    expect(forged.status).toBe(403);
    expect((await person.get('postbacks')).text).toContain('Postbacks are off');
  });
});
