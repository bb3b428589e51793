/**
 * Message templates (issue 29, "Templates"): email, web push and webhook, in
 * Liquid, with a variant per language. An operator saves one (checkTemplate:
 * every part parses, so an unknown filter or bad syntax is a 400 then, never
 * a failure at send time); a send renders it for one player (renderTemplate);
 * the console previews it (previewTemplate).
 *
 * What a template reads: `player` (the attributes), `event` (the triggering
 * event's properties), `app` (`id`, `name`) and `unsubscribe_url`. A missing
 * variable renders empty unless the template says `| default: …`; an unknown
 * filter is an error. Output is escaped for where it lands: HTML-escaped in an
 * email's html, JSON-escaped (as the inside of a JSON string) in a webhook's
 * body, as is elsewhere. `| json` writes a value as JSON and `| escape` as
 * HTML, neither escaped twice. No template reads a file: include, render and
 * layout do not exist here, and the file system refuses.
 */
import { convert } from 'html-to-text';
import { Context, filters as liquidFilters, Liquid, LiquidError, toValueSync, type Emitter, type FS, type Template as LiquidTemplate } from 'liquidjs';
import type { Attributes } from './attributes';
import { emailLimits } from './email';
import { DomainError, ValidationError } from './errors';
import { isHttpUrl } from './links';
import { postbackLimits, postbackUrlProblems } from './postbacks';
import { pushLimits } from './push';
import { isLanguageTag } from './schema-runtime';
import { identifierText } from './text';
import { compileValidator, pathOf, type FromRequestSchema } from './validation';

export const templateKinds = ['email', 'push', 'webhook'] as const;
export type TemplateKind = (typeof templateKinds)[number];

export const templateLimits = {
  nameLength: 200,
  languageLength: 35,
  variants: 20,
  /** The sources: room for Liquid around what the rendered part may hold. */
  subjectLength: 2000,
  htmlLength: 100_000,
  textLength: 50_000,
  titleLength: 1000,
  pushBodyLength: 4000,
  urlLength: 2048,
  webhookBodyLength: 20_000,
  /** The whole template as UTF-8 JSON: it is stored as one DynamoDB item (400 KB at most). */
  templateBytes: 300 * 1024,
  /** A rendered webhook body, as UTF-8. */
  webhookBodyBytes: 64 * 1024,
  /** One part's rendering: wall-clock time, Liquid's memory units (a range of n counts n; strings count their length), and output characters. */
  renderMs: 250,
  memoryUnits: 4_000_000,
  outputChars: emailLimits.bodyBytes,
} as const;

/** Ids are chosen by the operator, as segments' are: lower-case, stable, safe in a URL and a key. */
export const templateIdPattern = '^[a-z0-9][a-z0-9_-]{0,63}$';

const source = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;

export const emailVariantSchema = {
  type: 'object',
  required: ['subject', 'html'],
  properties: {
    subject: source(templateLimits.subjectLength),
    html: source(templateLimits.htmlLength),
    text: { type: 'string', maxLength: templateLimits.textLength, description: 'Derived from the html when left out.' },
  },
  additionalProperties: false,
} as const;

export const pushVariantSchema = {
  type: 'object',
  required: ['title', 'body'],
  properties: {
    title: source(templateLimits.titleLength),
    body: { type: 'string', maxLength: templateLimits.pushBodyLength },
    url: { ...source(templateLimits.urlLength), description: 'Where a click leads: an absolute http(s) URL once rendered.' },
  },
  additionalProperties: false,
} as const;

export const webhookVariantSchema = {
  type: 'object',
  required: ['url', 'body'],
  properties: {
    url: { ...source(postbackLimits.urlLength), description: 'A fixed https URL, under the rules postback URLs follow.' },
    body: { ...source(templateLimits.webhookBodyLength), description: 'A JSON text template: it must render to valid JSON.' },
  },
  additionalProperties: false,
} as const;

const variantsOf = <const V>(kind: TemplateKind, variant: V) =>
  ({
    if: { required: ['kind'], properties: { kind: { const: kind } } },
    then: { properties: { variants: { type: 'object', additionalProperties: variant } } },
  }) as const;

