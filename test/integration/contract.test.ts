/**
 * The contract test: every request example of the OpenAPI document is sent to
 * the local stack and gets the status its name begins with, with an answer
 * that validates against the documented response; an error answer is the
 * documented one, word for word. Placeholders (lib/api-docs/placeholders.ts)
 * are replaced with real values of the stack, made here first: a profile with
 * a push subscription, an enterprise user, a fresh sign-in token, a portal
 * session, a registered affiliate and its tracking link. Then every key scope the document does not name for an operation
 * is refused.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Scope } from '../../functions/domain/api-keys';
import { SESSION_COOKIE } from '../../functions/http/session-cookie';
import { expectedStatus } from '../../lib/api-docs/document';
import { placeholders, type Placeholder } from '../../lib/api-docs/placeholders';
import { httpRoutes } from '../../functions/manifest/operations';
import { createLink } from '../../functions/back-office/affiliate-links';
import { DynamoJourneyStore } from '../../functions/adapters/dynamo-journey-store';
import { DynamoSegmentStore } from '../../functions/adapters/dynamo-segment-store';
import { DynamoTemplateStore } from '../../functions/adapters/dynamo-template-store';
import { tables } from '../../functions/manifest/resources';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from '../support/http';
import { testStack, type TestStack } from '../support/local-stack';
import { openApiChecker, type DocumentedOperation } from '../support/openapi';
import { applyAndRead, profileRecord } from '../support/profiles';
import { startPushService, tokenOf, type PushService } from '../support/push-service';
import { emailTemplate, storedTemplate } from '../support/templates';

let stack: TestStack;
let push: PushService;
/** Placeholder value → the stack's value. */
let real: Map<string, string>;

const checker = openApiChecker();
const document = checker.document;

function keyOf(scope: Scope): string {
  return { server: stack.dev.server_key, comms: stack.dev.comms_key, browser: stack.dev.browser_key }[scope];
}

async function signedInToken(userId: string): Promise<string> {
  const signedIn = await request(stack.baseUrl, 'POST', '/enterprises/sign_in', {
    key: stack.dev.server_key,
    body: { app_id: stack.dev.app_id, user_id: userId },
  });
  expect(signedIn.status).toBe(200);
  return signedIn.body.token;
}

