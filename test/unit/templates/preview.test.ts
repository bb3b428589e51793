import { describe, expect, test } from '@jest/globals';
import { PREVIEW_UNSUBSCRIBE_URL, previewTemplate } from '../../../functions/domain/templates';
import { emailTemplate, pushTemplate, testApp, webhookTemplate } from '../../support/templates';
import { validationProblems } from '../../support/validation';

describe('a preview renders every part for a chosen player', () => {
  test('an email: subject, html, text, the language picked and why', () => {
    const template = emailTemplate({
      en: { subject: 'Welcome {{ player.first_name }}', html: '<p>Your {{ event.amount }} bonus. <a href="{{ unsubscribe_url }}">Unsubscribe</a></p>' },
      'pt-BR': { subject: 'Bem-vindo {{ player.first_name }}', html: '<p>Seu bônus de {{ event.amount }}.</p>' },
    });
    expect(previewTemplate(template, { first_name: 'Ana', urm_language: 'pt-BR' }, { amount: '20' }, testApp)).toEqual({
      kind: 'email',
      language: 'pt-BR',
      language_reason: 'exact',
      why: 'urm_language pt-BR has its own variant',
      subject: 'Bem-vindo Ana',
      html: '<p>Seu bônus de 20.</p>',
      text: 'Seu bônus de 20.',
    });
  });

  test('the unsubscribe link is a placeholder, never a real token', () => {
    const template = emailTemplate({ en: { subject: 'x', html: '<a href="{{ unsubscribe_url }}">Unsubscribe</a>' } });
    expect(previewTemplate(template, {}, undefined, testApp)).toMatchObject({
      html: `<a href="${PREVIEW_UNSUBSCRIBE_URL.replace('&', '&amp;')}">Unsubscribe</a>`,
      language_reason: 'default',
    });
  });

  test('a push', () => {
    const template = pushTemplate({
      en: { title: '{{ app.name }}', body: 'Hi {{ player.first_name | default: "there" }}', url: 'https://casino.example.com/' },
    });
    expect(previewTemplate(template, {}, undefined, testApp)).toEqual({
      kind: 'push',
      language: 'en',
      language_reason: 'default',
      why: 'the player has no urm_language: the default language en',
      title: 'Lucky Casino',
      body: 'Hi there',
      url: 'https://casino.example.com/',
    });
  });

  test('a webhook', () => {
    expect(previewTemplate(webhookTemplate('{"id": "{{ app.id }}"}'), {}, {}, testApp)).toMatchObject({ kind: 'webhook', body: '{"id": "casino-1"}' });
  });

  test("a part this player's data does not render is a 400 naming it", () => {
    const template = webhookTemplate('{"amount": {{ event.amount | default: 0 }}}');
    expect(validationProblems((event) => previewTemplate(template, {}, event as Record<string, unknown>, testApp), { amount: 'abc' })).toEqual([
      'variants.en.body: does not render to valid JSON with this data',
    ]);
  });
});