/** A template, as the console, the command line and the API write it. */
export const templateSchema = {
  type: 'object',
  required: ['id', 'name', 'kind', 'default_language', 'variants'],
  properties: {
    id: { type: 'string', pattern: templateIdPattern, description: 'lower-case letters, digits, _ and -, at most 64, starting with a letter or digit' },
    name: { type: 'string', minLength: 1, maxLength: templateLimits.nameLength, ...identifierText },
    kind: { enum: templateKinds },
    channel_id: {
      type: 'string',
      minLength: 1,
      maxLength: emailLimits.channelIdLength,
      ...identifierText,
      description: "An email template's sender: one of the application's email channels. Absent: the application's first enabled channel.",
    },
    default_language: { type: 'string', format: 'bcp47', maxLength: templateLimits.languageLength },
    variants: {
      type: 'object',
      minProperties: 1,
      maxProperties: templateLimits.variants,
      propertyNames: { format: 'bcp47', maxLength: templateLimits.languageLength },
      description: 'One variant per language, keyed by its BCP 47 tag.',
    },
  },
  additionalProperties: false,
  allOf: [variantsOf('email', emailVariantSchema), variantsOf('push', pushVariantSchema), variantsOf('webhook', webhookVariantSchema)],
} as const;

export type EmailVariant = FromRequestSchema<typeof emailVariantSchema>;
export type PushVariant = FromRequestSchema<typeof pushVariantSchema>;
export type WebhookVariant = FromRequestSchema<typeof webhookVariantSchema>;

interface TemplateCommon {
  id: string;
  name: string;
  default_language: string;
  channel_id?: string;
}
/** Spelled over the derived variants: json-schema-to-ts does not narrow `variants` by `kind` through if/then. */
export type EmailTemplate = TemplateCommon & { kind: 'email'; variants: Record<string, EmailVariant> };
export type PushTemplate = TemplateCommon & { kind: 'push'; variants: Record<string, PushVariant> };
export type WebhookTemplate = TemplateCommon & { kind: 'webhook'; variants: Record<string, WebhookVariant> };
export type MessageTemplate = EmailTemplate | PushTemplate | WebhookTemplate;

// The keys and their count get messages of their own (checkTemplate): the shared ones speak of attributes.
const ownMessages = new Set(['propertyNames', 'minProperties', 'maxProperties']);
const validTemplateShape = compileValidator(templateSchema, 'template', (errors) =>
  errors.filter((error) => !(error.instancePath === '/variants' && ownMessages.has(error.keyword))),
);

// ---------------------------------------------------------------- the engine

/** How a part's output is escaped: where it lands. */
type Landing = 'html' | 'plain' | 'json';
const LANDING = 'urm.landing';

/** The file system of an engine that reads no files. */
const noFiles: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async () => {
    throw new Error('templates cannot read files');
  },
  readFileSync: () => {
    throw new Error('templates cannot read files');
  },
  resolve: (_root, file) => file,
};

/** Liquid's own text of a value (nil empty, arrays joined), for the parts written as is. */
function textOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(textOf).join('');
  return String(value);
}

/** The inside of a JSON string: quotes, backslashes and control characters escaped. */
const jsonStringContent = (text: string) => JSON.stringify(text).slice(1, -1);

type FilterThis = { context: Context };
type FilterFunction = (this: FilterThis, value: unknown, ...args: unknown[]) => string;
const builtin = (name: string) => liquidFilters[name] as FilterFunction;
const landingOf = (context: Context): Landing => context.getRegister(LANDING) as Landing;

/**
 * One engine for every part: liquidjs fixes the escaping filter when it
 * parses, so the one it adds reads, at render time, where the part lands.
 */
const engine = new Liquid({
  strictFilters: true,
  strictVariables: false,
  ownPropertyOnly: true,
  relativeReference: false,
  dynamicPartials: false,
  fs: noFiles,
  root: [],
  partials: [],
  layouts: [],
  timezoneOffset: 0,
  locale: 'en-US',
  parseLimit: templateLimits.htmlLength,
  renderLimit: templateLimits.renderMs,
  memoryLimit: templateLimits.memoryUnits,
  outputEscape(this: FilterThis, value: unknown): string {
    const landing = landingOf(this.context);
    if (landing === 'html') return builtin('escape').call(this, value);
    const text = textOf(value);
    this.context.memoryLimit.use(text.length);
    return landing === 'json' ? jsonStringContent(text) : text;
  },
});
for (const tag of ['include', 'render', 'layout', 'block']) delete engine.tags[tag];

