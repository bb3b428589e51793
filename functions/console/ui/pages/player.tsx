/**
 * One player, whole: its name and id, status badges (RG, consent,
 * suppression, the affiliate it counts for), activity (player-facts.tsx) and
 * lifetime money (player-money.tsx), attributes shown as values (the
 * integrator's apart from the service's `urm_*`), push devices, affiliate
 * attribution, rejections, and the timeline (newest first, paged, money and
 * system events as sentences, filtered by event name and dates on the
 * server). Admins and marketers may set or unset an attribute and message
 * the player; a change goes through the stream and shows here once the
 * consumer applied it.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import type { ConsoleAnswer } from '../../answers';
import { Badge, ConsentBadge, RgBadge } from '../../../ui/design/badge';
import { Field, errorsFor, fieldProps, otherErrors } from '../../../ui/design/field';
import { Alert, PageHeader, TableRegion } from '../../../ui/design/page';
import { useToast } from '../../../ui/design/toast';
import { Value, Visible, When } from '../../../ui/design/value';
import { ApiError, getJson, postJson } from '../api';
import { ErrorNote, Loading } from '../components';
import { describeEvent, type EventNames, eventDetails } from '../events';
import { useSession } from '../session';
import { useApi } from '../use-api';
import { SendEmail, SendPush } from './messaging';
import { PlayerFacts, playerName } from './player-facts';
import { PlayerMoneyCards } from './player-money';
import { PlayerJourneys } from './player-journeys';

export const TIMELINE_PAGE_SIZE = 25;

type PlayerView = ConsoleAnswer<'ConsoleGetPlayer'>;
type AttributeRow = PlayerView['attributes'][number];
/** After a change, how often and how long the page reads the player again to show it applied (bounded). */
const refreshDelaysMs = [400, 800, 1500, 3000, 5000];

