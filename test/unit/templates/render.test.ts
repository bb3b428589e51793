import { describe, expect, test } from '@jest/globals';
import { renderTemplate, TemplateRenderError, templateLimits, textFromHtml } from '../../../functions/domain/templates';
import { emailTemplate, pushTemplate, sendContext, thrownBy, webhookTemplate } from '../../support/templates';

const email = (subject: string, html = '<p>x</p>', text?: string) => emailTemplate({ en: { subject, html, ...(text === undefined ? {} : { text }) } });
const subjectOf = (subject: string, player = {}, event = {}) => {
  const rendered = renderTemplate(email(subject), sendContext(player, event));
  if (rendered.kind !== 'email') throw new Error('not an email');
  return rendered.subject;
};
const emailOf = (html: string, text?: string, player = {}) => {
  const rendered = renderTemplate(email('Hi', html, text), sendContext(player));
  if (rendered.kind !== 'email') throw new Error('not an email');
  return rendered;
};

describe('variables', () => {
  test("the player's attributes, the event's properties, the application and the unsubscribe URL", () => {
    const subject = subjectOf(
      '{{ player.first_name }}: {{ event.amount }} {{ event.currency }} at {{ app.name }} ({{ app.id }}) {{ unsubscribe_url }}',
      { first_name: 'Ana' },
      { amount: '50.00', currency: 'EUR' },
    );
    expect(subject).toBe('Ana: 50.00 EUR at Lucky Casino (casino-1) https://urm.example.com/u/token-1');
  });

  test('a missing variable renders empty', () => {
    expect(subjectOf('Hi {{ player.first_name }}!')).toBe('Hi !');
  });

  test('default stands in for a missing variable, not for a present one', () => {
    expect(subjectOf('Hi {{ player.first_name | default: "there" }}')).toBe('Hi there');
    expect(subjectOf('Hi {{ player.first_name | default: "there" }}', { first_name: 'Ana' })).toBe('Hi Ana');
  });

  test('a null attribute (an unset value) renders like a missing one', () => {
    expect(subjectOf('[{{ player.vip }}]', { vip: null })).toBe('[]');
  });

  test('filters and tags work on the data', () => {
    expect(
      subjectOf(
        '{% if player.vip %}VIP {% endif %}{{ player.first_name | upcase }} {{ event.amount | plus: 10 }}',
        { vip: true, first_name: 'ana' },
        { amount: 5 },
      ),
    ).toBe('VIP ANA 15');
  });

  test("an object's inherited properties are not reachable", () => {
    expect(subjectOf('[{{ player.constructor }}{{ player.__proto__ }}{{ event.toString }}]', { first_name: 'Ana' })).toBe('[]');
  });
});

describe('escaping by where a part lands', () => {
  const hostile = '<script>alert("x")</script> & \'y\'';

  test('html escapes values', () => {
    expect(emailOf('<p>{{ player.first_name }}</p>', undefined, { first_name: hostile }).html).toBe(
      '<p>&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; &#39;y&#39;</p>',
    );
  });

  test("html's own markup stays as written", () => {
    expect(emailOf('<p class="a">Hi &amp; welcome</p>').html).toBe('<p class="a">Hi &amp; welcome</p>');
  });

  test('a value escaped by the template is not escaped twice', () => {
    expect(emailOf('{{ player.first_name | escape }}', undefined, { first_name: 'a & b' }).html).toBe('a &amp; b');
  });

  test("raw is the template's own choice to write a value unescaped", () => {
    expect(emailOf('{{ player.badge | raw }}', undefined, { badge: '<b>VIP</b>' }).html).toBe('<b>VIP</b>');
  });

  test('json in html is escaped', () => {
    expect(emailOf('{{ player | json }}', undefined, { n: '</p>' }).html).toBe('{&#34;n&#34;:&#34;&lt;/p&gt;&#34;}');
  });

  test('subject and text are written as is', () => {
    expect(subjectOf('{{ player.first_name }}', { first_name: hostile })).toBe(hostile);
    expect(emailOf('<p>x</p>', '{{ player.first_name }}', { first_name: hostile }).text).toBe(hostile);
  });

  test("a line break in the data never breaks a subject's header", () => {
    expect(subjectOf('Hi {{ player.first_name }}', { first_name: 'Ana\r\nBcc: all@example.com' })).toBe('Hi Ana Bcc: all@example.com');
  });

  test('a push title is one line and its body keeps its lines', () => {
    const rendered = renderTemplate(
      pushTemplate({ en: { title: 'Hi {{ player.first_name }}', body: '{{ player.first_name }}' } }),
      sendContext({ first_name: 'A\nB' }),
    );
    expect(rendered).toEqual({ kind: 'push', language: 'en', title: 'Hi A B', body: 'A\nB' });
  });
});

describe('the text part of an email', () => {
  test('is derived from the html when the template has none, links kept as "text [url]"', () => {
    const rendered = emailOf(
      '<h1>Welcome</h1><p>Hi {{ player.first_name }}, <a href="https://casino.example.com/bonus">claim your bonus</a>.</p><img src="https://x.example/p.gif" alt="logo">',
      undefined,
      {
        first_name: 'Ana & Bo',
      },
    );
    expect(rendered.text).toBe('WELCOME\n\nHi Ana & Bo, claim your bonus [https://casino.example.com/bonus].');
  });

  test("is the template's own when it has one", () => {
    expect(emailOf('<p>html</p>', 'Plain {{ player.first_name }}', { first_name: 'Ana' }).text).toBe('Plain Ana');
  });

  test('keeps a link whose text is its address once', () => {
    expect(textFromHtml('<a href="https://urm.example.com/u/1">https://urm.example.com/u/1</a>')).toBe('https://urm.example.com/u/1');
  });
});

