/** The settings routes (settings/routes.ts) over the back office's use cases, made from their ports. */
import { appSettingsView, requireApp, updateApp } from '../../back-office/apps';
import { createChannel, listChannels, setChannelDomain, setChannelEnabled } from '../../back-office/channels';
import { hasIdentitySecret, rotateIdentitySecret, setIdentityVerification } from '../../back-office/identity';
import { issueKey, keyView, listKeys, revokeKey } from '../../back-office/keys';
import { getMoneySettings, setMoneySettings } from '../../back-office/money';
import { listSenders } from '../../back-office/senders';
import type { BackOffice } from '../../back-office/ports';
import { generateVapidKeys } from '../../back-office/web-push';
import type { Channel } from '../../domain/channels';
import { consoleActor } from '../../http/console-auth';
import { answer, type Implementations } from '../route';
import type { routes } from './routes';

export type SettingsPorts = Pick<BackOffice, 'apps' | 'keys' | 'channels' | 'senders' | 'plans' | 'secrets' | 'audit' | 'now'>;

export function settingsHandlers(office: SettingsPorts) {
  return {
    // Never a key or its hash.
    ConsoleListKeys: async ({ identity }) => answer(200, { keys: (await listKeys(office, identity.appId)).map(keyView) }),

    // The key is in this answer only: the store keeps its hash, the audit entry its id.
    ConsoleIssueKey: async ({ identity, body }) => {
      const issued = await issueKey(office, identity.appId, consoleActor(identity), body.scope);
      return answer(201, { key: issued.key, ...keyView(issued.summary) });
    },

    // Keyed by the session's application: another application's key id is not found, as an unknown one.
    ConsoleRevokeKey: async ({ identity, path }) => {
      const keyId = path.key_id ?? '';
      await revokeKey(office, identity.appId, consoleActor(identity), keyId);
      return answer(200, { key_id: keyId, message: 'key revoked' });
    },

    ConsoleGetApp: async ({ identity }) => {
      const app = await requireApp(office, identity.appId);
      return answer(200, { app: { ...appSettingsView(app), identity_secret_set: await hasIdentitySecret(office, app.app_id) } });
    },

    // The command line's `app update` and `app identity --on/--off`, in one call: each audited by its use case.
    ConsoleUpdateApp: async ({ identity, body }) => {
      const actor = consoleActor(identity);
      let app = await updateApp(office, identity.appId, actor, {
        name: body.name,
        portalOrigin: body.portal_origin,
        siteOrigins: body.site_origins,
        affiliateApproval: body.affiliate_approval,
        affiliateSignup: body.affiliate_signup,
        defaultPlanId: body.default_plan_id,
        searchAttributes: body.search_attributes === undefined ? undefined : [...body.search_attributes],
        messaging: body.messaging,
      });
      if (body.identity_verification !== undefined) {
        app = await setIdentityVerification(office, identity.appId, actor, body.identity_verification === 'on');
      }
      return answer(200, { app: appSettingsView(app) });
    },

    ConsoleListChannels: async ({ identity }) => answer(200, { channels: await listChannels(office, identity.appId) }),

    ConsoleCreateChannel: async ({ identity, body }) => {
      const channel = await createChannel(office, consoleActor(identity), {
        appId: identity.appId,
        name: body.name,
        fromEmail: body.from_email,
        fromName: body.from_name,
        ...(body.from_domain === undefined ? {} : { fromDomain: body.from_domain }),
      });
      return answer(201, { channel });
    },

    // The application's own senders only; the operator's command line assigns them.
    ConsoleListSenders: async ({ identity }) =>
      answer(200, { senders: (await listSenders(office, identity.appId)).map(({ sender, kind, assigned_at }) => ({ sender, kind, assigned_at })) }),

    // The command line's `channel update` and `channel enable/disable`; a channel of another application is 404.
    ConsoleUpdateChannel: async ({ identity, body, path }) => {
      const channelId = path.channel_id ?? '';
      let channel: Channel | undefined;
      if (body.from_domain !== undefined)
        channel = await setChannelDomain(office, identity.appId, consoleActor(identity), channelId, body.from_domain ?? undefined);
      if (body.enabled !== undefined) channel = await setChannelEnabled(office, identity.appId, consoleActor(identity), channelId, body.enabled);
      return answer(200, { channel });
    },

    ConsoleGetVapid: async ({ identity }) => {
      const app = await requireApp(office, identity.appId);
      return answer(200, { vapid_public_key: app.vapid_public_key ?? null, vapid_subject: app.vapid_subject ?? null });
    },

    // 409 when the application has keys and `rotate` is not true; the private key is never in the answer.
    ConsoleGenerateVapid: async ({ identity, body }) => {
      const keys = await generateVapidKeys(office, identity.appId, consoleActor(identity), { subject: body.subject, rotate: body.rotate });
      return answer(200, { vapid_public_key: keys.publicKey, vapid_subject: keys.subject });
    },

    // The new secret is in this answer only; the audit entry says that it was rotated, not what it is.
    ConsoleRotateIdentitySecret: async ({ identity }) =>
      answer(200, { identity_secret: await rotateIdentitySecret(office, identity.appId, consoleActor(identity)) }),

    ConsoleGetMoney: async ({ identity }) => {
      const { currency, money_events } = await getMoneySettings(office, identity.appId);
      return answer(200, { currency, money_events });
    },

    ConsoleSetMoney: async ({ identity, body }) => {
      const { currency, money_events } = await setMoneySettings(office, identity.appId, consoleActor(identity), body);
      return answer(200, { currency, money_events });
    },
  } satisfies Implementations<typeof routes>;
}