beforeAll(async () => {
  stack = await testStack();
  push = await startPushService();
  const run = randomBytes(4).toString('hex');

  const config = await request(stack.baseUrl, 'GET', `/push/config?app_id=${stack.dev.app_id}`, { key: stack.dev.browser_key });
  const pushToken = tokenOf(await push.subscribe(config.body.vapid_public_key));
  const profileId = `contract-${run}`;
  await applyAndRead(stack, profileId, [
    profileRecord(stack, profileId, { first_name: 'Ada', urm_unique_append: { urm_web_push_notification_token: [pushToken] } }),
  ]);

  const signedUp = await request(stack.baseUrl, 'POST', '/enterprises/sign_up', {
    key: stack.dev.server_key,
    body: { app_id: stack.dev.app_id, users: [{ email: `contract-${run}@example.com`, first_name: 'Grace', last_name: 'Hopper' }] },
  });
  expect(signedUp.status).toBe(200);
  const userId: string = signedUp.body.users[0].user_id;
  const opened = await fetch(`${stack.baseUrl}/redirect?token=${await signedInToken(userId)}`, { redirect: 'manual' });
  const sessionId = /^[^=]+=([^;]*)/.exec(opened.headers.get('set-cookie') ?? '')?.[1];
  expect(sessionId).toBeTruthy();

  const registered = await request(stack.baseUrl, 'POST', '/api/register_affiliate', {
    key: stack.dev.server_key,
    body: {
      app_id: stack.dev.app_id,
      email: `linked-${run}@example.com`,
      username: `linked_${run}`,
      password: 'correct horse battery',
      first_name: 'Ada',
      last_name: 'Lovelace',
    },
  });
  expect(registered.status).toBe(200);
  const link = await createLink(localBackOffice(localClients(stack.endpoints).document))(stack.dev.app_id, registered.body.affiliate_id, {
    name: 'Contract',
    landing_url: `${stack.baseUrl}/`,
  });

  // A segment with a member, written as the console and the segment engine would.
  const segments = new DynamoSegmentStore(localClients(stack.endpoints).document, tables.segments.localName);
  const segmentId = `contract-${run}`
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '-')
    .slice(0, 64);
  const at = new Date().toISOString();
  await segments.create({
    app_id: stack.dev.app_id,
    segment_id: segmentId,
    name: 'Contract',
    // On the shared demo application: a condition nobody meets (integrators cannot set urm_ attributes), so other tests' players never enter it.
    condition: { attribute: 'urm_contract_never', op: 'exists' },
    version: 1,
    status: 'ready',
    created_at: at,
    updated_at: at,
    updated_by: 'contract-test',
  });

  // An email template, as the console would save it.
  const templateId = `receipt-${segmentId}`.slice(0, 64);
  await new DynamoTemplateStore(localClients(stack.endpoints).document, tables.campaigns.localName).create(
    storedTemplate(stack.dev.app_id, { ...emailTemplate({ en: { subject: 'Your {{ event.bonus }} bonus', html: '<p>Enjoy</p>' } }), id: templateId }),
  );

  // A live journey entered through the API; it only exits, so a trigger sends nothing.
  const journeyId = `contract-${segmentId}`.slice(0, 64);
  await new DynamoJourneyStore(localClients(stack.endpoints).document, tables.campaigns.localName).create(
    { app_id: stack.dev.app_id, journey_id: journeyId, name: 'Contract', status: 'live', version: 1, revision: 1, created_at: at, updated_at: at },
    {
      app_id: stack.dev.app_id,
      journey_id: journeyId,
      version: 1,
      definition: { entry: { api: true }, steps: [{ id: 'done', type: 'exit' }] },
      created_at: at,
    },
  );

  const values: Record<Placeholder, string> = {
    appId: stack.dev.app_id,
    profileId,
    unknownProfileId: `contract-${run}-never-written`,
    visitorProfileId: `urm-anon-${randomUUID()}`,
    pushToken,
    channelId: stack.dev.channel_id!,
    userId,
    signInToken: await signedInToken(userId),
    sessionId: sessionId!,
    siteOrigin: stack.baseUrl,
    affiliateEmail: `affiliate-${run}@example.com`,
    affiliateUsername: `affiliate_${run}`,
    affiliateId: registered.body.affiliate_id,
    unknownAffiliateId: `aff_never_${run}`,
    enterpriseEmail: `enterprise-${run}@example.com`,
    linkId: link.link_id,
    segmentId,
    unknownSegmentId: `never-${segmentId}`.slice(0, 64),
    templateId,
    journeyId,
    unknownJourneyId: `never-${journeyId}`.slice(0, 64),
  };
  real = new Map(Object.entries(values).map(([name, value]) => [placeholders[name as Placeholder], value]));
});

afterAll(() => push?.stop());

/** The example with every placeholder replaced by the stack's value. */
function substituted<T>(value: T): T {
  if (typeof value === 'string') return (real.get(value) ?? value) as T;
  if (Array.isArray(value)) return value.map(substituted) as T;
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituted(v)])) as T;
  return value;
}

