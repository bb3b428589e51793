import { describe, expect, test } from '@jest/globals';
import {
  createTemplate,
  getTemplate,
  listTemplates,
  previewTemplateFor,
  setTemplateArchived,
  testSendTemplate,
  updateTemplate,
} from '../../../functions/back-office/templates';
import { Conflict, NotFound, ValidationError } from '../../../functions/domain/errors';
import { TEMPLATES_PER_APP } from '../../../functions/domain/template-store';
import { MemoryAppStore } from '../../support/affiliates';
import { FakeClock, MemoryAuditLog } from '../../support/enterprise';
import { MemoryMailer } from '../../support/messaging';
import { MemoryProfiles, storedProfile } from '../../support/players';
import { assignment, MemoryChannelStore, MemorySenderStore } from '../../support/settings';
import { emailTemplate, MemoryTemplateStore, pushTemplate, storedTemplate } from '../../support/templates';

const ada = { user_id: 'usr_1', email: 'ada@operator.example' };
const bilingual = emailTemplate(
  {
    en: { subject: 'Hi {{ player.first_name | default: "there" }}', html: '<p>{{ event.amount }} EUR at {{ app.name }}</p>' },
    de: { subject: 'Hallo {{ player.first_name }}', html: '<p>{{ event.amount }} EUR</p>' },
  },
  'en',
);

function arrange() {
  const clock = new FakeClock(new Date('2026-11-21T10:00:00.000Z'));
  const templates = new MemoryTemplateStore();
  const profiles = new MemoryProfiles();
  const audit = new MemoryAuditLog();
  const channels = new MemoryChannelStore();
  const senders = new MemorySenderStore([assignment('app_1', 'casino.example')]);
  const mailer = new MemoryMailer();
  const ports = {
    templates,
    profiles,
    audit,
    channels,
    senders,
    mailer,
    apps: new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00.000Z', currency: 'EUR' }]),
    now: clock.now,
  };
  const player = (profileId: string, attributes: Record<string, unknown>) =>
    profiles.items.set(storedProfile('app_1', profileId, attributes).pk, storedProfile('app_1', profileId, attributes));
  const channel = (channelId: string, enabled = true, createdAt = '2026-02-01T00:00:00.000Z') =>
    channels.create({
      app_id: 'app_1',
      channel_id: channelId,
      name: 'News',
      from_email: 'news@casino.example',
      from_name: 'Casino',
      enabled,
      created_at: createdAt,
    });
  return { clock, templates, profiles, audit, mailer, ports, player, channel, create: (input: unknown) => createTemplate(ports)('app_1', ada, input) };
}

/** What a refused call threw; a call that resolves fails the test. */
const refused = (call: Promise<unknown>): Promise<Error> =>
  call.then(
    () => Promise.reject(new Error('expected a refusal')),
    (error: unknown) => error as Error,
  );

describe('saving templates', () => {
  test('a new template is stored at version 1 with who made it, and audited', async () => {
    const { create, audit, ports } = arrange();

    const created = await create(bilingual);

    expect(created).toMatchObject({ id: 'welcome', kind: 'email', languages: ['en', 'de'], version: 1, archived: false, updated_by: ada.email });
    expect(await getTemplate(ports)('app_1', 'welcome')).toEqual(created);
    expect(audit.entries.map((entry) => [entry.action, entry.target, entry.actor.email])).toEqual([['template.created', 'template:welcome', ada.email]]);
  });

  test('an invalid template is a 400 listing every problem, and nothing is stored', async () => {
    const { create, templates } = arrange();
    const broken = emailTemplate({ en: { subject: '{{ player.name | shout }}', html: '<p>{% if %}</p>' } }, 'fr');

    const error = await refused(create(broken));

    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([
      'default_language "fr" must have a variant',
      'variants.en.subject: unknown filter "shout" (line 1, col 1)',
      'variants.en.html: invalid value expression: "" (line 1, col 9)',
    ]);
    expect(templates.items.size).toBe(0);
  });

  test('a taken id is a 409, and so is a template past the per-application bound', async () => {
    const { create, templates } = arrange();
    await create(bilingual);
    for (let i = 1; i < TEMPLATES_PER_APP; i++) await templates.create(storedTemplate('app_1', { ...bilingual, id: `t-${i}` }));

    const taken = await refused(create(bilingual));
    const past = await refused(create({ ...bilingual, id: 'one-more' }));

    expect(taken).toBeInstanceOf(Conflict);
    expect(past).toBeInstanceOf(Conflict);
    expect(past.message).toBe(`the application has ${TEMPLATES_PER_APP} templates, the most it may keep (archived ones count)`);
  });

  test('a change names the version it read: the next version is stored; a stale one is a 409 saying someone else changed it', async () => {
    const { create, ports, audit } = arrange();
    await create(bilingual);
    const update = updateTemplate(ports);

    const first = await update('app_1', ada, 'welcome', { version: 1, template: { ...bilingual, name: 'Welcome v2' } });
    const stale = await refused(update('app_1', { user_id: 'usr_2', email: 'bo@operator.example' }, 'welcome', { version: 1, template: bilingual }));

    expect([first.version, first.name]).toEqual([2, 'Welcome v2']);
    expect(stale).toBeInstanceOf(Conflict);
    expect(stale.message).toBe('someone else changed this template meanwhile (it is at version 2 now): reload it and make your change again');
    expect((await getTemplate(ports)('app_1', 'welcome')).name).toBe('Welcome v2');
    expect(audit.entries.map((entry) => entry.action)).toEqual(['template.created', 'template.updated']);
  });

  test("a change keeps the template's id and kind", async () => {
    const { create, ports } = arrange();
    await create(bilingual);

    const error = (await refused(
      updateTemplate(ports)('app_1', ada, 'welcome', { version: 1, template: { ...pushTemplate(), id: 'other' } }),
    )) as ValidationError;

    expect(error.errors).toEqual(['id must stay welcome: save a copy as a new template instead', 'kind must stay email: make a new template for push']);
  });

  test('archiving hides a template from the list unless asked, refuses changes until restored; doing it twice changes nothing', async () => {
    const { create, ports, audit } = arrange();
    await create(bilingual);
    const archive = setTemplateArchived(ports);

    const archived = await archive('app_1', ada, 'welcome', true);
    const again = await archive('app_1', ada, 'welcome', true);
    const listed = await listTemplates(ports)('app_1');
    const all = await listTemplates(ports)('app_1', { archived: true });
    const change = await refused(updateTemplate(ports)('app_1', ada, 'welcome', { version: 2, template: bilingual }));
    const restored = await archive('app_1', ada, 'welcome', false);

    expect([archived.archived, archived.version, again.version]).toEqual([true, 2, 2]);
    expect([listed.length, all.map((found) => found.id)]).toEqual([0, ['welcome']]);
    expect(change.message).toBe('the template is archived: restore it to change it');
    expect([restored.archived, restored.version]).toEqual([false, 3]);
    expect(audit.entries.map((entry) => entry.action)).toEqual(['template.created', 'template.archived', 'template.restored']);
  });

  test('an unknown id, or one no template could have, is a 404', async () => {
    const { ports } = arrange();

    expect(await refused(getTemplate(ports)('app_1', 'nope'))).toBeInstanceOf(NotFound);
    expect(await refused(getTemplate(ports)('app_1', '../x'))).toBeInstanceOf(NotFound);
  });
});