/** A card whose heading id is given: the page's tests and links find the sections by it. */
function Section({ id, title, aside, children }: { id: string; title: string; aside?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="card" aria-labelledby={id}>
      <div class="card-header">
        <h2 id={id}>{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

export function PlayerPage({ id }: { id: string }) {
  const { role } = useSession();
  const path = `/players/${encodeURIComponent(id)}`;
  const player = useApi(() => getJson<PlayerView>(path), id);
  // The application's channels, for Send email and for naming channels on the timeline (a viewer may not list them).
  const channels = useApi(() => getJson<ConsoleAnswer<'ConsoleListChannels'>>('/channels'), 'channels', role !== 'viewer');
  const names = useMemo<EventNames>(() => {
    const byId = new Map(channels.data?.channels.map((channel) => [channel.channel_id, channel.name]));
    return { channel: (channelId) => byId.get(channelId) };
  }, [channels.data]);
  const [changes, setChanges] = useState(0);
  // A message's event reaches the timeline through the stream: read it again a few times (bounded).
  const timelineSoon = () => {
    for (const delay of refreshDelaysMs) setTimeout(() => setChanges((n) => n + 1), delay);
  };
  const trail = [{ label: 'Players', href: '/console/players' }, { label: <Visible text={id} /> }];

  if (player.error?.status === 404)
    return (
      <>
        <PageHeader trail={trail} title={<Visible text={id} />} />
        <Alert tone="danger">There is no player with this id in this application.</Alert>
      </>
    );

  const view = player.data;
  const name = view && playerName(view.attributes);
  return (
    <>
      <PageHeader
        trail={trail}
        title={name ? <Visible text={name} /> : <Visible text={id} />}
        subtitle={
          view && (
            <span class="player-summary">
              {name && (
                <span class="player-id">
                  ID{' '}
                  <code>
                    <Visible text={id} />
                  </code>
                </span>
              )}
              <span>
                Last updated <When at={view.updated_at} />
              </span>
              <PlayerBadges view={view} />
              {view.attribution && (
                <a class="badge tone-accent player-attribution" href={`/console/affiliates/${encodeURIComponent(view.attribution.affiliate_id)}`}>
                  Affiliate <Visible text={view.attribution.affiliate_id} />
                </a>
              )}
              <GateLines gate={view.gate} />
            </span>
          )
        }
      />
      {player.error && <PlayerError error={player.error} />}
      {view && (
        <div class="player-overview">
          <PlayerFacts activity={view.activity} />
          <PlayerMoneyCards money={view.money} />
        </div>
      )}
      {!player.error && (
        <div class={view ? 'player-layout with-side' : 'player-layout'}>
          <div class="player-main">
            {!view && player.loading && <Loading what="the player" />}
            {view && (
              <Section id="section-attributes" title="Attributes" aside={<span class="muted">{countOf(view.attributes.length, 'attribute')}</span>}>
                <Attributes view={view} />
                {role !== 'viewer' && <ChangeAttribute path={path} onChanged={() => setChanges((n) => n + 1)} refresh={player.reload} />}
              </Section>
            )}
            {/* Not waiting for the player: the timeline reads by its id, in parallel with it (an unknown id shows the 404 above instead). */}
            <Timeline path={path} changes={changes} names={names} eventNames={view?.activity.event_names ?? []} />
          </div>
          {view && (
            <div class="player-side">
              <Section id="section-journeys" title="Journeys">
                <PlayerJourneys path={path} changes={changes} />
              </Section>
              <Section id="section-push" title="Push">
                <Push view={view} />
              </Section>
              <Section id="section-affiliate" title="Affiliate">
                <Affiliate view={view} />
              </Section>
              <Section id="section-rejected-records" title="Rejected records">
                <Rejections view={view} />
              </Section>
              {role !== 'viewer' && (
                <Section id="section-message-the-player" title="Message the player">
                  <SendEmail path={path} channels={channels} topics={view.topics} onSent={timelineSoon} />
                  <hr />
                  <SendPush path={path} unavailable={pushUnavailable(view)} topics={view.topics} onSent={timelineSoon} />
                </Section>
              )}
            </div>
          )}
        </div>
      )}
    </>
  );
}

const countOf = (count: number, noun: string) => `${count.toLocaleString('en-GB')} ${noun}${count === 1 ? '' : 's'}`;

/** A 400 on the id itself is an id stored before the identifier rule: say so, beside the id shown with its marks. */
function PlayerError({ error }: { error: ApiError }) {
  if (error.status === 400 && error.errors.some((message) => message.startsWith('profile_id ')))
    return (
      <Alert tone="danger" title="This player's id cannot be read here">
        It holds a character the service no longer accepts in an id (marked above), stored before that rule. Its records stay as they are; the API refuses reads
        and writes under this id.
      </Alert>
    );
  return <ErrorNote error={error} />;
}

/** Why no push can reach the player, as the server would refuse it (functions/back-office/messaging.ts); undefined when one can. */
export function pushUnavailable(view: Pick<PlayerView, 'push'>): string | undefined {
  if (view.push.receives_notifications === false) return 'Not possible: the player does not receive notifications (urm_receives_notifications is false).';
  if (!view.push.devices.some((device) => device.platform === 'web'))
    return 'Not possible: the player has no web push device. One is added when the player allows notifications on the site.';
  return undefined;
}

export interface Badges {
  rg: { status: string; until?: string; ended: boolean };
  /** Channel and its consent; undefined when none is stored (no consent for email and SMS). */
  consent: [string, boolean | undefined][];
}

/**
 * The CRM attributes as badges (docs/api.md, "CRM attributes"): the
 * responsible-gambling status (absent = none; ended once urm_rg_until has
 * passed), email and SMS consent (absent = no consent), and push
 * (urm_receives_notifications) when it is stated.
 */
export function playerBadges(attributes: readonly Pick<AttributeRow, 'name' | 'value'>[], now = Date.now()): Badges {
  const byName = new Map(attributes.map((attribute) => [attribute.name, attribute.value]));
  const status = byName.get('urm_rg_status');
  const until = byName.get('urm_rg_until');
  const untilText = typeof until === 'string' ? until : undefined;
  const rgStatus = typeof status === 'string' ? status : 'none';
  const ended = rgStatus !== 'none' && untilText !== undefined && Date.parse(untilText) <= now;
  const stated = (name: string) => {
    const value = byName.get(name);
    return typeof value === 'boolean' ? value : undefined;
  };
  const consent: [string, boolean | undefined][] = [
    ['Email', stated('urm_consent_email')],
    ['SMS', stated('urm_consent_sms')],
  ];
  const push = stated('urm_receives_notifications');
  if (push !== undefined) consent.push(['Push', push]);
  return { rg: { status: rgStatus, ...(untilText ? { until: untilText } : {}), ended }, consent };
}

function PlayerBadges({ view }: { view: PlayerView }) {
  const { rg, consent } = playerBadges(view.attributes);
  return (
    <span class="cluster player-badges">
      <RgBadge status={rg.status} until={rg.until} ended={rg.ended} />
      {consent.map(([channel, given]) => (
        <ConsentBadge key={channel} channel={channel} consent={given} />
      ))}
      {view.suppressed && (
        <Badge tone="danger" title="The email address bounced or complained (urm_email_suppressed): no email is sent to it">
          Suppressed
        </Badge>
      )}
    </span>
  );
}

const gateChannelWords = { email: 'Email', push: 'Push' } as const;
const verdictTones = { send: 'success', defer: 'warning', refuse: 'danger' } as const;

/** The gate's answer to a marketing message now, as a sentence: "would be sent", "would be refused: …", "would be deferred: …". */
export function gateSentence(line: PlayerView['gate']['email']): string {
  if (line.verdict === 'send') return 'would be sent';
  return `${line.verdict === 'defer' ? 'would be deferred' : 'would be refused'}: ${line.detail ?? line.reason ?? 'no reason given'}`;
}

function GateLines({ gate }: { gate: PlayerView['gate'] }) {
  return (
    <ul class="player-gate" aria-label="Marketing now (the send gate)">
      {(['email', 'push'] as const).map((channel) => (
        <li key={channel} class={`tone-${verdictTones[gate[channel].verdict]}`}>
          <strong>{gateChannelWords[channel]}:</strong> {gateSentence(gate[channel])}
        </li>
      ))}
    </ul>
  );
}

const pushTokenNames = new Set(['urm_web_push_notification_token', 'urm_ios_push_notification_token', 'urm_android_push_notification_token']);

function Attributes({ view }: { view: PlayerView }) {
  if (view.attributes.length === 0) return <p class="muted">No attributes.</p>;
  // The integrator's own first; the service's urm_* (CRM, affiliate, push) apart, after them.
  const own = view.attributes.filter((attribute) => !attribute.name.startsWith('urm_'));
  const system = view.attributes.filter((attribute) => attribute.name.startsWith('urm_'));
  return (
    <>
      {own.length > 0 ? <AttributeTable rows={own} label="Attributes (scrolls)" /> : <p class="muted attributes-none">No attributes of your own.</p>}
      {system.length > 0 && (
        <>
          <h3 class="attributes-group" id="system-attributes">
            System attributes <span class="muted">(urm_)</span>
          </h3>
          <AttributeTable rows={system} label="Set by the service (scrolls)" />
        </>
      )}
    </>
  );
}

function AttributeTable({ rows, label }: { rows: AttributeRow[]; label: string }) {
  return (
    <TableRegion label={label} class="attributes">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((attribute) => (
            <tr key={attribute.name}>
              <th scope="row" class="attribute-name">
                <Visible text={attribute.name} />
              </th>
              <td class="attribute-type">{attribute.type}</td>
              <td class="attribute-value">
                {/* Push tokens are credentials, and long: the Push card shows the devices. */}
                {pushTokenNames.has(attribute.name) && Array.isArray(attribute.value) ? (
                  <span class="muted" title="Type: list">
                    {countOf(attribute.value.length, 'device')} (see Push)
                  </span>
                ) : (
                  <Value value={attribute.value} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

function Push({ view }: { view: PlayerView }) {
  const receives = view.push.receives_notifications;
  return (
    <>
      <dl class="pairs">
        <div>
          <dt>Receives notifications</dt>
          <dd>
            {receives === null ? <span class="value-empty">not set</span> : <Badge tone={receives ? 'success' : 'warning'}>{receives ? 'Yes' : 'No'}</Badge>}
          </dd>
        </div>
      </dl>
      {view.push.devices.length === 0 ? (
        <p class="muted">No push devices.</p>
      ) : (
        <ul class="devices">
          {view.push.devices.map((device, i) => (
            <li key={i}>
              <Badge tone="info">{device.platform === 'web' ? 'Web' : device.platform === 'ios' ? 'iOS' : 'Android'}</Badge>{' '}
              {device.platform === 'web' ? `via ${device.service ?? 'an unknown service'}` : `device …${device.token_end ?? ''}`}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Affiliate({ view }: { view: PlayerView }) {
  const affiliate = view.affiliate;
  if (!affiliate) return <p class="muted">Not attributed to an affiliate.</p>;
  const shown = (value: string | null) => (value === null ? <span class="value-empty">none</span> : <Visible text={value} />);
  return (
    <dl class="pairs">
      <div>
        <dt>Affiliate</dt>
        <dd>
          {affiliate.urm_aff_id === null ? (
            shown(null)
          ) : (
            <a href={`/console/affiliates/${encodeURIComponent(affiliate.urm_aff_id)}`} class="break">
              <Visible text={affiliate.urm_aff_id} />
            </a>
          )}
        </dd>
      </div>
      <div>
        <dt>Link</dt>
        <dd class="break">{shown(affiliate.urm_aff_link_id)}</dd>
      </div>
      <div>
        <dt>Sub-id</dt>
        <dd class="break">{shown(affiliate.urm_aff)}</dd>
      </div>
    </dl>
  );
}

function Rejections({ view }: { view: PlayerView }) {
  const more = view.rejections_complete ? null : (
    <p class="muted">
      Only the application's newest rejections were looked through; <a href="/console/rejections">Rejections</a> lists them all.
    </p>
  );
  if (view.rejections.length === 0)
    return (
      <>
        <p class="muted">None.</p>
        {more}
      </>
    );
  return (
    <>
      <ul class="rejection-list">
        {view.rejections.map((rejection) => (
          <li key={rejection.urm_insert_id}>
            <span class="muted">
              <When at={rejection.rejected_at} />
            </span>{' '}
            <Badge tone="danger">{rejection.kind}</Badge> <code>{rejection.urm_insert_id}</code>
            <p class="reason">{rejection.reason}</p>
          </li>
        ))}
      </ul>
      {more}
    </>
  );
}

type ValueKind = 'text' | 'number' | 'boolean' | 'json';

/** The value as typed, in the kind chosen; a message naming the problem when it is not one. */
export function parseValue(kind: ValueKind, raw: string): { value: unknown } | { error: string } {
  if (kind === 'text') return { value: raw };
  if (kind === 'number') {
    const number = Number(raw.trim());
    return raw.trim() !== '' && Number.isFinite(number) ? { value: number } : { error: 'value must be a number' };
  }
  if (kind === 'boolean') return raw === 'true' || raw === 'false' ? { value: raw === 'true' } : { error: 'value must be true or false' };
  try {
    return { value: JSON.parse(raw) as unknown };
  } catch {
    return { error: 'value must be JSON, e.g. ["a", 1]' };
  }
}

/** The server's refusal in words for the form's own alert: what no field shows. */
function formProblem(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return 'The server could not be reached. Try again.';
  if (error.status === 403) return 'Your role may not change players.';
  if (error.status === 400 && error.errors.length > 0) {
    const rest = otherErrors(error.errors, ['attribute', 'value']);
    return rest.length > 0 ? rest.join('; ') : undefined;
  }
  return error.message;
}

function ChangeAttribute({ path, onChanged, refresh }: { path: string; onChanged: () => void; refresh: () => void }) {
  const notify = useToast();
  const [action, setAction] = useState<'set' | 'unset'>('set');
  const [attribute, setAttribute] = useState('');
  const [kind, setKind] = useState<ValueKind>('text');
  const [raw, setRaw] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  // After a change, read the player and timeline again a few times: the consumer applies it within seconds.
  const [refreshes, setRefreshes] = useState(0);
  useEffect(() => {
    if (refreshes === 0) return;
    const timers = refreshDelaysMs.map((delay) =>
      setTimeout(() => {
        refresh();
        onChanged();
      }, delay),
    );
    return () => timers.forEach(clearTimeout);
    // Runs per refresh request only: refresh and onChanged are new closures each render.
  }, [refreshes]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(undefined);
    let body: Record<string, unknown> = { action, attribute: attribute.trim() };
    if (action === 'set') {
      const parsed = parseValue(kind, raw);
      if ('error' in parsed) return setErrors([parsed.error]);
      body = { ...body, value: parsed.value };
    }
    setBusy(true);
    setErrors([]);
    try {
      await postJson(`${path}/attributes`, { ...body, action_id: crypto.randomUUID() });
      notify(
        'success',
        `${action === 'set' ? `${body.attribute} set to ${JSON.stringify(body.value)}.` : `${body.attribute} unset.`} It shows here once applied (within seconds).`,
      );
      setRefreshes((n) => n + 1);
    } catch (error) {
      setErrors(error instanceof ApiError && error.status === 400 ? error.errors : []);
      setProblem(formProblem(error));
    } finally {
      setBusy(false);
    }
  };

  const attributeErrors = errorsFor(errors, 'attribute');
  const valueErrors = errorsFor(errors, 'value');
  return (
    <form class="change-attribute" onSubmit={submit} aria-labelledby="change-attribute-title" noValidate>
      <h3 id="change-attribute-title">Change an attribute</h3>
      <fieldset class="choices">
        <legend>Action</legend>
        <label class="choice">
          <input type="radio" name="action" value="set" checked={action === 'set'} onChange={() => setAction('set')} /> Set
        </label>
        <label class="choice">
          <input type="radio" name="action" value="unset" checked={action === 'unset'} onChange={() => setAction('unset')} /> Unset (make it null)
        </label>
      </fieldset>
      <div class="form-row">
        <Field id="attribute" label="Attribute" errors={attributeErrors}>
          <input
            {...fieldProps('attribute', attributeErrors)}
            name="attribute"
            value={attribute}
            onInput={(e) => setAttribute(e.currentTarget.value)}
            required
            autocomplete="off"
            spellcheck={false}
          />
        </Field>
        {action === 'set' && (
          <>
            <Field id="value-kind" label="Type">
              <select id="value-kind" name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as ValueKind)}>
                <option value="text">string</option>
                <option value="number">number</option>
                <option value="boolean">boolean</option>
                <option value="json">array (JSON)</option>
              </select>
            </Field>
            <Field id="value" label="Value" errors={valueErrors}>
              {kind === 'boolean' ? (
                <select {...fieldProps('value', valueErrors)} name="value" value={raw} onChange={(e) => setRaw(e.currentTarget.value)}>
                  <option value="">choose…</option>
                  <option value="true">true</option>
                  <option value="false">false</option>
                </select>
              ) : (
                <input
                  {...fieldProps('value', valueErrors)}
                  name="value"
                  value={raw}
                  onInput={(e) => setRaw(e.currentTarget.value)}
                  inputMode={kind === 'number' ? 'decimal' : undefined}
                  autocomplete="off"
                />
              )}
            </Field>
          </>
        )}
      </div>
      <div class="form-actions">
        <button type="submit" class="primary" aria-busy={busy} disabled={busy}>
          {action === 'set' ? 'Set attribute' : 'Unset attribute'}
        </button>
      </div>
      {problem && (
        <p role="alert" class="field-error">
          {problem}
        </p>
      )}
    </form>
  );
}

/** The server's timeline filters from the form: a local date's start, and the start of the day after `to` (the server's `to` is exclusive). */
export function timelineQuery(form: { name: string; from: string; to: string }): { name?: string; from?: string; to?: string } {
  const startOf = (day: string, plusDays = 0) => {
    const date = new Date(`${day}T00:00:00`);
    date.setDate(date.getDate() + plusDays);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  };
  const name = form.name.trim();
  return {
    ...(name ? { name } : {}),
    ...(form.from ? { from: startOf(form.from) } : {}),
    ...(form.to ? { to: startOf(form.to, 1) } : {}),
  };
}

const noFilter = { name: '', from: '', to: '' };

function Timeline({ path, changes, names, eventNames }: { path: string; changes: number; names: EventNames; eventNames: readonly string[] }) {
  const [typed, setTyped] = useState(noFilter);
  const [filter, setFilter] = useState(noFilter);
  const [cursor, setCursor] = useState<string | undefined>();
  const query = timelineQuery(filter);
  const timeline = useApi(
    () => getJson<ConsoleAnswer<'ConsolePlayerTimeline'>>(`${path}/timeline`, { ...query, cursor, limit: TIMELINE_PAGE_SIZE }),
    `${JSON.stringify(query)}\n${cursor ?? ''}\n${changes}`,
  );
  const filtered = query.name !== undefined || query.from !== undefined || query.to !== undefined;
  // A 400 names the filter it refuses: shown under that field; any other refusal below the form.
  const refused = timeline.error?.status === 400 ? timeline.error.errors : [];
  const shownByFields = refused.length > 0 && otherErrors(refused, ['name', 'from', 'to']).length === 0;

  const apply = (event: Event) => {
    event.preventDefault();
    setCursor(undefined);
    setFilter({ ...typed, name: typed.name.trim() });
  };
  const clear = () => {
    setTyped(noFilter);
    setFilter(noFilter);
    setCursor(undefined);
  };
  const type = (field: keyof typeof noFilter) => (e: { currentTarget: HTMLInputElement }) => setTyped({ ...typed, [field]: e.currentTarget.value });

  const events = timeline.data?.events;
  return (
    <Section id="section-timeline" title="Timeline" aside={<span class="muted">Newest first</span>}>
      <form class="timeline-filter" onSubmit={apply} aria-label="Filter the timeline" noValidate>
        <div class="timeline-filter-fields">
          <Field id="timeline-event" label="Event name (exact; empty for all)" errors={errorsFor(refused, 'name')}>
            <input
              {...fieldProps('timeline-event', errorsFor(refused, 'name'))}
              name="event"
              list="timeline-event-names"
              value={typed.name}
              onInput={type('name')}
              placeholder="e.g. deposit or urm_back_office_action"
              autocomplete="off"
              spellcheck={false}
            />
          </Field>
          {/* The names among the player's newest events (the player answer's bounded read); any other name may be typed. */}
          <datalist id="timeline-event-names">
            {eventNames.map((eventName) => (
              <option key={eventName} value={eventName} />
            ))}
          </datalist>
          <Field id="timeline-from" label="From" errors={errorsFor(refused, 'from')}>
            <input {...fieldProps('timeline-from', errorsFor(refused, 'from'))} name="from" type="date" value={typed.from} onInput={type('from')} />
          </Field>
          <Field id="timeline-to" label="To" errors={errorsFor(refused, 'to')}>
            <input {...fieldProps('timeline-to', errorsFor(refused, 'to'))} name="to" type="date" value={typed.to} onInput={type('to')} />
          </Field>
          <div class="cluster timeline-filter-actions">
            <button type="submit">Filter</button>
            {filtered && (
              <button type="button" class="ghost" onClick={clear}>
                Show all
              </button>
            )}
          </div>
        </div>
      </form>
      {/* A 404 here is the player's own 404, which may answer after this read: the page says it, not the timeline. */}
      {timeline.error && timeline.error.status !== 404 && !shownByFields && <ErrorNote error={timeline.error} />}
      {!events && timeline.loading && <Loading what="the timeline" />}
      {events &&
        (events.length === 0 ? (
          <p class="empty">{emptyTimeline(filter)}</p>
        ) : (
          <TableRegion label="Timeline (scrolls)" busy={timeline.loading}>
            <table class="timeline">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">What happened</th>
                </tr>
              </thead>
              <tbody>
                {events.map((event) => {
                  const sentence = describeEvent(event.event, event.attributes, names, event.money);
                  const details = eventDetails(event.attributes);
                  return (
                    <tr key={event.urm_insert_id}>
                      <td class="when">
                        <When at={event.urm_date_time} />
                      </td>
                      <td class="event-name">
                        <code class={event.event.startsWith('urm_') ? 'system' : undefined}>{event.event}</code>
                      </td>
                      <td class="what">
                        {sentence && <span class="sentence">{sentence}</span>}
                        {!sentence && details.length > 0 && (
                          <ul class="details">
                            {details.map(([name, value]) => (
                              <li key={name}>
                                <span class="detail-name">{name}:</span> <Value value={value} />
                              </li>
                            ))}
                          </ul>
                        )}
                        {event.merged_from && (
                          <small class="muted">
                            {' '}
                            (from merged player <Visible text={event.merged_from} />)
                          </small>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableRegion>
        ))}
      {events && (events.length > 0 || cursor !== undefined) && (
        <nav class="table-footer" aria-label="Timeline pages">
          <span>
            {countOf(events.length, 'event')} on this page{timeline.data?.next_cursor ? ', older ones on the next' : ''}
          </span>
          <span class="cluster">
            {cursor !== undefined && (
              <button type="button" class="small" onClick={() => setCursor(undefined)}>
                First page
              </button>
            )}
            {timeline.data?.next_cursor && (
              <button type="button" class="small" onClick={() => setCursor(timeline.data!.next_cursor!)}>
                Next
              </button>
            )}
          </span>
        </nav>
      )}
    </Section>
  );
}

function emptyTimeline(filter: typeof noFilter): string {
  const dates = filter.from || filter.to ? ` ${[filter.from && `from ${filter.from}`, filter.to && `to ${filter.to}`].filter(Boolean).join(' ')}` : '';
  if (filter.name) return `No “${filter.name}” events${dates} on this page.`;
  return dates ? `No events${dates} on this page.` : 'No events.';
}
