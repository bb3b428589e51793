/**
 * What deploys is what is tested: a small smoke set through HTTP against `npm start -- --bundled`,
 * a stack of its own that runs each function's bundle as `cdk synth` stages it (lib/local/bundles.ts),
 * so an esbuild or ESM problem that only the bundle has (a package that breaks when bundled,
 * `__dirname` in an ES module, a wrong external) fails here, not in AWS. Every function's bundle is
 * imported when the stack starts, so one that cannot load fails the whole set.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DynamoTemplateStore } from '../../functions/adapters/dynamo-template-store';
import { tables } from '../../functions/manifest/resources';
import { localClients } from '../../lib/local/stack';
import { registration } from '../support/affiliates';
import { consoleRequest, consoleSignIn } from '../support/console';
import { request } from '../support/http';
import { endpointsOf, freePorts, startLocalProcess, waitFor, type LocalProcess } from '../support/local-process';
import type { TestStack } from '../support/local-stack';
import { mailWithId } from '../support/mail';
import { profileRecord, readProfile, readTimeline, send, until } from '../support/profiles';
import { emailTemplate, storedTemplate } from '../support/templates';

/** The first start on a clean clone bundles every function (cached by content hash in cdk.out afterwards). */
const STARTUP_MS = 280_000;

let local: LocalProcess;
let stack: TestStack;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'urm-bundled-'));
  const env = { ...(await freePorts()), URM_DATA_DIR: dataDir };
  local = startLocalProcess(env, ['--bundled']);
  await waitFor(
    () => {
      if (local.child.exitCode !== null) throw new Error(`npm start -- --bundled exited (${local.child.exitCode}):\n${local.output()}`);
      return local.output().includes('urm local stack ready');
    },
    'the bundled stack to start',
    STARTUP_MS,
  );
  stack = {
    baseUrl: `http://127.0.0.1:${env.PORT}`,
    dev: JSON.parse(readFileSync(join(dataDir, 'dev.json'), 'utf8')),
    endpoints: endpointsOf(env),
    dataDir,
    onFailureFile: join(dataDir, 'on-failure.jsonl'),
  };
}, STARTUP_MS + 10_000);

afterAll(async () => {
  if (!local) return;
  local.child.kill('SIGTERM');
  await local.exited;
  if (stack) rmSync(stack.dataDir, { recursive: true, force: true });
});

describe('npm start -- --bundled (the synthesized bundles)', () => {
  test('says it runs the bundles', () => {
    expect(local.output()).toContain('urm local stack ready at http://127.0.0.1:');
    expect(local.output()).toContain('(running the synthesized bundles)');
  });

  test('ingests a profile and an event, and the consumers apply both', async () => {
    const profileId = `bundled-${randomUUID()}`;

    await send(stack, '/profiles', [profileRecord(stack, profileId, { tier: 'gold', urm_add: { visits: 1 } })]);
    await send(stack, '/events', [profileRecord(stack, profileId, { event: 'login', urm_insert_id: `login-${profileId}` })]);

    const profile = await until(
      () => readProfile(stack, profileId),
      (r) => r.status === 200,
      `profile ${profileId}`,
    );
    expect(profile.body.attributes).toEqual({ tier: 'gold', visits: 1 });
    const timeline = await until(
      () => readTimeline(stack, profileId),
      (events) => events.length > 0,
      `the timeline of ${profileId}`,
    );
    expect(timeline.map((event: any) => [event.event, event.urm_insert_id])).toEqual([['login', `login-${profileId}`]]);
  });

  test('registers an affiliate once, whose login page answers', async () => {
    const body = registration(stack.dev.app_id);

    const first = await request(stack.baseUrl, 'POST', '/api/register_affiliate', { key: stack.dev.server_key, body });
    const sameEmail = { ...body, username: `${body.username}_2` };
    const again = await request(stack.baseUrl, 'POST', '/api/register_affiliate', { key: stack.dev.server_key, body: sameEmail });

    expect(first.status).toBe(200);
    expect(again).toMatchObject({ status: 400, body: { errors: ['email is invalid'] } });
    const page = await fetch(first.body.login_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<form/);
  });

  test('signs a back-office user in, and the console session answers', async () => {
    const session = await consoleSignIn(stack.baseUrl, { appId: stack.dev.app_id, serverKey: stack.dev.server_key });

    const who = await consoleRequest(stack.baseUrl, session, 'GET', '/console/api/session');

    expect(who.status).toBe(200);
    expect(who.body.csrf_token).toBe(session.csrf);
  });

  test("each browser UI's routed function answers an address it does not route with its router's 404", async () => {
    const [consoleApi, portal, enterprise] = await Promise.all([
      fetch(`${stack.baseUrl}/console/api/no-such-route`),
      fetch(`${stack.baseUrl}/affiliates/${stack.dev.app_id}/no-such-page`),
      fetch(`${stack.baseUrl}/portal/no-such-page`),
    ]);

    expect([consoleApi.status, portal.status, enterprise.status]).toEqual([404, 404, 404]);
    expect(await consoleApi.json()).toEqual({ message: 'Not Found' });
    expect(portal.headers.get('content-type')).toMatch(/^text\/html/);
    expect(enterprise.headers.get('content-type')).toMatch(/^text\/html/);
  });

  test('sends an email to the local SES and notes it on the timeline, with its delivery', async () => {
    const profileId = `bundled-mail-${randomUUID()}`;
    const subject = `Bundled ${randomUUID()}`;

    const response = await request(stack.baseUrl, 'POST', '/api/send_email', {
      key: stack.dev.comms_key,
      body: {
        app_id: stack.dev.app_id,
        channel_id: stack.dev.channel_id,
        profile_id: profileId,
        to_addresses: [{ email: 'ann@example.com', name: 'Ann Lee' }],
        subject,
        text_body: 'Your bonus is ready.',
      },
    });

    expect(response.status).toBe(200);
    expect((await mailWithId(stack, response.body.message_id))?.subject).toBe(subject);
    const timeline = await until(
      () => readTimeline(stack, profileId),
      (events) => events.some((event: any) => event.event === 'urm_email_delivered'),
      `the timeline of ${profileId}`,
    );
    // SES's delivery follows the send: the local SES hands it to the EmailEvents bundle.
    expect(timeline.map((event: any) => event.event).sort()).toEqual(['urm_email_delivered', 'urm_email_sent']);
  });

  test('sends a stored template rendered with Liquid (send_template), through the gate, to the local SES', async () => {
    const profileId = `bundled-template-${randomUUID()}`;
    const templateId = `smoke-${randomUUID().slice(0, 8)}`;
    const templates = new DynamoTemplateStore(localClients(stack.endpoints).document, tables.campaigns.localName);
    await templates.create(
      storedTemplate(stack.dev.app_id, { ...emailTemplate({ en: { subject: 'Bundled {{ event.amount }}', html: '<p>Hi</p>' } }), id: templateId }),
    );
    await send(stack, '/profiles', [profileRecord(stack, profileId, { email: 'ann@example.com' })]);
    await until(
      () => readProfile(stack, profileId),
      (answer) => answer.status === 200,
      `the profile ${profileId}`,
    );

    const response = await request(stack.baseUrl, 'POST', '/api/send_template', {
      key: stack.dev.comms_key,
      body: { app_id: stack.dev.app_id, profile_id: profileId, template_id: templateId, purpose: 'transactional', data: { amount: templateId } },
    });

    expect(response.status).toBe(200);
    expect((await mailWithId(stack, response.body.message_id))?.subject).toBe(`Bundled ${templateId}`);
  });
});
