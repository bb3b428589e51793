/**
 * An application of a test file's own for unsubscribe links: its server key,
 * the link a marketing mail of a player carries (made as whatever composes
 * marketing mail makes it), and the player's state read back over the API.
 */
import { randomUUID } from 'node:crypto';
import { expect } from '@jest/globals';
import { createApp } from '../../functions/back-office/apps';
import { issueKey } from '../../functions/back-office/keys';
import type { MessagingSettings } from '../../functions/domain/send-gate';
import { commandLineActor } from '../../functions/domain/audit';
import { unsubscribeLinks } from '../../functions/messaging/unsubscribe';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { request } from './http';
import type { TestStack } from './local-stack';
import { until } from './profiles';

export async function unsubscribeApp(stack: TestStack, name: string, topics?: MessagingSettings['topics']) {
  const office = localBackOffice(localClients(stack.endpoints).document);
  const app = await createApp(office, { name, portalOrigin: new URL(stack.baseUrl).origin });
  if (topics) await office.apps.update(app.app_id, { messaging: { topics } });
  const appId = app.app_id;
  const serverKey = (await issueKey(office, appId, commandLineActor, 'server')).key;
  const links = unsubscribeLinks({ secrets: office.secrets });

  const profileOf = async (profileId: string): Promise<Record<string, unknown> | undefined> => {
    const response = await request(stack.baseUrl, 'GET', `/profiles/${encodeURIComponent(profileId)}?app_id=${appId}`, { key: serverKey });
    return response.status === 200 ? response.body.attributes : undefined;
  };

  return {
    appId,
    serverKey,
    profileOf,
    /** The unsubscribe address of a marketing mail to the player, on the topic (none: all). */
    link: async (profileId: string, topic?: string) => (await links(app, profileId, topic)).url,
    /** The player's events, first page (enough for a test's few). */
    eventsOf: async (profileId: string): Promise<Record<string, unknown>[]> => {
      const response = await request(stack.baseUrl, 'GET', `/profiles/${encodeURIComponent(profileId)}/events?app_id=${appId}&limit=100`, { key: serverKey });
      return response.status === 200 ? response.body.events : [];
    },
    /** A new player who consented to marketing email, once applied. */
    consentingPlayer: async (extra: Record<string, unknown> = {}): Promise<string> => {
      const id = `unsub-${randomUUID()}`;
      const response = await request(stack.baseUrl, 'POST', '/profiles', {
        key: serverKey,
        body: [{ app_id: appId, profile_id: id, urm_date_time: new Date().toISOString(), email: `${id}@example.com`, urm_consent_email: true, ...extra }],
      });
      expect(response.status).toBe(200);
      await until(
        () => profileOf(id),
        (attributes) => attributes?.urm_consent_email === true,
        `${id} to be applied`,
      );
      return id;
    },
  };
}

export type UnsubscribeApp = Awaited<ReturnType<typeof unsubscribeApp>>;
