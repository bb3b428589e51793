/**
 * Links in the affiliate portal's mail come from the application's portal
 * origin, never from the request's `Host` or `X-Forwarded-Proto` (issue 25,
 * item 4), over HTTP on the local stack. Node's http client sends the forged
 * headers that fetch would not.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import { commandLineActor } from '../../functions/domain/audit';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { testStack, type TestStack } from '../support/local-stack';
import { sentMail } from '../support/mail';
import { PortalVisitor, registeredAffiliate } from '../support/portal';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

const forged = { host: 'evil.example', 'x-forwarded-proto': 'https' };

function send(
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; cookies: string[]; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(new URL(path, stack.baseUrl), { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, cookies: response.headers['set-cookie'] ?? [], text: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** Asks the application's portal for a reset link for `email`, every request with the forged headers. */
async function askForReset(appId: string, email: string) {
  const signInPage = await send('GET', `/affiliates/${appId}/login`, forged);
  const cookie = signInPage.cookies.map((line) => line.split(';')[0]).join('; ');
  const form = new URLSearchParams({ csrf: PortalVisitor.csrfOf(signInPage.text), email }).toString();
  return send('POST', `/affiliates/${appId}/forgot`, { ...forged, cookie, 'content-type': 'application/x-www-form-urlencoded' }, form);
}

const mailTo = async (email: string) => (await sentMail(stack)).filter((mail) => mail.destination.to.some((to) => to.includes(email)));

describe('a password reset asked for with a forged Host', () => {
  test("mails a link on the application's portal origin", async () => {
    const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);

    const asked = await askForReset(stack.dev.app_id, affiliate.email);
    const [mail] = await mailTo(affiliate.email);

    expect(asked.status).toBe(200);
    expect(mail?.body.text).toContain(`${stack.baseUrl}/affiliates/${stack.dev.app_id}/reset?token=`);
    expect(JSON.stringify(mail)).not.toContain('evil.example');
  });

  test('for an application without a portal origin is refused 409 with a page that says why, and mails nothing', async () => {
    const office = localBackOffice(localClients(stack.endpoints).document);
    const app = await createApp(office, { name: `no portal origin ${randomUUID()}` });
    const key = (await issueKey(office, app.app_id, commandLineActor, 'server')).key;
    const affiliate = await registeredAffiliate(stack, app.app_id, key);

    const asked = await askForReset(app.app_id, affiliate.email);

    expect(asked.status).toBe(409);
    expect(asked.text).toContain('no portal address');
    expect(asked.text).not.toContain('evil.example');
    expect(await mailTo(affiliate.email)).toEqual([]);
  });
});
