/**
 * A template's editor, new or saved: its kind, name and id, the email
 * channel, and one variant per language (tabs; add and remove languages),
 * each with the fields of its kind. Beside it a live preview for a real
 * player and an example event, and (email) a test send to the signed-in
 * user's own address. The server checks the template: its problems show by
 * the fields they name, the rest above the Save button.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { Badge } from '../../../ui/design/badge';
import { ConfirmButton } from '../../../ui/design/dialog';
import { Field, fieldProps } from '../../../ui/design/field';
import { Alert, Card, PageHeader } from '../../../ui/design/page';
import { Visible, When } from '../../../ui/design/value';
import { type Failure, FormActions, FormFailure, useChange } from '../actions';
import { ApiError, getJson, postJson } from '../api';
import { ErrorNote, Loading } from '../components';
import { useSession } from '../session';
import { useApi } from '../use-api';
import { kindNames, templatePath } from './templates';

type Saved = ConsoleAnswer<'ConsoleGetTemplate'>['template'];
type Kind = Saved['kind'];
type Variant = Record<string, string>;
type Preview = ConsoleAnswer<'ConsolePreviewTemplate'>['preview'];

interface PartField {
  key: string;
  label: string;
  /** A one-line input, or a text area of this many rows. */
  rows?: number;
  code?: boolean;
  /** Left out of the template when empty. */
  optional?: boolean;
  hint?: string;
  placeholder?: string;
}

const kindFields: Record<Kind, readonly PartField[]> = {
  email: [
    { key: 'subject', label: 'Subject', placeholder: 'Welcome, {{ player.first_name | default: "friend" }}!' },
    { key: 'html', label: 'HTML', rows: 14, code: true, placeholder: '<p>Hi {{ player.first_name | default: "there" }},</p>' },
    { key: 'text', label: 'Plain text (optional)', rows: 6, code: true, optional: true, hint: 'Made from the HTML when left empty.' },
  ],
  push: [
    { key: 'title', label: 'Title', placeholder: 'Your bonus is waiting' },
    { key: 'body', label: 'Body', rows: 4, placeholder: '{{ event.amount }} free spins until midnight' },
    { key: 'url', label: 'Link (optional)', optional: true, hint: 'Where a click leads: an absolute http(s) URL once rendered.', placeholder: 'https://' },
  ],
  webhook: [
    { key: 'url', label: 'Webhook URL', hint: 'A fixed https URL; the rules postback URLs follow apply.', placeholder: 'https://hooks.example.com/urm' },
    {
      key: 'body',
      label: 'JSON body',
      rows: 10,
      code: true,
      hint: 'Values are JSON-escaped where they land; it must render to valid JSON.',
      placeholder: '{"player": "{{ player.first_name }}"}',
    },
  ],
};

const languagePattern = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/** How the server names a variant's path (functions/domain/validation.ts pathOf): `variants.en`, `variants["pt-BR"]`. */
const variantPath = (language: string) => (/^[A-Za-z_$][\w$]*$/.test(language) ? `variants.${language}` : `variants[${JSON.stringify(language)}]`);
/** The messages that name `path` (`variants.en.html must…`, `variants.en.html: unknown filter…`). */
const about = (failure: Failure | undefined, path: string) =>
  (failure?.errors ?? []).filter((message) => message.startsWith(`${path} `) || message.startsWith(`${path}:`) || message.startsWith(`${path}.`));

/** The id a name suggests: lower case, words joined by `-`. */
const idFrom = (name: string) =>
  name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 64)
    .replace(/-+$/, '');

interface Draft {
  id: string;
  name: string;
  kind: Kind;
  channel_id: string;
  default_language: string;
  /** Languages in the order of their tabs. */
  languages: string[];
  variants: Record<string, Variant>;
}

function draftOf(saved?: Saved): Draft {
  if (!saved) return { id: '', name: '', kind: 'email', channel_id: '', default_language: 'en', languages: ['en'], variants: { en: {} } };
  const { template } = saved;
  return {
    id: template.id,
    name: template.name,
    kind: template.kind,
    channel_id: template.channel_id ?? '',
    default_language: template.default_language,
    languages: Object.keys(template.variants),
    variants: Object.fromEntries(Object.entries(template.variants).map(([language, variant]) => [language, { ...(variant as Variant) }])),
  };
}

