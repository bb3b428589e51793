/** Templates for unit tests: valid ones to start from, the context a send gives, and the error an act throws. */
import type { Attributes } from '../../functions/domain/attributes';
import type { StoredTemplate, TemplateStore } from '../../functions/domain/template-store';
import type { EmailTemplate, MessageTemplate, PushTemplate, TemplateContext, WebhookTemplate } from '../../functions/domain/templates';

export function emailTemplate(variants: EmailTemplate['variants'] = { en: { subject: 'Hello', html: '<p>Hello</p>' } }, defaultLanguage = 'en'): EmailTemplate {
  return { id: 'welcome', name: 'Welcome', kind: 'email', default_language: defaultLanguage, variants };
}

export function pushTemplate(variants: PushTemplate['variants'] = { en: { title: 'Hello', body: 'A bonus waits' } }): PushTemplate {
  return { id: 'nudge', name: 'Nudge', kind: 'push', default_language: 'en', variants };
}

export function webhookTemplate(body = '{"ok": true}', url = 'https://hooks.example.com/urm'): WebhookTemplate {
  return { id: 'hook', name: 'Hook', kind: 'webhook', default_language: 'en', variants: { en: { url, body } } };
}

export const testApp = { id: 'casino-1', name: 'Lucky Casino' };

/** What a send renders with: the player's attributes, the event's properties. */
export function sendContext(player: Attributes = {}, event: Record<string, unknown> = {}): TemplateContext {
  return { player, event, app: testApp, unsubscribe_url: 'https://urm.example.com/u/token-1' };
}

/** The error `act` throws; fails the test when it throws none. */
export function thrownBy(act: () => unknown): unknown {
  try {
    act();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, none was thrown');
}

/** TemplateStore in memory, with the adapter's rules: ids unique per application, writes conditional on the version. */
export class MemoryTemplateStore implements TemplateStore {
  readonly items = new Map<string, StoredTemplate>();

  async list(appId: string, options: { archived?: boolean } = {}): Promise<StoredTemplate[]> {
    return [...this.items.values()]
      .filter((stored) => stored.app_id === appId && (options.archived || !stored.archived))
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
      .map((stored) => structuredClone(stored));
  }

  async get(appId: string, templateId: string): Promise<StoredTemplate | undefined> {
    const stored = this.items.get(`${appId}/${templateId}`);
    return stored ? structuredClone(stored) : undefined;
  }

  async count(appId: string): Promise<number> {
    return [...this.items.values()].filter((stored) => stored.app_id === appId).length;
  }

  async create(stored: StoredTemplate): Promise<boolean> {
    const key = `${stored.app_id}/${stored.template.id}`;
    if (this.items.has(key)) return false;
    this.items.set(key, structuredClone(stored));
    return true;
  }

  async put(stored: StoredTemplate, expectedVersion: number): Promise<boolean> {
    const key = `${stored.app_id}/${stored.template.id}`;
    if (this.items.get(key)?.version !== expectedVersion) return false;
    this.items.set(key, structuredClone(stored));
    return true;
  }
}

/** A stored template as the store keeps it, version 1, made at `at`. */
export function storedTemplate(appId: string, template: MessageTemplate, at = '2026-11-01T00:00:00.000Z'): StoredTemplate {
  return { app_id: appId, template, version: 1, archived: false, created_at: at, updated_at: at };
}
