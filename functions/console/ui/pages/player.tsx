/**
 * One player: attributes with their types, push devices, affiliate
 * attribution, rejections, and the timeline (newest first, paged, filtered
 * by event name). Admins and marketers may set or unset an attribute; the
 * change goes through the stream and shows here once the consumer applied it.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { ApiError, getJson, postJson } from '../api';
import { ErrorNote, Loading, Pager, Section, Value, When } from '../components';
import { describeEvent, eventDetails } from '../events';
import { useSession } from '../session';
import { useApi } from '../use-api';
import { SendEmail, SendPush } from './messaging';

export const TIMELINE_PAGE_SIZE = 25;

type PlayerView = ConsoleAnswer<'ConsoleGetPlayer'>;
/** After a change, how often and how long the page reads the player again to show it applied (bounded). */
const refreshDelaysMs = [400, 800, 1500, 3000, 5000];

export function PlayerPage({ id }: { id: string }) {
  const { role } = useSession();
  const path = `/players/${encodeURIComponent(id)}`;
  const player = useApi(() => getJson<PlayerView>(path), id);
  // The application's channels, for Send email, read in parallel with the player (a viewer sends nothing).
  const channels = useApi(() => getJson<ConsoleAnswer<'ConsoleListChannels'>>('/channels'), 'channels', role !== 'viewer');
  const [changes, setChanges] = useState(0);
  // A message's event reaches the timeline through the stream: read it again a few times (bounded).
  const timelineSoon = () => {
    for (const delay of refreshDelaysMs) setTimeout(() => setChanges((n) => n + 1), delay);
  };

  if (player.error?.status === 404)
    return (
      <>
        <p>
          <a href="/console/players">← Players</a>
        </p>
        <h1>{id}</h1>
        <p role="alert">There is no player with this id in this application.</p>
      </>
    );

  return (
    <>
      <p>
        <a href="/console/players">← Players</a>
      </p>
      <h1 class="profile-id">{id}</h1>
      {player.error && <ErrorNote error={player.error} />}
      {!player.data && player.loading && <Loading what="the player" />}
      {player.data && (
        <>
          <p class="muted">
            Last updated <When at={player.data.updated_at} />
          </p>
          <div class="grid player-grid">
            <Section title="Attributes">
              <Attributes view={player.data} />
              {role !== 'viewer' && <ChangeAttribute path={path} onChanged={() => setChanges((n) => n + 1)} refresh={player.reload} />}
            </Section>
            <div>
              <Section title="Push">
                <Push view={player.data} />
              </Section>
              <Section title="Affiliate">
                <Affiliate view={player.data} />
              </Section>
              <Section title="Rejected records">
                <Rejections view={player.data} />
              </Section>
            </div>
          </div>
          {role !== 'viewer' && (
            <Section title="Message the player">
              <div class="grid player-grid">
                <SendEmail path={path} channels={channels} onSent={timelineSoon} />
                <SendPush path={path} onSent={timelineSoon} />
              </div>
            </Section>
          )}
        </>
      )}
      {/* Not waiting for the player: the timeline reads by its id, in parallel with it (an unknown id shows the 404 above instead). */}
      {!player.error && <Timeline path={path} changes={changes} />}
    </>
  );
}