/** The template as the server takes it: the fields of its kind, optional ones only when filled. */
function templateOf(draft: Draft) {
  const fields = kindFields[draft.kind];
  return {
    id: draft.id.trim(),
    name: draft.name.trim(),
    kind: draft.kind,
    ...(draft.kind === 'email' && draft.channel_id ? { channel_id: draft.channel_id } : {}),
    default_language: draft.default_language,
    variants: Object.fromEntries(
      draft.languages.map((language) => {
        const variant = draft.variants[language] ?? {};
        return [
          language,
          Object.fromEntries(
            fields.filter((field) => !field.optional || (variant[field.key] ?? '') !== '').map((field) => [field.key, variant[field.key] ?? '']),
          ),
        ];
      }),
    ),
  };
}

const variables: readonly [string, string][] = [
  ['{{ player.first_name }}', 'Any attribute of the player: first_name, email, urm_language, your own (player.vip_level)…'],
  ['{{ event.amount }}', 'A property of the event that started the send: the entry event of a journey, the data of an API call.'],
  ['{{ app.name }}, {{ app.id }}', 'Your application.'],
  ['{{ unsubscribe_url }}', "The player's own unsubscribe link (marketing email)."],
  ['{{ player.first_name | default: "there" }}', 'A missing variable renders empty unless it has a default.'],
  ['| upcase, | capitalize, | date: "%d %b", | round: 2, | json', "Liquid's standard filters; an unknown one is refused when you save."],
  ['{% if player.vip %}…{% endif %}', 'Conditions and loops; no includes. Each part renders in at most 250 ms.'],
];

