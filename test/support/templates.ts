/** Templates for unit tests: valid ones to start from, the context a send gives, and the error an act throws. */
import type { Attributes } from '../../functions/domain/attributes';
import type { EmailTemplate, PushTemplate, TemplateContext, WebhookTemplate } from '../../functions/domain/templates';

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
