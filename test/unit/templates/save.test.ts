import { describe, expect, test } from '@jest/globals';
import { checkTemplate, templateLimits } from '../../../functions/domain/templates';
import { emailTemplate, pushTemplate, webhookTemplate } from '../../support/templates';
import { validationProblems } from '../../support/validation';

describe('a valid template is returned as saved', () => {
  test.each([
    ['an email with a text part', emailTemplate({ en: { subject: 'Hi {{ player.first_name }}', html: '<p>Hi</p>', text: 'Hi' } })],
    ['an email in two languages', emailTemplate({ en: { subject: 'Hi', html: '<p>Hi</p>' }, 'pt-BR': { subject: 'Olá', html: '<p>Olá</p>' } })],
    ['a push with a url', pushTemplate({ en: { title: 'Hi', body: '', url: 'https://casino.example.com/promo?c={{ event.code }}' } })],
    ['a webhook', webhookTemplate('{"name": "{{ player.first_name }}", "amount": {{ event.amount | default: 0 }}, "event": {{ event | json }}}')],
  ])('%s', (_, template) => {
    expect(checkTemplate(structuredClone(template))).toEqual(template);
  });
});

describe('the shape is refused with every problem named', () => {
  test('missing fields and an unknown kind', () => {
    expect(validationProblems(checkTemplate, { kind: 'sms' })).toEqual([
      'id is required',
      'name is required',
      'default_language is required',
      'variants is required',
      'kind must be one of "email", "push", "webhook"',
    ]);
  });

  test.each([null, [], 'template'])('%p is no template', (input) => {
    expect(validationProblems(checkTemplate, input)).toEqual(['template must be an object']);
  });

  test("a variant missing its kind's parts, or carrying another kind's", () => {
    const input = { ...emailTemplate(), variants: { en: { subject: 'Hi', title: 'Hi' } } };
    expect(validationProblems(checkTemplate, input)).toEqual(['variants.en.html is required', 'variants.en.title is not allowed']);
  });

  test('an id that is not lower-case letters, digits, _ and -', () => {
    expect(validationProblems(checkTemplate, { ...emailTemplate(), id: 'Welcome Mail' })).toEqual([
      'id must be lower-case letters, digits, _ and -, at most 64, starting with a letter or digit',
    ]);
  });

  test('a variant key that is not a language tag', () => {
    const input = emailTemplate({ en: { subject: 'Hi', html: '<p>Hi</p>' }, 'en us': { subject: 'Hi', html: '<p>Hi</p>' } });
    expect(validationProblems(checkTemplate, input)).toEqual(['variants["en us"] is not allowed: the key must be a BCP 47 language tag, e.g. en or pt-BR']);
  });

  test('two keys for the same language', () => {
    const input = emailTemplate({ 'pt-BR': { subject: 'Olá', html: '<p>Olá</p>' }, 'pt-br': { subject: 'Olá', html: '<p>Olá</p>' } }, 'pt-BR');
    expect(validationProblems(checkTemplate, input)).toEqual(['variants["pt-br"] is the same language as variants["pt-BR"]']);
  });

  test('a default language without a variant', () => {
    expect(validationProblems(checkTemplate, emailTemplate(undefined, 'fr'))).toEqual(['default_language "fr" must have a variant']);
  });

  test('no variants, or more than the bound', () => {
    const many = Object.fromEntries(
      ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'sv', 'da', 'fi', 'no', 'pl', 'cs', 'sk', 'hu', 'ro', 'bg', 'el', 'tr', 'ru', 'uk'].map((l) => [
        l,
        { subject: 'x', html: 'x' },
      ]),
    );
    expect(Object.keys(many)).toHaveLength(templateLimits.variants + 1);
    expect(validationProblems(checkTemplate, emailTemplate({}))).toEqual(['variants must hold at least one variant']);
    expect(validationProblems(checkTemplate, emailTemplate(many))).toEqual([`variants must hold at most ${templateLimits.variants} variants`]);
  });

  test.each([
    [
      'subject',
      { subject: 'x'.repeat(templateLimits.subjectLength + 1), html: 'x' },
      `variants.en.subject must be at most ${templateLimits.subjectLength} characters`,
    ],
    ['html', { subject: 'x', html: 'x'.repeat(templateLimits.htmlLength + 1) }, `variants.en.html must be at most ${templateLimits.htmlLength} characters`],
    [
      'text',
      { subject: 'x', html: 'x', text: 'x'.repeat(templateLimits.textLength + 1) },
      `variants.en.text must be at most ${templateLimits.textLength} characters`,
    ],
    ['an empty subject', { subject: '', html: 'x' }, 'variants.en.subject must not be empty'],
  ])('a part past its bound: %s', (_, variant, problem) => {
    expect(validationProblems(checkTemplate, emailTemplate({ en: variant }))).toEqual([problem]);
  });

  test('variants that together outgrow what one stored item holds', () => {
    const big = { subject: 'x', html: 'é'.repeat(templateLimits.htmlLength) };
    const input = emailTemplate({ en: big, fr: big });
    expect(validationProblems(checkTemplate, input)).toEqual([`template must be at most ${templateLimits.templateBytes / 1024} KiB as JSON (it is 391 KiB)`]);
  });
});