interface Sendable {
  name: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** The request examples of an operation, by name, put together from its parameters and body. */
function requestExamples({ path, operation }: DocumentedOperation): Sendable[] {
  const names = new Set<string>([
    ...(operation.parameters as any[]).flatMap((parameter) => Object.keys(parameter.examples ?? {})),
    ...Object.keys(operation.requestBody?.content['application/json'].examples ?? {}),
  ]);
  return [...names].map((name) => {
    let target = path;
    const query = new URLSearchParams();
    const headers: Record<string, string> = {};
    const cookies: string[] = [];
    for (const parameter of operation.parameters as any[]) {
      const example = parameter.examples?.[name];
      if (example === undefined) continue;
      const value = substituted(example.value as string);
      if (parameter.in === 'path') target = target.replace(`{${parameter.name}}`, encodeURIComponent(value));
      if (parameter.in === 'query') query.set(parameter.name, value);
      if (parameter.in === 'header') headers[parameter.name] = value;
      if (parameter.in === 'cookie') cookies.push(`${parameter.name}=${value}`);
    }
    if (cookies.length > 0) headers.Cookie = cookies.join('; ');
    const body = operation.requestBody?.content['application/json'].examples[name]?.value;
    const search = query.size > 0 ? `?${query}` : '';
    return { name, url: `${target}${search}`, headers, ...(body === undefined ? {} : { body: substituted(body) }) };
  });
}

async function send(documented: DocumentedOperation, example: Sendable, key: string | undefined) {
  const response = await fetch(`${stack.baseUrl}${example.url}`, {
    method: documented.method.toUpperCase(),
    redirect: 'manual',
    headers: {
      ...(example.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(key ? { 'x-api-key': key } : {}),
      ...example.headers,
    },
    body: example.body === undefined ? undefined : JSON.stringify(example.body),
  });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: response.status, headers: response.headers, body: json ? (JSON.parse(text) as unknown) : text };
}

function documentedOperations(): DocumentedOperation[] {
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );
}

/** The documented answer of an example, for the error answers, which are the same every time. */
function documentedAnswer(documented: DocumentedOperation, name: string): unknown {
  const content = documented.operation.responses[String(expectedStatus(name))].content ?? {};
  return (Object.values(content)[0] as any)?.examples?.[name]?.value;
}

const exercised = new Set<string>();

describe('every request example of the OpenAPI document, sent to the local stack', () => {
  for (const documented of documentedOperations()) {
    const { operationId, security } = documented.operation;
    const scope = security[0] ? (Object.keys(security[0])[0].replace(/Key$/, '') as Scope) : undefined;
    test(`${operationId}: each example gets its documented status and answer`, async () => {
      for (const example of requestExamples(documented)) {
        const answer = await send(documented, example, scope && keyOf(scope));

        expect(answer.status).toBe(expectedStatus(example.name));
        expect(checker.problems(documented, answer.status, answer.headers.get('content-type'), answer.body)).toEqual([]);
        if (answer.status >= 400 && typeof answer.body !== 'string') {
          expect(answer.body).toEqual(substituted(documentedAnswer(documented, example.name)));
        }
        if (answer.status === 303) expect(answer.headers.get('location')).toBe('console/');
        // A sign-in link starts a session; the former portal home only points at the console.
        if (answer.status === 303 && operationId === 'EnterpriseRedirect') {
          expect(answer.headers.get('set-cookie') ?? '').toMatch(new RegExp(`^${SESSION_COOKIE}=`));
        }
      }
      exercised.add(operationId);
    });

    if (scope === undefined) continue;
    const allowed = new Set((security as Record<string, unknown>[]).map((requirement) => Object.keys(requirement)[0].replace(/Key$/, '')));
    const refused = (['server', 'comms', 'browser'] as const).filter((candidate) => !allowed.has(candidate));
    test(`${operationId}: refuses the key scopes the document does not name (${refused.join(', ')})`, async () => {
      const example = requestExamples(documented).find(({ name }) => expectedStatus(name) < 300)!;
      for (const other of refused) {
        const answer = await send(documented, example, keyOf(other));

        expect(answer.status).toBe(403);
        expect(answer.body).toEqual({ message: 'Forbidden' });
      }
    });
  }
});

test('the contract covers every operation of functions/manifest/operations.ts and its preflight', () => {
  const expected = httpRoutes()
    .filter((op) => !op.portalPage)
    .flatMap((op) => [op.id, ...(op.browser ? [`${op.id}Preflight`] : [])]);

  expect([...exercised].sort()).toEqual(expected.sort());
});