// Filters whose output is already escaped are raw (not escaped again): `{{ x | escape }}` in html is escaped once.
for (const name of ['escape', 'escape_once']) {
  engine.registerFilter(name, {
    raw: true,
    handler(this: FilterThis, value: unknown) {
      const html = builtin(name).call(this, value);
      return landingOf(this.context) === 'json' ? jsonStringContent(html) : html;
    },
  });
}
// `{{ event | json }}` is a JSON value in a webhook body (a missing one is null), and HTML-escaped in an html part.
engine.registerFilter('json', {
  raw: true,
  handler(this: FilterThis, value: unknown, space?: unknown) {
    const json = builtin('json').call(this, value ?? null, space);
    return landingOf(this.context) === 'html' ? builtin('escape').call(this, json) : json;
  },
});

/** An emitter that stops a part whose output grows past the bound (a loop over static text adds no memory units). */
class BoundedEmitter implements Emitter {
  buffer = '';
  write(html: unknown): void {
    this.buffer += textOf(html);
    if (this.buffer.length > templateLimits.outputChars) throw new OutputTooLong();
  }
}
class OutputTooLong extends Error {
  constructor() {
    super(`output longer than ${templateLimits.outputChars} characters`);
  }
}

/** Parsed sources, reused by a broadcast's thousands of renders: the most recently used, up to a bound on their text. */
const parsed = new Map<string, LiquidTemplate[]>();
let parsedChars = 0;
const PARSED_CHARS = 1_000_000;

function parse(text: string): LiquidTemplate[] {
  const found = parsed.get(text);
  if (found) {
    parsed.delete(text);
    parsed.set(text, found);
    return found;
  }
  const templates = engine.parse(text);
  for (const [oldest] of parsed) {
    if (parsedChars + text.length <= PARSED_CHARS) break;
    parsed.delete(oldest);
    parsedChars -= oldest.length;
  }
  parsed.set(text, templates);
  parsedChars += text.length;
  return templates;
}

function renderPart(text: string, scope: object, landing: Landing): string {
  const context = new Context(scope, engine.options, { sync: true }, { liquid: engine });
  context.setRegister(LANDING, landing);
  const emitter = new BoundedEmitter();
  toValueSync(engine.renderer.renderTemplates(parse(text), context, emitter));
  return emitter.buffer;
}

// ---------------------------------------------------------------- errors

export const renderFailures = ['syntax', 'limit', 'invalid_output', 'failed'] as const;
export type RenderFailure = (typeof renderFailures)[number];

/**
 * A part that did not render at send time (rare once checkTemplate passed:
 * a limit, a filter that threw on a value, a webhook body the data made
 * invalid). The message names the part and never carries the player's data.
 */
export class TemplateRenderError extends DomainError {
  override name = 'TemplateRenderError';
  constructor(
    /** `variants.fr.html` */
    readonly field: string,
    readonly failure: RenderFailure,
    readonly detail: string,
  ) {
    super(`${field}: ${detail}`);
  }
}

/** liquidjs's message without its position, in the words the docs use. */
function liquidProblem(error: LiquidError): string {
  const message = error.message.replace(/, line:\d+, col:\d+$/, '');
  const filter = /^undefined filter: (.*)$/.exec(message);
  if (filter) return `unknown filter ${JSON.stringify(filter[1])}`;
  const tag = /^tag "(.*)" not found$/.exec(message);
  if (tag) return `unknown tag ${JSON.stringify(tag[1])}`;
  return message;
}

function positionOf(error: LiquidError): string {
  const [line, col] = error.token?.getPosition() ?? [];
  return line === undefined ? '' : ` (line ${line}, col ${col})`;
}

function isLimit(error: unknown): boolean {
  return error instanceof OutputTooLong || (error instanceof Error && /limit exceeded/.test(error.message));
}

/** What went wrong rendering a part: syntax, a limit, or another failure; the message is liquidjs's, never the data. */
function renderFailure(field: string, error: unknown): TemplateRenderError {
  const cause = error instanceof LiquidError && error.originalError instanceof OutputTooLong ? error.originalError : error;
  if (cause instanceof OutputTooLong) return new TemplateRenderError(field, 'limit', cause.message);
  if (!(cause instanceof LiquidError)) return new TemplateRenderError(field, 'failed', 'the template failed to render');
  const kind: RenderFailure = cause.name === 'ParseError' || cause.name === 'TokenizationError' ? 'syntax' : isLimit(cause) ? 'limit' : 'failed';
  return new TemplateRenderError(field, kind, `${liquidProblem(cause)}${positionOf(cause)}`);
}