describe('preview', () => {
  test("a player's urm_language picks the variant, and the preview says why", async () => {
    const { ports, player } = arrange();
    player('p-1', { first_name: 'Jonas', urm_language: 'de-AT' });

    const shown = await previewTemplateFor(ports)('app_1', { template: bilingual, profile_id: 'p-1', data: { amount: 25 } });

    expect(shown).toMatchObject({ language: 'de', language_reason: 'broader', subject: 'Hallo Jonas', html: '<p>25 EUR</p>' });
    expect(shown.why).toBe('urm_language de-AT has no variant; the broader de has one');
  });

  test('without a player the default language renders, with the defaults the template gives', async () => {
    const { ports, create } = arrange();
    await create(bilingual);

    const shown = await previewTemplateFor(ports)('app_1', { template_id: 'welcome', data: { amount: 10 } });

    expect(shown).toMatchObject({ language: 'en', language_reason: 'default', subject: 'Hi there', html: '<p>10 EUR at Casino</p>' });
  });

  test('an unknown player is a 404; a draft with problems a 400 naming them', async () => {
    const { ports } = arrange();

    const unknown = await refused(previewTemplateFor(ports)('app_1', { template: bilingual, profile_id: 'nobody' }));
    const draft = await refused(previewTemplateFor(ports)('app_1', { template: { ...bilingual, default_language: 'fr' } }));

    expect(unknown).toBeInstanceOf(NotFound);
    expect((draft as ValidationError).errors).toEqual(['default_language "fr" must have a variant']);
  });
});

describe('test send', () => {
  test("goes to the operator's own address only, rendered for the chosen player, marked as a test, and names no player in its tags", async () => {
    const { ports, player, channel, mailer, audit } = arrange();
    player('p-1', { first_name: 'Jonas', urm_language: 'de', email: 'jonas@player.example' });
    await channel('ch_1');

    const sent = await testSendTemplate(ports)('app_1', ada, { template: bilingual, profile_id: 'p-1', data: { amount: 5 } });

    expect(sent).toMatchObject({ to: ada.email, subject: '[Test] Hallo Jonas', language: 'de' });
    expect(mailer.sent).toEqual([
      expect.objectContaining({
        to: [ada.email],
        subject: '[Test] Hallo Jonas',
        html: '<p>5 EUR</p>',
        tags: { app_id: 'app_1', channel_id: 'ch_1', test_send: 'true' },
      }),
    ]);
    expect(audit.entries.map((entry) => [entry.action, entry.details])).toEqual([['template.test_sent', { language: 'de', profile_id: 'p-1' }]]);
  });

  test('an address in the request is not a recipient: the mail still goes to the operator alone', async () => {
    const { ports, channel, mailer } = arrange();
    await channel('ch_1');
    const request = { template: bilingual, to: 'victim@elsewhere.example', to_addresses: ['victim@elsewhere.example'] } as Parameters<
      ReturnType<typeof testSendTemplate>
    >[2];

    await testSendTemplate(ports)('app_1', ada, request);

    expect(mailer.sent.map((mail) => mail.to)).toEqual([[ada.email]]);
  });

  test('uses the first enabled channel when the template names none; no enabled channel is a 409', async () => {
    const { ports, channel, mailer } = arrange();
    await channel('ch_off', false, '2026-01-01T00:00:00.000Z');

    const none = await refused(testSendTemplate(ports)('app_1', ada, { template: bilingual }));
    await channel('ch_on');
    await testSendTemplate(ports)('app_1', ada, { template: bilingual });

    expect(none).toBeInstanceOf(Conflict);
    expect(mailer.sent.map((mail) => mail.tags.channel_id)).toEqual(['ch_on']);
  });

  test('a push template is previewed, not test-sent', async () => {
    const { ports, channel, mailer } = arrange();
    await channel('ch_1');

    const error = (await refused(testSendTemplate(ports)('app_1', ada, { template: pushTemplate() }))) as ValidationError;

    expect(error.errors).toEqual(['test send is for email templates: preview a push template instead']);
    expect(mailer.sent).toEqual([]);
  });
});
