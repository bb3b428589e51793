/**
 * A person at the affiliate portal, over plain HTTP: a cookie jar (per path,
 * as a browser scopes them), forms posted as a browser posts them, redirects
 * not followed so a test sees each answer.
 */
import { randomUUID } from 'node:crypto';
import { expect } from '@jest/globals';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tables } from '../../functions/manifest/resources';
import { localClients } from '../../lib/local/stack';
import { request } from './http';
import type { TestStack } from './local-stack';

interface Cookie {
  value: string;
  path: string;
}

export class PortalVisitor {
  readonly cookies = new Map<string, Cookie>();

  constructor(
    readonly baseUrl: string,
    readonly appId: string,
  ) {}

  /** `login`, `./`, `links`: relative to the application's portal, as the pages link. */
  url(relative: string): string {
    return new URL(relative, `${this.baseUrl}/affiliates/${this.appId}/`).href;
  }

  private cookieHeader(url: string): string {
    const path = new URL(url).pathname;
    return [...this.cookies.entries()]
      .filter(([, cookie]) => path.startsWith(cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const maxAge = attributes.find((a) => a.toLowerCase().startsWith('max-age='));
      if (maxAge && Number(maxAge.slice(8)) <= 0) this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
  }

  async get(relative: string): Promise<{ status: number; text: string; headers: Headers }> {
    const url = this.url(relative);
    const response = await fetch(url, { headers: { cookie: this.cookieHeader(url) }, redirect: 'manual' });
    this.remember(response);
    return { status: response.status, text: await response.text(), headers: response.headers };
  }

  async post(relative: string, fields: Record<string, string>): Promise<{ status: number; text: string; headers: Headers }> {
    const url = this.url(relative);
    const response = await fetch(url, {
      method: 'POST',
      headers: { cookie: this.cookieHeader(url), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
    this.remember(response);
    return { status: response.status, text: await response.text(), headers: response.headers };
  }

  /** The CSRF token of the form on a page. */
  static csrfOf(html: string): string {
    const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
    if (!token) throw new Error('the page has no CSRF token');
    return token;
  }

  /** Opens the sign-in page and submits it. */
  async signIn(login: string, password: string) {
    const page = await this.get('login');
    expect(page.status).toBe(200);
    return this.post('login', { csrf: PortalVisitor.csrfOf(page.text), login, password });
  }
}

/** Registers an affiliate of the application through the API; answers its login and login_url. */
export async function registeredAffiliate(
  stack: Pick<TestStack, 'baseUrl'>,
  appId: string,
  serverKey: string,
  names = { first_name: 'Ada', last_name: 'Lovelace' },
) {
  const token = randomUUID().slice(0, 8);
  const body = { app_id: appId, password: 'correct horse battery', email: `aff-${token}@example.com`, username: `aff_${token}`, ...names };
  const response = await request(stack.baseUrl, 'POST', '/api/register_affiliate', { key: serverKey, body });
  expect(response.status).toBe(200);
  return { ...body, affiliate_id: response.body.affiliate_id as string, login_url: response.body.login_url as string };
}

/**
 * An affiliate of longer standing, arranged as stored: its creation moved back to `createdAt`. A deal never starts
 * before its affiliate, so a test of past months' earnings starts here.
 */
export async function backdateAffiliate(stack: TestStack, appId: string, affiliateId: string, createdAt: string): Promise<void> {
  await localClients(stack.endpoints).document.send(
    new UpdateCommand({
      TableName: tables.affiliates.localName,
      Key: { app_id: appId, sk: `affiliate#${affiliateId}` },
      UpdateExpression: 'SET created_at = :at',
      ConditionExpression: 'attribute_exists(sk)',
      ExpressionAttributeValues: { ':at': createdAt },
    }),
  );
}