// ---------------------------------------------------------------- saving

const partsOf: Record<TemplateKind, readonly string[]> = {
  email: ['subject', 'html', 'text'],
  push: ['title', 'body', 'url'],
  webhook: ['body'],
};

const canonical = (tag: string) => Intl.getCanonicalLocales(tag)[0];

/** `variants.fr.html`, `variants["pt-BR"].subject`: how the schema's messages name a field. */
const variantField = (language: string, part: string) => pathOf(`/variants/${language.replace(/~/g, '~0').replace(/\//g, '~1')}/${part}`);

/** The context a webhook body must render to JSON with: no data at all. */
const emptyContext: TemplateContext = { player: {}, event: {}, app: { id: '', name: '' }, unsubscribe_url: '' };

const hasLiquid = (text: string) => text.includes('{{') || text.includes('{%');

function variantProblems(kind: TemplateKind, language: string, variant: Record<string, string | undefined>, webhookHosts: readonly string[]): string[] {
  const problems: string[] = [];
  const field = (part: string) => variantField(language, part);
  for (const part of partsOf[kind]) {
    const text = variant[part];
    if (text === undefined) continue;
    try {
      parse(text);
    } catch (error) {
      problems.push(error instanceof LiquidError ? `${field(part)}: ${liquidProblem(error)}${positionOf(error)}` : `${field(part)}: cannot be parsed`);
    }
  }
  if (problems.length > 0) return problems;
  if (kind === 'push' && variant.url !== undefined && !hasLiquid(variant.url) && !isHttpUrl(variant.url)) {
    problems.push(`${field('url')} must be an absolute http:// or https:// URL`);
  }
  if (kind === 'webhook') {
    const url = variant.url ?? '';
    // Where urm connects is fixed when the template is saved: data never chooses it.
    if (/[{}]/.test(url)) problems.push(`${field('url')} must be a fixed URL: put data in the body, not the URL`);
    else problems.push(...postbackUrlProblems(url, webhookHosts).map((problem) => `${field('url')}${problem.replace(/^url/, '')}`));
    try {
      JSON.parse(renderPart(variant.body ?? '', emptyContext, 'json'));
    } catch (error) {
      const why = error instanceof SyntaxError ? error.message : renderFailure(field('body'), error).detail;
      problems.push(
        `${field('body')}: does not render to valid JSON when the data is missing (${why}); write values inside quotes ("{{ player.first_name }}"), or with | json or | default`,
      );
    }
  }
  return problems;
}

export interface TemplateCheckOptions {
  /** The operator's development hosts a webhook may call over plain http (the postbacks' allow-list). */
  webhookHosts?: readonly string[];
}

/**
 * The template, or ValidationError with every problem: the schema's, a
 * variant key that is no language tag or that repeats another, a default
 * language without a variant, a part that does not parse (its field and
 * Liquid's line and column), a webhook URL postbacks would refuse, a webhook
 * body that does not render to JSON without data.
 */