describe('push url', () => {
  test('renders with data', () => {
    const template = pushTemplate({ en: { title: 'Hi', body: 'x', url: 'https://casino.example.com/promo/{{ event.code }}' } });
    expect(renderTemplate(template, sendContext({}, { code: 'SPIN10' }))).toMatchObject({ url: 'https://casino.example.com/promo/SPIN10' });
  });

  test('that renders empty is left out', () => {
    const template = pushTemplate({ en: { title: 'Hi', body: 'x', url: '{{ event.link }}' } });
    expect(renderTemplate(template, sendContext())).toEqual({ kind: 'push', language: 'en', title: 'Hi', body: 'x' });
  });

  test('that does not render to an http(s) URL is a render error', () => {
    const template = pushTemplate({ en: { title: 'Hi', body: 'x', url: '{{ event.link }}' } });
    const error = thrownBy(() => renderTemplate(template, sendContext({}, { link: 'javascript:alert(1)' })));
    expect(error).toBeInstanceOf(TemplateRenderError);
    expect(error).toMatchObject({ field: 'variants.en.url', failure: 'invalid_output' });
  });
});

describe('webhook body', () => {
  const values = ['say "hi"', 'line one\nline two\r\n\ttab', 'back\\slash', '\u2028separator\u2029', 'nul\u0000', '</script>', 'ünï 😀'];

  test.each(values)('a value inside quotes is JSON-escaped: %j', (value) => {
    const rendered = renderTemplate(
      webhookTemplate('{"name": "{{ player.first_name }}", "greeting": "Hi {{ player.first_name }}!"}'),
      sendContext({ first_name: value }),
    );
    expect(rendered.kind === 'webhook' && JSON.parse(rendered.body)).toEqual({ name: value, greeting: `Hi ${value}!` });
  });

  test('json writes a value as JSON, and a missing one as null', () => {
    const rendered = renderTemplate(
      webhookTemplate('{"event": {{ event | json }}, "tags": {{ player.tags | json }}, "gone": {{ player.gone | json }}}'),
      sendContext({ tags: ['a"b', 'c'] }, { amount: 5, note: 'x\ny' }),
    );
    expect(rendered.kind === 'webhook' && JSON.parse(rendered.body)).toEqual({ event: { amount: 5, note: 'x\ny' }, tags: ['a"b', 'c'], gone: null });
  });

  test('a number outside quotes is written as a number', () => {
    const rendered = renderTemplate(webhookTemplate('{"amount": {{ event.amount | default: 0 }}}'), sendContext({}, { amount: 12.5 }));
    expect(rendered).toEqual({ kind: 'webhook', language: 'en', url: 'https://hooks.example.com/urm', body: '{"amount": 12.5}' });
  });

  test('data that makes the body invalid JSON is a render error that does not quote the data', () => {
    const template = webhookTemplate('{"amount": {{ event.amount | default: 0 }}}');
    const error = thrownBy(() => renderTemplate(template, sendContext({}, { amount: 'Ana Secret' })));
    expect(error).toBeInstanceOf(TemplateRenderError);
    expect(error).toMatchObject({ field: 'variants.en.body', failure: 'invalid_output' });
    expect((error as Error).message).not.toContain('Secret');
  });
});

describe('limits', () => {
  const failureOf = (html: string) => {
    const error = thrownBy(() => renderTemplate(email('Hi', html), sendContext()));
    expect(error).toBeInstanceOf(TemplateRenderError);
    return error as TemplateRenderError;
  };

  test('a loop of a million iterations stops at the render limit', () => {
    const error = failureOf('{% for i in (1..1000000) %}{{ i }}{% endfor %}');
    expect(error).toMatchObject({ field: 'variants.en.html', failure: 'limit' });
    expect(error.detail).toMatch(/^template render limit exceeded/);
  });

  test('a range too large to hold stops at the memory limit', () => {
    const error = failureOf(`{% for i in (1..${templateLimits.memoryUnits + 1}) %}x{% endfor %}`);
    expect(error).toMatchObject({ failure: 'limit' });
    expect(error.detail).toMatch(/^memory alloc limit exceeded/);
  });

  test('a string doubled over and over stops at the memory limit', () => {
    const error = failureOf('{% assign s = "xxxxxxxx" %}{% for i in (1..40) %}{% capture s %}{{ s }}{{ s }}{% endcapture %}{% endfor %}{{ s | size }}');
    expect(error.detail).toMatch(/^memory alloc limit exceeded/);
  });

  test('output past the bound stops the render', () => {
    // Few iterations of a long text: the output bound, not the time limit, is what stops it.
    const error = failureOf(`{% for i in (1..1000) %}${'0123456789'.repeat(100)}{% endfor %}`);
    expect(error).toMatchObject({ failure: 'limit' });
    expect(error.detail).toBe(`output longer than ${templateLimits.outputChars} characters`);
  });

  test('a subject past its channel bound is a render error', () => {
    const error = thrownBy(() => renderTemplate(email('{{ player.bio }}'), sendContext({ bio: 'x'.repeat(999) })));
    expect(error).toMatchObject({ field: 'variants.en.subject', failure: 'limit', detail: 'renders to more than 998 characters' });
  });
});

describe('a template saved before a rule existed', () => {
  test('still fails with a typed error naming the part, not an untyped throw', () => {
    const error = thrownBy(() => renderTemplate(email('{{ x | shout }}'), sendContext()));
    expect(error).toBeInstanceOf(TemplateRenderError);
    expect(error).toMatchObject({ field: 'variants.en.subject', failure: 'syntax', message: 'variants.en.subject: unknown filter "shout" (line 1, col 1)' });
  });
});