function Attributes({ view }: { view: PlayerView }) {
  if (view.attributes.length === 0) return <p>No attributes.</p>;
  return (
    <figure class="table-scroll">
      <table class="striped">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {view.attributes.map((attribute) => (
            <tr key={attribute.name}>
              <th scope="row">{attribute.name}</th>
              <td>
                <small class={`type type-${attribute.type}`}>{attribute.type}</small>
              </td>
              <td class="value">
                <Value value={attribute.value} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function Push({ view }: { view: PlayerView }) {
  const receives = view.push.receives_notifications;
  return (
    <>
      <p>
        Receives notifications: <strong>{receives === null ? 'not set' : receives ? 'yes' : 'no'}</strong>
      </p>
      {view.push.devices.length === 0 ? (
        <p>No push devices.</p>
      ) : (
        <ul>
          {view.push.devices.map((device, i) => (
            <li key={i}>
              {device.platform === 'web' ? `Web push via ${device.service ?? 'an unknown service'}` : `${device.platform} device …${device.token_end ?? ''}`}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Affiliate({ view }: { view: PlayerView }) {
  if (!view.affiliate) return <p>Not attributed to an affiliate.</p>;
  const rows: [string, string | null][] = [
    ['Affiliate', view.affiliate.urm_aff_id],
    ['Link', view.affiliate.urm_aff_link_id],
    ['Sub-id', view.affiliate.urm_aff],
  ];
  return <dl>{rows.flatMap(([label, value]) => [<dt key={`${label}-t`}>{label}</dt>, <dd key={`${label}-d`}>{value ?? '—'}</dd>])}</dl>;
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
        <p>None.</p>
        {more}
      </>
    );
  return (
    <>
      <ul>
        {view.rejections.map((rejection) => (
          <li key={rejection.urm_insert_id}>
            <When at={rejection.rejected_at} />: {rejection.kind} <code>{rejection.urm_insert_id}</code> — {rejection.reason}
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

interface FieldErrors {
  attribute?: string;
  value?: string;
  form?: string;
}

/** The server's 400 errors by the field they name ("attribute …", "value …"); anything else is the form's. */
function fieldErrors(error: ApiError): FieldErrors {
  const found: FieldErrors = {};
  const messages = error.errors.length > 0 ? error.errors : [error.message];
  for (const message of messages) {
    const field = /^(attribute|value)\b/.exec(message)?.[1] as 'attribute' | 'value' | undefined;
    const key = error.status === 400 && field ? field : 'form';
    found[key] = found[key] ? `${found[key]}; ${message}` : message;
  }
  if (error.status === 403) found.form = 'Your role may not change players.';
  return found;
}

function ChangeAttribute({ path, onChanged, refresh }: { path: string; onChanged: () => void; refresh: () => void }) {
  const [action, setAction] = useState<'set' | 'unset'>('set');
  const [attribute, setAttribute] = useState('');
  const [kind, setKind] = useState<ValueKind>('text');
  const [raw, setRaw] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | undefined>();

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
    setDone(undefined);
    let body: Record<string, unknown> = { action, attribute: attribute.trim() };
    if (action === 'set') {
      const parsed = parseValue(kind, raw);
      if ('error' in parsed) return setErrors({ value: parsed.error });
      body = { ...body, value: parsed.value };
    }
    setBusy(true);
    setErrors({});
    try {
      await postJson(`${path}/attributes`, { ...body, action_id: crypto.randomUUID() });
      setDone(action === 'set' ? `${body.attribute} set to ${JSON.stringify(body.value)}.` : `${body.attribute} unset.`);
      setRefreshes((n) => n + 1);
    } catch (error) {
      setErrors(error instanceof ApiError ? fieldErrors(error) : { form: 'The server could not be reached. Try again.' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="change-attribute" onSubmit={submit} aria-labelledby="change-attribute-title" noValidate>
      <h3 id="change-attribute-title">Change an attribute</h3>
      <fieldset>
        <legend>Action</legend>
        <label>
          <input type="radio" name="action" value="set" checked={action === 'set'} onChange={() => setAction('set')} /> Set
        </label>
        <label>
          <input type="radio" name="action" value="unset" checked={action === 'unset'} onChange={() => setAction('unset')} /> Unset (make it null)
        </label>
      </fieldset>
      <label for="attribute-name">Attribute</label>
      <input
        id="attribute-name"
        name="attribute"
        value={attribute}
        onInput={(e) => setAttribute(e.currentTarget.value)}
        required
        autocomplete="off"
        aria-invalid={errors.attribute ? 'true' : undefined}
        aria-describedby={errors.attribute ? 'attribute-error' : undefined}
      />
      {errors.attribute && (
        <small id="attribute-error" class="error">
          {errors.attribute}
        </small>
      )}
      {action === 'set' && (
        <div class="grid value-row">
          <div>
            <label for="value-kind">Type</label>
            <select id="value-kind" name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as ValueKind)}>
              <option value="text">string</option>
              <option value="number">number</option>
              <option value="boolean">boolean</option>
              <option value="json">array (JSON)</option>
            </select>
          </div>
          <div>
            <label for="attribute-value">Value</label>
            {kind === 'boolean' ? (
              <select
                id="attribute-value"
                name="value"
                value={raw}
                onChange={(e) => setRaw(e.currentTarget.value)}
                aria-invalid={errors.value ? 'true' : undefined}
                aria-describedby={errors.value ? 'value-error' : undefined}
              >
                <option value="">choose…</option>
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            ) : (
              <input
                id="attribute-value"
                name="value"
                value={raw}
                onInput={(e) => setRaw(e.currentTarget.value)}
                inputMode={kind === 'number' ? 'decimal' : undefined}
                autocomplete="off"
                aria-invalid={errors.value ? 'true' : undefined}
                aria-describedby={errors.value ? 'value-error' : undefined}
              />
            )}
            {errors.value && (
              <small id="value-error" class="error">
                {errors.value}
              </small>
            )}
          </div>
        </div>
      )}
      <button type="submit" aria-busy={busy} disabled={busy}>
        {action === 'set' ? 'Set attribute' : 'Unset attribute'}
      </button>
      {errors.form && (
        <p role="alert" class="error">
          {errors.form}
        </p>
      )}
      {done && (
        <p role="status" class="success">
          {done} It shows here once applied (within seconds).
        </p>
      )}
    </form>
  );
}

function Timeline({ path, changes }: { path: string; changes: number }) {
  const [typed, setTyped] = useState('');
  const [filter, setFilter] = useState('');
  const [cursor, setCursor] = useState<string | undefined>();
  const timeline = useApi(
    () => getJson<ConsoleAnswer<'ConsolePlayerTimeline'>>(`${path}/timeline`, { event: filter || undefined, cursor, limit: TIMELINE_PAGE_SIZE }),
    `${filter}\n${cursor ?? ''}\n${changes}`,
  );

  const apply = (event: Event) => {
    event.preventDefault();
    setCursor(undefined);
    setFilter(typed.trim());
  };

  return (
    <Section title="Timeline">
      <form onSubmit={apply} aria-label="Filter the timeline">
        <label for="timeline-event">Event name (exact; empty for all)</label>
        <fieldset role="group">
          <input
            id="timeline-event"
            name="event"
            value={typed}
            onInput={(e) => setTyped(e.currentTarget.value)}
            placeholder="e.g. deposit or urm_back_office_action"
            autocomplete="off"
          />
          <button type="submit">Filter</button>
        </fieldset>
      </form>
      {/* A 404 here is the player's own 404, which may answer after this read: the page says it, not the timeline. */}
      {timeline.error && timeline.error.status !== 404 && <ErrorNote error={timeline.error} />}
      {!timeline.data && timeline.loading && <Loading what="the timeline" />}
      {timeline.data && (
        <>
          {timeline.data.events.length === 0 ? (
            <p>{filter ? `No “${filter}” events on this page.` : 'No events.'}</p>
          ) : (
            <figure class="table-scroll">
              <table class="striped timeline">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Event</th>
                    <th scope="col">What happened</th>
                  </tr>
                </thead>
                <tbody>
                  {timeline.data.events.map((event) => {
                    const sentence = describeEvent(event.event, event.attributes);
                    const details = eventDetails(event.attributes);
                    return (
                      <tr key={event.urm_insert_id}>
                        <td>
                          <When at={event.urm_date_time} />
                        </td>
                        <td>
                          <code>{event.event}</code>
                        </td>
                        <td>
                          {sentence && <span class="sentence">{sentence}</span>}
                          {!sentence && details.length > 0 && (
                            <ul class="details">
                              {details.map(([name, value]) => (
                                <li key={name}>
                                  {name}: <Value value={value} />
                                </li>
                              ))}
                            </ul>
                          )}
                          {event.merged_from && <small class="muted"> (from merged player {event.merged_from})</small>}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </figure>
          )}
          <Pager next={timeline.data.next_cursor} atFirst={cursor === undefined} onNext={setCursor} onFirst={() => setCursor(undefined)} />
        </>
      )}
    </Section>
  );
}