export function checkTemplate(input: unknown, options: TemplateCheckOptions = {}): MessageTemplate {
  const problems: string[] = [];
  const variants = (input as { variants?: unknown } | null)?.variants;
  const keys = variants !== null && typeof variants === 'object' && !Array.isArray(variants) ? Object.keys(variants) : undefined;
  if (keys?.length === 0) problems.push('variants must hold at least one variant');
  if (keys !== undefined && keys.length > templateLimits.variants) problems.push(`variants must hold at most ${templateLimits.variants} variants`);
  const seen = new Map<string, string>();
  for (const key of (keys ?? []).slice(0, templateLimits.variants + 1)) {
    if (key.length > templateLimits.languageLength || !isLanguageTag(key)) {
      problems.push(`${pathOf('/variants', key)} is not allowed: the key must be a BCP 47 language tag, e.g. en or pt-BR`);
      continue;
    }
    const same = seen.get(canonical(key));
    if (same !== undefined) problems.push(`${pathOf('/variants', key)} is the same language as ${pathOf('/variants', same)}`);
    else seen.set(canonical(key), key);
  }
  let template: MessageTemplate | undefined;
  try {
    // The schema's if/then gave each kind its variants: the one cast from the checked shape to the union.
    template = validTemplateShape(input) as MessageTemplate;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problems.push(...error.errors);
  }
  if (template !== undefined && problems.length === 0) {
    if (template.channel_id !== undefined && template.kind !== 'email') problems.push(`channel_id is for email templates only (this one is ${template.kind})`);
    if (!seen.has(canonical(template.default_language))) problems.push(`default_language ${JSON.stringify(template.default_language)} must have a variant`);
    const bytes = Buffer.byteLength(JSON.stringify(template), 'utf8');
    if (bytes > templateLimits.templateBytes)
      problems.push(`template must be at most ${templateLimits.templateBytes / 1024} KiB as JSON (it is ${Math.ceil(bytes / 1024)} KiB)`);
    for (const [language, variant] of Object.entries(template.variants)) {
      problems.push(...variantProblems(template.kind, language, variant as Record<string, string | undefined>, options.webhookHosts ?? []));
    }
  }
  if (problems.length > 0 || template === undefined) throw new ValidationError(problems, 'template is invalid');
  return template;
}

// ---------------------------------------------------------------- rendering

/** What a template reads. */
export interface TemplateContext {
  player: Attributes;
  event?: Record<string, unknown>;
  app: { id: string; name: string };
  unsubscribe_url: string;
}

export const languageReasons = ['exact', 'broader', 'default'] as const;
export type LanguageReason = (typeof languageReasons)[number];

export interface LanguageChoice {
  /** The variant's key. */
  language: string;
  reason: LanguageReason;
  /** In words, for the console's preview. */
  why: string;
}

/**
 * The variant for a player's `urm_language`: the same tag (case aside), else
 * the nearest broader tag (`zh-Hant-TW` → `zh-Hant` → `zh`, `pt-BR` → `pt`:
 * RFC 4647's lookup), else the template's default.
 */
export function chooseLanguage(template: Pick<MessageTemplate, 'default_language' | 'variants'>, wanted: unknown): LanguageChoice {
  const byTag = new Map(Object.keys(template.variants).map((key) => [canonical(key).toLowerCase(), key]));
  const fallback = byTag.get(canonical(template.default_language).toLowerCase()) ?? template.default_language;
  if (typeof wanted !== 'string' || wanted === '') {
    return { language: fallback, reason: 'default', why: `the player has no urm_language: the default language ${fallback}` };
  }
  const subtags = isLanguageTag(wanted) ? canonical(wanted).toLowerCase().split('-') : [];
  const exact = byTag.get(subtags.join('-'));
  if (exact !== undefined) return { language: exact, reason: 'exact', why: `urm_language ${wanted} has its own variant` };
  for (let length = subtags.length - 1; length > 0; length--) {
    // A single-letter subtag (an extension's `u`, `x`) never ends a tag.
    if (subtags[length - 1].length === 1) continue;
    const broader = byTag.get(subtags.slice(0, length).join('-'));
    if (broader !== undefined) return { language: broader, reason: 'broader', why: `urm_language ${wanted} has no variant; the broader ${broader} has one` };
  }
  return { language: fallback, reason: 'default', why: `urm_language ${wanted} has no variant: the default language ${fallback}` };
}

export type RenderedTemplate =
  | { kind: 'email'; language: string; subject: string; html: string; text: string }
  | { kind: 'push'; language: string; title: string; body: string; url?: string }
  | { kind: 'webhook'; language: string; url: string; body: string };

/** Line breaks and controls of a one-line part (a subject, a title) become spaces: player data never breaks a header. */
const oneLine = (text: string) =>
  wellFormed(text)
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ')
    .trim();
/** A lone surrogate (from a player's data) becomes U+FFFD, so the part encodes as UTF-8. */
const wellFormed = (text: string) => text.replace(/\p{Cs}/gu, '\uFFFD');

/** An email's text part from its rendered HTML: links kept as `text [url]`, images left out. */
export function textFromHtml(html: string): string {
  return convert(html, {
    wordwrap: 78,
    selectors: [
      { selector: 'a', options: { linkBrackets: ['[', ']'], hideLinkHrefIfSameAsText: true } },
      { selector: 'img', format: 'skip' },
    ],
    limits: { maxInputLength: templateLimits.outputChars, maxDepth: 100 },
  });
}