/** The language tabs: arrow keys move between them (the ARIA tabs pattern). */
function LanguageTabs({
  languages,
  active,
  defaultLanguage,
  problems,
  onSelect,
}: {
  languages: string[];
  active: string;
  defaultLanguage: string;
  problems: (language: string) => boolean;
  onSelect: (language: string) => void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    const to = event.key === 'Home' ? 0 : event.key === 'End' ? languages.length - 1 : (index + step + languages.length) % languages.length;
    if (step === 0 && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    onSelect(languages[to]!);
    list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[to]?.focus();
  };
  return (
    <div class="language-tabs" role="tablist" aria-label="Languages" ref={list}>
      {languages.map((language, index) => (
        <button
          key={language}
          type="button"
          role="tab"
          id={`tab-${language}`}
          aria-controls={`panel-${language}`}
          aria-selected={language === active}
          tabIndex={language === active ? 0 : -1}
          class={problems(language) ? 'has-problems' : undefined}
          onClick={() => onSelect(language)}
          onKeyDown={(event) => move(event, index)}
        >
          {language}
          {language === defaultLanguage && <small class="muted"> default</small>}
          {problems(language) && (
            <>
              <span class="tab-problem" aria-hidden="true">
                !
              </span>
              <span class="visually-hidden"> (has problems)</span>
            </>
          )}
        </button>
      ))}
    </div>
  );
}

function TemplateForm({ saved, onChanged }: { saved?: Saved; onChanged?: () => void }) {
  const { route } = useLocation();
  const { role } = useSession();
  const readOnly = role === 'viewer' || saved?.archived === true;
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  const [idTouched, setIdTouched] = useState(saved !== undefined);
  const [active, setActive] = useState(draft.languages[0]!);
  const [newLanguage, setNewLanguage] = useState('');
  const [languageProblem, setLanguageProblem] = useState<string>();
  const [version, setVersion] = useState(saved?.version ?? 0);
  const { busy, failed, run } = useChange('Your role may not change templates.');
  const failure = failed('save');
  const channels = useApi(() => getJson<ConsoleAnswer<'ConsoleListChannels'>>('/channels'), 'channels', role !== 'viewer');

  // A field changed since the refusal no longer shows its message: it may be fixed, and the next save says.
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const markEdited = (...paths: string[]) => setEdited((current) => new Set([...current, ...paths]));
  const isEdited = (message: string) => [...edited].some((done) => about({ message: '', errors: [message] }, done).length > 0);
  const problemsOf = (path: string) => about(failure, path).filter((message) => !isEdited(message));

  const set = (change: Partial<Draft>) => {
    markEdited(...Object.keys(change));
    setDraft((current) => ({ ...current, ...change }));
  };
  const setPart = (language: string, key: string, value: string) => {
    markEdited(`${variantPath(language)}.${key}`);
    setDraft((current) => ({ ...current, variants: { ...current.variants, [language]: { ...current.variants[language], [key]: value } } }));
  };

  const addLanguage = (event: Event) => {
    event.preventDefault();
    const language = newLanguage.trim();
    if (!languagePattern.test(language)) return setLanguageProblem('Give a language tag such as de, pt-BR or es-419.');
    if (draft.languages.some((known) => known.toLowerCase() === language.toLowerCase())) return setLanguageProblem(`${language} has a variant already.`);
    setLanguageProblem(undefined);
    // The new variant starts as a copy of the one open, to translate.
    setDraft((current) => ({
      ...current,
      languages: [...current.languages, language],
      variants: { ...current.variants, [language]: { ...current.variants[active] } },
    }));
    setActive(language);
    setNewLanguage('');
  };

  const removeLanguage = (language: string) => {
    const languages = draft.languages.filter((known) => known !== language);
    const { [language]: _removed, ...variants } = draft.variants;
    set({ languages, variants, default_language: draft.default_language === language ? languages[0]! : draft.default_language });
    setActive(languages[0]!);
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const template = templateOf(draft);
    setEdited(new Set());
    const answer = await run(
      'save',
      () =>
        saved
          ? postJson<ConsoleAnswer<'ConsoleUpdateTemplate'>>(templateApi(saved.id), { version, template })
          : postJson<ConsoleAnswer<'ConsoleCreateTemplate'>>('/templates', template),
      ({ template: stored }) => `Template “${stored.name}” saved (version ${stored.version}).`,
    );
    if (!answer) return;
    setVersion(answer.template.version);
    if (saved) onChanged?.();
    else route(templatePath(answer.template.id));
  };

  const fields = kindFields[draft.kind];
  const variant = draft.variants[active] ?? {};
  // What the page shows by a field: the details, and the open language's parts; the rest goes in the form's alert.
  const shownPaths = ['name', 'id', 'kind', 'channel_id', 'default_language', ...fields.map((field) => `${variantPath(active)}.${field.key}`)];
  const languageProblems = (language: string) => problemsOf(variantPath(language)).length > 0;
  const fieldId = (key: string) => `part-${key}`;

  return (
    <div class="template-editor">
      <form class="template-form" onSubmit={save} aria-label={saved ? 'Edit template' : 'New template'} noValidate>
        <fieldset disabled={readOnly} class="template-fields">
          <Card title="Details">
            {saved?.archived && <Alert tone="warning">This template is archived: restore it to change it.</Alert>}
            <div class="form-row">
              <Field id="template-name" label="Name" errors={problemsOf('name')}>
                <input
                  {...fieldProps('template-name', problemsOf('name'))}
                  value={draft.name}
                  onInput={(e) => {
                    const name = e.currentTarget.value;
                    set(idTouched ? { name } : { name, id: idFrom(name) });
                  }}
                  maxLength={200}
                  autocomplete="off"
                  required
                />
              </Field>
              <Field
                id="template-id"
                label="Id"
                hint={saved ? 'Journeys and broadcasts name the template by it.' : 'Journeys and broadcasts name it by this; it cannot change later.'}
                errors={problemsOf('id')}
              >
                <input
                  {...fieldProps('template-id', problemsOf('id'), true)}
                  value={draft.id}
                  onInput={(e) => {
                    setIdTouched(true);
                    set({ id: e.currentTarget.value });
                  }}
                  readOnly={saved !== undefined}
                  maxLength={64}
                  autocomplete="off"
                  spellcheck={false}
                  class="mono"
                  placeholder="e.g. welcome-email"
                  required
                />
              </Field>
            </div>
            <div class="form-row">
              <Field id="template-kind" label="Kind" hint={saved ? 'A saved template keeps its kind.' : undefined} errors={problemsOf('kind')}>
                <select
                  {...fieldProps('template-kind', problemsOf('kind'), saved !== undefined)}
                  value={draft.kind}
                  disabled={saved !== undefined}
                  onChange={(e) => set({ kind: e.currentTarget.value as Kind })}
                >
                  {(Object.keys(kindNames) as Kind[]).map((kind) => (
                    <option key={kind} value={kind}>
                      {kindNames[kind]}
                    </option>
                  ))}
                </select>
              </Field>
              {draft.kind === 'email' && (
                <Field id="template-channel" label="Channel" hint="The sender it goes out from." errors={problemsOf('channel_id')}>
                  <select
                    {...fieldProps('template-channel', problemsOf('channel_id'), true)}
                    value={draft.channel_id}
                    onChange={(e) => set({ channel_id: e.currentTarget.value })}
                  >
                    <option value="">The first enabled channel</option>
                    {channels.data?.channels.map((channel) => (
                      <option key={channel.channel_id} value={channel.channel_id}>
                        {channel.name} ({channel.from_email}){channel.enabled ? '' : ', disabled'}
                      </option>
                    ))}
                    {draft.channel_id && !channels.data?.channels.some((channel) => channel.channel_id === draft.channel_id) && (
                      <option value={draft.channel_id}>{draft.channel_id}</option>
                    )}
                  </select>
                </Field>
              )}
              <Field
                id="template-default-language"
                label="Default language"
                hint="Sent to players whose urm_language has no variant."
                errors={problemsOf('default_language')}
              >
                <select
                  {...fieldProps('template-default-language', problemsOf('default_language'), true)}
                  value={draft.default_language}
                  onChange={(e) => set({ default_language: e.currentTarget.value })}
                >
                  {draft.languages.map((language) => (
                    <option key={language} value={language}>
                      {language}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
          </Card>
          <Card title="Content">
            <div class="language-bar">
              <LanguageTabs
                languages={draft.languages}
                active={active}
                defaultLanguage={draft.default_language}
                problems={languageProblems}
                onSelect={setActive}
              />
              {!readOnly && (
                <div class="add-language">
                  <label for="new-language" class="visually-hidden">
                    New language
                  </label>
                  <input
                    id="new-language"
                    value={newLanguage}
                    onInput={(e) => setNewLanguage(e.currentTarget.value)}
                    onKeyDown={(e) => e.key === 'Enter' && addLanguage(e)}
                    placeholder="e.g. de"
                    maxLength={35}
                    autocomplete="off"
                    spellcheck={false}
                    aria-describedby={languageProblem ? 'new-language-problem' : undefined}
                  />
                  <button type="button" class="small" onClick={addLanguage}>
                    Add language
                  </button>
                </div>
              )}
            </div>
            {languageProblem && (
              <p class="field-error" id="new-language-problem" role="alert">
                {languageProblem}
              </p>
            )}
            <div role="tabpanel" id={`panel-${active}`} aria-labelledby={`tab-${active}`} class="language-panel">
              {fields.map((field) => {
                const path = `${variantPath(active)}.${field.key}`;
                const errors = problemsOf(path);
                const props = {
                  ...fieldProps(fieldId(field.key), errors, field.hint !== undefined),
                  value: variant[field.key] ?? '',
                  onInput: (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) => setPart(active, field.key, e.currentTarget.value),
                  placeholder: field.placeholder,
                  spellcheck: !field.code,
                  class: field.code ? 'mono template-code' : undefined,
                };
                return (
                  <Field key={`${active}-${field.key}`} id={fieldId(field.key)} label={`${field.label} (${active})`} hint={field.hint} errors={errors}>
                    {field.rows ? <textarea {...props} rows={field.rows} /> : <input {...props} autocomplete="off" />}
                  </Field>
                );
              })}
              {!readOnly && draft.languages.length > 1 && (
                <button type="button" class="small ghost remove-language" onClick={() => removeLanguage(active)}>
                  Remove {active}
                </button>
              )}
            </div>
            <details class="template-reference">
              <summary>Variables and filters</summary>
              <dl>
                {variables.map(([code, meaning]) => (
                  <div key={code}>
                    <dt>
                      <code>{code}</code>
                    </dt>
                    <dd>{meaning}</dd>
                  </div>
                ))}
              </dl>
            </details>
          </Card>
        </fieldset>
        {!readOnly && (
          <>
            <FormFailure
              // Once every part it named has been edited, the refusal is history: the next save says what still holds.
              failure={failure?.errors.length && failure.errors.every(isEdited) ? undefined : failure}
              not={saved ? 'Not saved' : 'Not created'}
              shown={(message) => [...shownPaths, ...edited].some((path) => about({ message: '', errors: [message] }, path).length > 0)}
            />
            <FormActions>
              <button type="submit" class="primary" aria-busy={busy === 'save'} disabled={busy !== undefined}>
                {saved ? 'Save changes' : 'Create template'}
              </button>
              <a class="button" href="/console/templates">
                Cancel
              </a>
            </FormActions>
          </>
        )}
      </form>
      <PreviewPanel template={templateOf(draft)} kind={draft.kind} live={saved !== undefined} />
    </div>
  );
}

const templateApi = (templateId: string) => `/templates/${encodeURIComponent(templateId)}`;

/** What the server said of a preview or a test send, in words. */
const refusalText = (error: unknown) =>
  error instanceof ApiError
    ? error.status === 404
      ? error.message
      : `${error.message}${error.errors.length ? `: ${error.errors.join('; ')}` : ''}`
    : 'The server could not be reached. Try again.';

function RenderedPreview({ preview }: { preview: Preview }) {
  return (
    <div class="preview-result">
      <p class="preview-language">
        <Badge tone="info">{preview.language}</Badge> <span class="muted">{preview.why}</span>
      </p>
      {preview.kind === 'email' && (
        <>
          <dl class="preview-meta">
            <dt>Subject</dt>
            <dd class="break">{preview.subject}</dd>
          </dl>
          <h3>Plain text</h3>
          <pre class="preview-text">{preview.text}</pre>
          <details class="preview-html">
            <summary>HTML source</summary>
            <pre>{preview.html}</pre>
          </details>
          <p class="muted preview-note">
            The HTML is shown as source: the console's security policy keeps a mail's own styles and images from loading here. Send yourself a test to see it as
            players will.
          </p>
        </>
      )}
      {preview.kind === 'push' && (
        <div class="push-preview">
          <strong class="break">{preview.title}</strong>
          <p class="break">{preview.body}</p>
          {preview.url && <small class="break muted">{preview.url}</small>}
        </div>
      )}
      {preview.kind === 'webhook' && (
        <>
          <dl class="preview-meta">
            <dt>POST</dt>
            <dd class="break">{preview.url}</dd>
          </dl>
          <pre class="preview-text">{preview.body}</pre>
        </>
      )}
    </div>
  );
}

/**
 * The draft rendered for a player (by profile id, or an empty one) and an
 * example event, again a moment after each change once it is live; and the
 * test send of an email.
 */
function PreviewPanel({ template, kind, live: liveAtStart }: { template: ReturnType<typeof templateOf>; kind: Kind; live: boolean }) {
  const { role, user } = useSession();
  const [profileId, setProfileId] = useState('');
  const [eventText, setEventText] = useState('');
  const [live, setLive] = useState(liveAtStart);
  const [state, setState] = useState<{ preview?: Preview; problem?: string; busy: boolean }>({ busy: false });
  const [sent, setSent] = useState<{ kind: 'success' | 'error'; text: string }>();
  const [sending, setSending] = useState(false);
  const round = useRef(0);

  let data: Record<string, unknown> | undefined;
  let dataProblem: string | undefined;
  if (eventText.trim() !== '') {
    try {
      const parsed = JSON.parse(eventText) as unknown;
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
      else dataProblem = 'The example event is a JSON object, e.g. {"amount": 50}.';
    } catch {
      dataProblem = 'The example event is not JSON yet.';
    }
  }
  const body = { template, ...(profileId.trim() ? { profile_id: profileId.trim() } : {}), ...(data ? { data } : {}) };
  const key = JSON.stringify(body);

  const render = async () => {
    const mine = ++round.current;
    setState((current) => ({ ...current, busy: true }));
    try {
      const answer = await postJson<ConsoleAnswer<'ConsolePreviewTemplate'>>('/template-previews', body);
      if (mine === round.current) setState({ preview: answer.preview, busy: false });
    } catch (error) {
      if (mine === round.current) setState({ problem: refusalText(error), busy: false });
    }
  };

  // Live: a moment after the last change, not on every key.
  useEffect(() => {
    if (!live || dataProblem) return undefined;
    const timer = setTimeout(render, 400);
    return () => clearTimeout(timer);
  }, [key, live]);

  const testSend = async () => {
    setSending(true);
    setSent(undefined);
    try {
      const answer = await postJson<ConsoleAnswer<'ConsoleTestSendTemplate'>>('/template-test-sends', body);
      setSent({ kind: 'success', text: `Test sent to ${answer.sent.to}: “${answer.sent.subject}”.` });
    } catch (error) {
      setSent({ kind: 'error', text: `Not sent: ${refusalText(error)}` });
    } finally {
      setSending(false);
    }
  };

  return (
    <aside class="template-preview" aria-labelledby="preview-heading">
      <section class="card">
        <div class="card-header">
          <h2 id="preview-heading">Preview</h2>
          {live && <Badge tone="success">live</Badge>}
        </div>
        <form
          class="preview-inputs"
          aria-label="Preview with"
          onSubmit={(event) => {
            event.preventDefault();
            setLive(true);
            if (!dataProblem) void render();
          }}
        >
          <Field id="preview-player" label="Player (profile id)" hint="Their attributes and urm_language; empty: a player with no attributes.">
            <input
              {...fieldProps('preview-player', undefined, true)}
              value={profileId}
              onInput={(e) => setProfileId(e.currentTarget.value)}
              autocomplete="off"
              spellcheck={false}
            />
          </Field>
          <Field
            id="preview-event"
            label="Example event (JSON, optional)"
            hint="What the template reads as event."
            errors={dataProblem ? [dataProblem] : undefined}
          >
            <textarea
              {...fieldProps('preview-event', dataProblem ? [dataProblem] : undefined, true)}
              class="mono"
              rows={3}
              value={eventText}
              onInput={(e) => setEventText(e.currentTarget.value)}
              placeholder='{"amount": 50, "currency": "EUR"}'
              spellcheck={false}
            />
          </Field>
          <div class="cluster">
            <button type="submit" aria-busy={state.busy}>
              Preview
            </button>
            {kind === 'email' && role !== 'viewer' && (
              <button type="button" onClick={testSend} aria-busy={sending} disabled={sending}>
                Send test to me
              </button>
            )}
          </div>
          {kind === 'email' && role !== 'viewer' && <small class="muted">A test goes to {user.email} only, with “[Test]” before its subject.</small>}
          {kind !== 'email' && (
            <small class="muted">Test sends are for email: a push goes to a player's browsers and a webhook to a live system, so check them here.</small>
          )}
        </form>
        {sent && (
          <p role={sent.kind === 'error' ? 'alert' : 'status'} class={sent.kind}>
            {sent.text}
          </p>
        )}
        <div aria-live="polite" class="preview-output">
          {state.problem && <Alert tone="warning">Cannot preview: {state.problem}</Alert>}
          {!state.problem && state.preview && <RenderedPreview preview={state.preview} />}
          {!state.problem && !state.preview && <p class="muted">Choose a player (or none) and press Preview: the preview then follows your changes.</p>}
        </div>
      </section>
    </aside>
  );
}

export function NewTemplatePage() {
  return (
    <>
      <PageHeader
        trail={[{ label: 'Templates', href: '/console/templates' }, { label: 'New template' }]}
        title="New template"
        subtitle="Write it once per language; each player gets the variant of their urm_language, or the default."
      />
      <TemplateForm />
    </>
  );
}

export function TemplatePage({ id }: { id: string }) {
  const { role } = useSession();
  const loaded = useApi(() => getJson<ConsoleAnswer<'ConsoleGetTemplate'>>(templateApi(id)), id);
  const { busy, failure, run } = useChange('Your role may not change templates.');
  const saved = loaded.data?.template;
  const setArchived = async (archived: boolean) => {
    const answer = await run(
      archived ? 'archive' : 'restore',
      () => postJson<ConsoleAnswer<'ConsoleArchiveTemplate'>>(`${templateApi(id)}/${archived ? 'archive' : 'restore'}`),
      ({ template }) => `Template “${template.name}” ${archived ? 'archived' : 'restored'}.`,
    );
    if (answer) loaded.reload();
  };
  return (
    <>
      <PageHeader
        trail={[{ label: 'Templates', href: '/console/templates' }, { label: saved ? saved.name : <Visible text={id} /> }]}
        title={saved ? saved.name : 'Template'}
        subtitle={
          saved && (
            <>
              {kindNames[saved.kind]} · version {saved.version} · updated <When at={saved.updated_at} />
              {saved.updated_by && ` by ${saved.updated_by}`}
              {saved.archived && (
                <>
                  {' '}
                  <Badge>archived</Badge>
                </>
              )}
            </>
          )
        }
        actions={
          saved &&
          role !== 'viewer' &&
          (saved.archived ? (
            <button type="button" onClick={() => setArchived(false)} aria-busy={busy === 'restore'} disabled={busy !== undefined}>
              Restore
            </button>
          ) : (
            <ConfirmButton
              class=""
              label="Archive"
              title="Archive this template?"
              confirmLabel="Archive template"
              onConfirm={() => setArchived(true)}
              busy={busy === 'archive'}
            >
              Journeys and broadcasts can no longer pick it; those that use it now still send it. You can restore it later.
            </ConfirmButton>
          ))
        }
      />
      {failure && <FormFailure failure={failure} not="Not changed" />}
      {loaded.error && <ErrorNote error={loaded.error} />}
      {!saved && loaded.loading && <Loading what="the template" />}
      {/* Keyed by version and state: the form starts again from what the server holds after a restore or archive. */}
      {saved && <TemplateForm key={`${saved.archived}`} saved={saved} onChanged={loaded.reload} />}
    </>
  );
}
