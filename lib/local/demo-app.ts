/**
 * The demo application `npm start` creates once, and `.urm/dev.json`, where
 * its id and keys are kept for the developer (keys are stored hashed, so this
 * file is the only place they can be read again).
 */
import { localStackActor } from '../../functions/domain/audit';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { hashApiKey, type Scope } from '../../functions/domain/api-keys';
import { createApp } from '../../functions/back-office/apps';
import { createChannel } from '../../functions/back-office/channels';
import { issueKey } from '../../functions/back-office/keys';
import { createPlan } from '../../functions/back-office/plans';
import { assignSender } from '../../functions/back-office/senders';
import { Conflict } from '../../functions/domain/errors';
import { setMoneySettings } from '../../functions/back-office/money';
import type { BackOffice } from '../../functions/back-office/ports';
import { newUserId } from '../../functions/domain/enterprise';

export interface DevConfig {
  base_url: string;
  app_id: string;
  server_key: string;
  comms_key: string;
  browser_key: string;
  channel_id?: string;
  mail_url?: string;
}

/** The demo application's enterprise user, an admin: `npm run admin -- portal link --app … --email admin@demo.example` signs it in. */
export const demoConsoleUser = { email: 'admin@demo.example', first_name: 'Demo', last_name: 'Admin', role: 'admin' } as const;

const scopesInFile: Record<Scope, 'server_key' | 'comms_key' | 'browser_key'> = {
  server: 'server_key',
  comms: 'comms_key',
  browser: 'browser_key',
};

async function readDevConfig(path: string): Promise<DevConfig | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as DevConfig;
  } catch {
    return undefined;
  }
}

/** True when the file's application and all three keys are still live in the store. */
async function stillValid(office: BackOffice, config: DevConfig): Promise<boolean> {
  if (!config.app_id || !(await office.apps.get(config.app_id))) return false;
  for (const field of Object.values(scopesInFile)) {
    const key = config[field] ? await office.keys.findByHash(hashApiKey(config[field])) : undefined;
    if (!key || key.revoked_at || key.app_id !== config.app_id) return false;
  }
  return true;
}

/** The demo's affiliate programme: EUR, the common money event names, new affiliates approved at once. */
export const demoMoneySettings = {
  currency: 'EUR',
  money_events: { Deposit: 'deposit', Withdrawal: 'withdrawal', Bet: 'bet', Win: 'win', Bonus: 'bonus' },
} as const;

async function ensureDemoProgramme(office: BackOffice, appId: string): Promise<void> {
  const app = await office.apps.get(appId);
  // Set once: an operator's own changes to the demo application stay.
  if (app?.money_events === undefined)
    await setMoneySettings(office, appId, localStackActor, { ...demoMoneySettings, money_events: { ...demoMoneySettings.money_events } });
  if (app?.affiliate_approval === undefined) await office.apps.update(appId, { affiliate_approval: 'approve' });
}

/** The demo channel's sender, assigned to the demo application as the operator assigns senders (`sender assign`). */
export const demoSender = 'demo@example.com';

/**
 * The demo application's email channel: the one in the file if it still exists (enabled or not), else a new one;
 * either way with its sender assigned to the demo application, so that it sends.
 */
async function ensureDemoChannel(office: BackOffice, appId: string, channelId: string | undefined): Promise<string> {
  try {
    await assignSender(office, localStackActor, appId, { email: demoSender });
  } catch (error) {
    // Assigned to another application by hand: the demo channel's sends then answer 409 naming the sender (a new one is refused), which says why.
    if (!(error instanceof Conflict)) throw error;
  }
  if (channelId && (await office.channels.get(appId, channelId))) return channelId;
  const channel = await createChannel(office, localStackActor, { appId, name: 'Demo channel', fromEmail: demoSender, fromName: 'urm demo' });
  return channel.channel_id;
}

/** The demo application's default plan, made once: CPA 50.00 for a first deposit of at least 20.00, and RevShare 25 % with carry-over. */
async function ensureDemoPlan(office: BackOffice, appId: string): Promise<void> {
  const app = await office.apps.get(appId);
  if (app?.default_plan_id && (await office.plans.get(appId, app.default_plan_id))) return;
  const plan = await createPlan(office, appId, localStackActor, {
    name: 'Demo hybrid',
    cpa: { amount: '50', min_deposit: '20' },
    revshare: { percent: '25', carry_over: true },
  });
  await office.apps.update(appId, { default_plan_id: plan.plan_id });
}

/** The demo application's admin, signed up once (an existing one keeps whatever role an admin gave it since). */
async function ensureDemoConsoleUser(office: BackOffice, appId: string): Promise<void> {
  if (await office.users.findByEmail(appId, demoConsoleUser.email)) return;
  await office.users.create({ app_id: appId, user_id: newUserId(), created_at: new Date().toISOString(), ...demoConsoleUser });
}

export async function ensureDemoApp(office: BackOffice, path: string, baseUrl: string, mailUrl: string): Promise<{ config: DevConfig; created: boolean }> {
  const existing = await readDevConfig(path);
  let config: DevConfig;
  let created = false;
  if (existing && (await stillValid(office, existing))) {
    config = { ...existing, base_url: baseUrl };
    if (existing.base_url !== baseUrl) {
      await office.apps.update(existing.app_id, { portal_origin: baseUrl, site_origins: [baseUrl] });
    }
  } else {
    const app = await createApp(office, { name: 'Demo application', portalOrigin: baseUrl, siteOrigins: [baseUrl] });
    const keys = {} as Record<'server_key' | 'comms_key' | 'browser_key', string>;
    for (const [scope, field] of Object.entries(scopesInFile) as [Scope, keyof typeof keys][]) {
      keys[field] = (await issueKey(office, app.app_id, localStackActor, scope)).key;
    }
    config = { base_url: baseUrl, app_id: app.app_id, ...keys };
    created = true;
  }
  await ensureDemoProgramme(office, config.app_id);
  config.channel_id = await ensureDemoChannel(office, config.app_id, config.channel_id);
  await ensureDemoPlan(office, config.app_id);
  await ensureDemoConsoleUser(office, config.app_id);
  config.mail_url = mailUrl;
  await writeFile(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
  return { config, created };
}