function bounded(field: string, text: string, max: number, unit: 'characters' | 'bytes'): string {
  const size = unit === 'bytes' ? Buffer.byteLength(text, 'utf8') : text.length;
  if (size > max) throw new TemplateRenderError(field, 'limit', `renders to more than ${max} ${unit}`);
  return text;
}

/**
 * The template rendered for one player, in the variant `language` (by
 * default the player's `urm_language`) picks. Throws TemplateRenderError when
 * a part does not render or renders past its channel's bounds.
 */
export function renderTemplate(template: MessageTemplate, context: TemplateContext, language?: string): RenderedTemplate {
  return renderChosen(template, context, chooseLanguage(template, language ?? context.player.urm_language));
}

function renderChosen(template: MessageTemplate, context: TemplateContext, choice: LanguageChoice): RenderedTemplate {
  const scope = { player: context.player, event: context.event ?? {}, app: context.app, unsubscribe_url: context.unsubscribe_url };
  const field = (part: string) => variantField(choice.language, part);
  const render = (part: string, text: string, landing: Landing) => {
    try {
      return renderPart(text, scope, landing);
    } catch (error) {
      throw renderFailure(field(part), error);
    }
  };
  const { language } = choice;
  switch (template.kind) {
    case 'email': {
      const variant = template.variants[choice.language];
      const subject = bounded(field('subject'), oneLine(render('subject', variant.subject, 'plain')), emailLimits.subjectLength, 'characters');
      const html = bounded(field('html'), render('html', variant.html, 'html'), emailLimits.bodyBytes, 'bytes');
      const text = bounded(
        field('text'),
        variant.text === undefined ? textFromHtml(html) : render('text', variant.text, 'plain'),
        emailLimits.bodyBytes,
        'bytes',
      );
      return { kind: 'email', language, subject, html, text };
    }
    case 'push': {
      const variant = template.variants[choice.language];
      const title = bounded(field('title'), oneLine(render('title', variant.title, 'plain')), pushLimits.titleLength, 'characters');
      const body = bounded(field('body'), wellFormed(render('body', variant.body, 'plain')), pushLimits.bodyLength, 'characters');
      const url = variant.url === undefined ? '' : render('url', variant.url, 'plain').trim();
      if (url === '') return { kind: 'push', language, title, body };
      if (url.length > pushLimits.urlLength || !isHttpUrl(url)) {
        throw new TemplateRenderError(field('url'), 'invalid_output', 'does not render to an absolute http(s) URL');
      }
      return { kind: 'push', language, title, body, url };
    }
    case 'webhook': {
      const variant = template.variants[choice.language];
      const body = bounded(field('body'), render('body', variant.body, 'json'), templateLimits.webhookBodyBytes, 'bytes');
      try {
        JSON.parse(body);
      } catch {
        // JSON.parse's message quotes the text, which holds the player's data.
        throw new TemplateRenderError(field('body'), 'invalid_output', 'does not render to valid JSON with this data');
      }
      return { kind: 'webhook', language, url: variant.url, body };
    }
  }
}

// ---------------------------------------------------------------- preview

/** The unsubscribe link of a preview: no token is made for a message nobody is sent. */
export const PREVIEW_UNSUBSCRIBE_URL = 'https://example.com/unsubscribe?preview=1';

export type TemplatePreview = RenderedTemplate & { language_reason: LanguageReason; why: string };

/**
 * The template rendered against a player's attributes (and an event's
 * properties), with which variant was picked and why. A part that does not
 * render is a ValidationError naming it, for the operator to fix.
 */
export function previewTemplate(
  template: MessageTemplate,
  attributes: Attributes,
  eventProperties: Record<string, unknown> | undefined,
  app: { id: string; name: string },
): TemplatePreview {
  const choice = chooseLanguage(template, attributes.urm_language);
  try {
    const rendered = renderChosen(template, { player: attributes, event: eventProperties ?? {}, app, unsubscribe_url: PREVIEW_UNSUBSCRIBE_URL }, choice);
    return { ...rendered, language_reason: choice.reason, why: choice.why };
  } catch (error) {
    if (error instanceof TemplateRenderError) throw new ValidationError([error.message], 'the template does not render for this player');
    throw error;
  }
}