describe('a part that does not parse is refused at save, with its field and position', () => {
  test('an unknown filter', () => {
    const input = emailTemplate({ fr: { subject: 'Bonjour', html: '<p>Bonjour</p>\n  {{ player.first_name | shout }}' } }, 'fr');
    expect(validationProblems(checkTemplate, input)).toEqual(['variants.fr.html: unknown filter "shout" (line 2, col 3)']);
  });

  test('an output never closed', () => {
    const input = emailTemplate({ en: { subject: 'Hi {{ player.first_name', html: '<p>Hi</p>' } });
    expect(validationProblems(checkTemplate, input)).toEqual(['variants.en.subject: output "{{ player.first_name" not closed (line 1, col 4)']);
  });

  test('a tag never closed', () => {
    const input = emailTemplate({ en: { subject: 'Hi', html: '<p>Hi</p>', text: 'line one\n{% if player.vip %}VIP' } });
    expect(validationProblems(checkTemplate, input)).toEqual(['variants.en.text: tag {% if player.vip %} not closed (line 2, col 1)']);
  });

  test('every broken part of every variant', () => {
    const input = pushTemplate({
      en: { title: '{{ x | nope }}', body: 'fine', url: '{{ x | nope2 }}' },
      'pt-BR': { title: 'ok', body: '{% endif %}' },
    });
    expect(validationProblems(checkTemplate, input)).toEqual([
      'variants.en.title: unknown filter "nope" (line 1, col 1)',
      'variants.en.url: unknown filter "nope2" (line 1, col 1)',
      'variants["pt-BR"].body: unknown tag "endif" (line 1, col 1)',
    ]);
  });

  test.each(['include', 'render', 'layout'])('a template cannot read another file: %s', (tag) => {
    const input = emailTemplate({ en: { subject: 'Hi', html: `{% ${tag} "secrets" %}` } });
    expect(validationProblems(checkTemplate, input)).toEqual([`variants.en.html: unknown tag "${tag}" (line 1, col 1)`]);
  });
});

describe('a push url', () => {
  test('written out must be an absolute http(s) URL', () => {
    const input = pushTemplate({ en: { title: 'Hi', body: 'x', url: 'javascript:alert(1)' } });
    expect(validationProblems(checkTemplate, input)).toEqual(['variants.en.url must be an absolute http:// or https:// URL']);
  });

  test('made of data is checked when it renders', () => {
    expect(validationProblems(checkTemplate, pushTemplate({ en: { title: 'Hi', body: 'x', url: '{{ event.link }}' } }))).toEqual([]);
  });
});

describe('a webhook url follows the postbacks rules', () => {
  test.each([
    ['plain http', 'http://hooks.example.com/urm', ['variants.en.url must be https']],
    ['a private address', 'https://10.0.0.7/urm', ['variants.en.url must not point at a private or reserved address (10.0.0.7)']],
    ['a host that is not public', 'https://localhost/urm', ['variants.en.url must name a public host (localhost)']],
    ['credentials', 'https://me:pw@hooks.example.com/urm', ['variants.en.url must not carry a user name or password']],
    ['not a URL', 'hooks', ['variants.en.url is not a URL']],
    ['data in the URL', 'https://hooks.example.com/{{ player.id }}', ['variants.en.url must be a fixed URL: put data in the body, not the URL']],
  ])('%s is refused', (_, url, problems) => {
    expect(validationProblems(checkTemplate, webhookTemplate('{}', url))).toEqual(problems);
  });

  test("a host on the operator's development list may be plain http", () => {
    const template = webhookTemplate('{}', 'http://127.0.0.1:9000/hook');
    expect(checkTemplate(template, { webhookHosts: ['127.0.0.1'] })).toEqual(template);
  });
});

describe('a webhook body must render to JSON without any data', () => {
  test('a value outside quotes with no default is refused, saying how to write it', () => {
    const problems = validationProblems(checkTemplate, webhookTemplate('{"amount": {{ event.amount }}}'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^variants\.en\.body: does not render to valid JSON when the data is missing \(.+\); write values inside quotes/);
  });

  test('text that is not JSON is refused', () => {
    expect(validationProblems(checkTemplate, webhookTemplate('amount={{ event.amount }}'))).toHaveLength(1);
  });

  test.each([
    ['inside quotes', '{"name": "{{ player.first_name }}"}'],
    ['with a default', '{"amount": {{ event.amount | default: 0 }}}'],
    ['as JSON', '{"player": {{ player | json }}, "missing": {{ event.nothing | json }}}'],
  ])('a value %s is accepted', (_, body) => {
    expect(validationProblems(checkTemplate, webhookTemplate(body))).toEqual([]);
  });
});
