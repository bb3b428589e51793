/** The console's templates routes (functions/console/templates) through the router: roles, CSRF, bodies, answers. */
import { describe, expect, test } from '@jest/globals';
import { consoleRouter } from '../../support/console-router';
import { storedProfile } from '../../support/players';
import { assignment } from '../../support/settings';
import { emailTemplate } from '../../support/templates';

const welcome = emailTemplate({
  en: { subject: 'Hi {{ player.first_name | default: "there" }}', html: '<p>{{ event.amount }} EUR</p>' },
  de: { subject: 'Hallo {{ player.first_name }}', html: '<p>{{ event.amount }} EUR</p>' },
});

describe('saving templates', () => {
  test('a marketer creates a template (201, version 1), a viewer lists and reads it', async () => {
    const api = consoleRouter();
    const marketer = await api.signIn('marketer');
    const viewer = await api.signIn('viewer');

    const created = await api.call('POST', '/console/api/templates', { as: marketer, body: welcome });
    const listed = await api.call('GET', '/console/api/templates', { as: viewer });
    const read = await api.call('GET', '/console/api/templates/welcome', { as: viewer });

    expect(created.status).toBe(201);
    expect(created.body.template).toMatchObject({ id: 'welcome', version: 1, updated_by: 'marketer@example.com' });
    expect(listed.body.templates).toMatchObject([{ id: 'welcome', kind: 'email', languages: ['en', 'de'] }]);
    expect(read.body.template.template).toEqual(welcome);
  });

  test('a template that does not parse is a 400 listing every problem', async () => {
    const api = consoleRouter();

    const response = await api.call('POST', '/console/api/templates', {
      body: emailTemplate({ en: { subject: '{{ x | shout }}', html: '{% if %}' } }, 'fr'),
    });

    expect(response.status).toBe(400);
    expect(response.body.message).toBe('template is invalid');
    expect(response.body.errors).toHaveLength(3);
  });

  test('a change on a stale version is a 409 saying someone else changed it', async () => {
    const api = consoleRouter();
    await api.call('POST', '/console/api/templates', { body: welcome });
    await api.call('POST', '/console/api/templates/welcome', { body: { version: 1, template: { ...welcome, name: 'First' } } });

    const stale = await api.call('POST', '/console/api/templates/welcome', { body: { version: 1, template: { ...welcome, name: 'Second' } } });

    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/^someone else changed this template meanwhile/);
  });

  test('a viewer may not create, change, archive or test-send; no call without the CSRF token; nothing changes', async () => {
    const api = consoleRouter();
    const viewer = await api.signIn('viewer');
    await api.call('POST', '/console/api/templates', { body: welcome });

    const answers = await Promise.all([
      api.call('POST', '/console/api/templates', { as: viewer, body: { ...welcome, id: 'other' } }),
      api.call('POST', '/console/api/templates/welcome', { as: viewer, body: { version: 1, template: welcome } }),
      api.call('POST', '/console/api/templates/welcome/archive', { as: viewer }),
      api.call('POST', '/console/api/template-test-sends', { as: viewer, body: { template_id: 'welcome' } }),
      api.call('POST', '/console/api/templates', { csrf: false, body: { ...welcome, id: 'other' } }),
    ]);

    expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403]);
    expect([...api.templates.items.keys()]).toEqual(['app_1/welcome']);
    expect(api.mailer.sent).toEqual([]);
  });

  test('archive and restore answer the template with its new state', async () => {
    const api = consoleRouter();
    await api.call('POST', '/console/api/templates', { body: welcome });

    const archived = await api.call('POST', '/console/api/templates/welcome/archive');
    const hidden = await api.call('GET', '/console/api/templates');
    const all = await api.call('GET', '/console/api/templates?archived=true');
    const restored = await api.call('POST', '/console/api/templates/welcome/restore');

    expect([archived.status, archived.body.template.archived]).toEqual([200, true]);
    expect([hidden.body.templates.length, all.body.templates.length]).toEqual([0, 1]);
    expect(restored.body.template).toMatchObject({ archived: false, version: 3 });
  });
});

describe('preview and test send', () => {
  test("a viewer previews the editor's draft against a player: the variant their language picks, and why", async () => {
    const api = consoleRouter();
    const viewer = await api.signIn('viewer');
    const jonas = storedProfile('app_1', 'p-1', { first_name: 'Jonas', urm_language: 'de' });
    api.profiles.items.set(jonas.pk, jonas);

    const response = await api.call('POST', '/console/api/template-previews', {
      as: viewer,
      body: { template: welcome, profile_id: 'p-1', data: { amount: 20 } },
    });

    expect(response.status).toBe(200);
    expect(response.body.preview).toMatchObject({ language: 'de', language_reason: 'exact', subject: 'Hallo Jonas', html: '<p>20 EUR</p>' });
  });

  test("a test send mails the signed-in user's own address, whatever the body says", async () => {
    const api = consoleRouter();
    const marketer = await api.signIn('marketer', 'mia@operator.example');
    await api.senders.claim(assignment('app_1', 'casino.example'));
    await api.channels.create({
      app_id: 'app_1',
      channel_id: 'ch_1',
      name: 'News',
      from_email: 'news@casino.example',
      from_name: 'Casino',
      enabled: true,
      created_at: '2026-01-01T00:00:00.000Z',
    });

    const sent = await api.call('POST', '/console/api/template-test-sends', { as: marketer, body: { template: welcome, data: { amount: 5 } } });
    const withAddress = await api.call('POST', '/console/api/template-test-sends', {
      as: marketer,
      body: { template: welcome, to: 'someone@elsewhere.example' },
    });

    expect([sent.status, sent.body.sent.to]).toEqual([200, 'mia@operator.example']);
    expect(withAddress.status).toBe(400);
    expect(api.mailer.sent.map((mail) => [mail.to, mail.subject])).toEqual([[['mia@operator.example'], '[Test] Hi there']]);
  });
});
