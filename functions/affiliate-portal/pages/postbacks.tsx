/**
 * The affiliate's postbacks: the URL template urm calls on the events it
 * chooses (registration, FTD, CPA, each deposit; with the placeholders it may
 * use), the controls to turn it off and to make a new signing secret, and
 * the delivery log with the URL each attempt called, secrets masked. A secret
 * is on the page only in the answer to the form that made it.
 */
import { postbackEvents, postbackPlaceholders, type PostbackEvent, type PostbackLogEntry, type PostbackPlaceholder } from '../../domain/postbacks';
import { formatTime } from '../../ui/format';
import { PageHeader } from '../../ui/design/page';
import { Csrf, Field, Layout, Notice, TableRegion } from './layout';

export interface PostbacksView {
  appName?: string;
  name: string;
  csrf: string;
  /** The template as stored, or null when postbacks are off. */
  postbackUrl: string | null;
  /** The events the affiliate receives while a URL is set. */
  events: PostbackEvent[];
  /** Newest first, at most logLimit entries. */
  log: PostbackLogEntry[];
  logLimit: number;
  form?: { postback_url: string; errors: { postback_url?: string; action?: string } };
  /** Just made (the URL's first setting) or rotated: shown this once. */
  secret?: { value: string; rotated: boolean };
  /** After a redirect: what the last form did. */
  done?: 'saved' | 'off' | 'events';
}

const placeholderMeaning: Record<PostbackPlaceholder, string> = {
  event: '“registration”, “ftd”, “cpa” or “deposit”',
  sub_id: 'the sub-id of the click the player came from (urm_aff), on every event, or empty',
  link_id: 'your tracking link, or empty',
  affiliate_id: 'your affiliate id',
  amount: 'FTD and CPA: the first deposit; deposit: that deposit; in the main currency; registration: empty',
  currency: 'FTD, CPA and deposit: the main currency; registration: empty',
  payout: 'CPA: the commission you earned, with 2 decimals (e.g. 50.00); other events: empty',
  event_id: 'the id of this postback, the same on every retry',
  date: 'when it happened (ISO 8601)',
};

/** The form's checkbox of an event (distinct names: a form field holds one value). */
export const eventFieldName = (event: string) => `event_${event}`;

/** What each event is, in the event switches and the delivery log. */
const eventWords: Record<PostbackEvent, { name: string; when: string }> = {
  registration: { name: 'Registration', when: 'A player registers' },
  ftd: { name: 'FTD', when: 'A player makes a first deposit' },
  cpa: { name: 'CPA', when: 'A first deposit earns you CPA' },
  deposit: { name: 'Deposit', when: 'A player deposits (every deposit, the first included)' },
};

const outcomeWords: Record<PostbackLogEntry['outcome'], string> = {
  delivered: 'Delivered',
  retrying: 'Failed, will retry',
  failed: 'Failed, given up',
};

export function PostbacksPage(props: PostbacksView) {
  const form = props.form;
  return (
    <Layout title="Postbacks" appName={props.appName} signedIn={{ name: props.name, csrf: props.csrf, current: 'postbacks' }}>
      <PageHeader
        title="Postbacks"
        subtitle="We call your tracker’s address, server to server, when one of your players registers and when they make a first deposit. You choose the events below: a CPA you earn and every deposit can be sent too."
      />
      {props.done === 'saved' && (
        <Notice kind="ok" id="postbacks-done">
          Postback URL saved.
        </Notice>
      )}
      {props.done === 'events' && (
        <Notice kind="ok" id="postbacks-done">
          Postback events saved.
        </Notice>
      )}
      {props.done === 'off' && (
        <Notice kind="ok" id="postbacks-done">
          Postbacks are off.
        </Notice>
      )}
      {props.secret && (
        <Notice kind="ok" id="signing-secret">
          <p class="tight">
            {props.secret.rotated ? 'Your new signing secret' : 'Your signing secret'}: <code class="address">{props.secret.value}</code>
          </p>
          <p class="tight">
            <strong>Store it now: it is not shown again.</strong> Each postback carries <code>X-Urm-Signature</code>, an HMAC-SHA256 made with it.
          </p>
        </Notice>
      )}
      {form?.errors.action && (
        <Notice kind="bad" id="postbacks-problem">
          {form.errors.action}
        </Notice>
      )}
      <section class="card" aria-labelledby="postback-url">
        <h2 id="postback-url">Where we send postbacks</h2>
        {props.postbackUrl === null ? (
          <p class="muted" id="current-postback-url">
            Postbacks are off: you have no postback URL.
          </p>
        ) : (
          <p id="current-postback-url">
            Now: <code class="address">{props.postbackUrl}</code>
          </p>
        )}
        <form method="post" action="postbacks" novalidate>
          <Csrf token={props.csrf} />
          <input type="hidden" name="action" value="set" />
          <Field
            name="postback_url"
            label="Postback URL"
            type="url"
            value={form ? form.postback_url : (props.postbackUrl ?? undefined)}
            error={form?.errors.postback_url}
            hint="https, at most 1,000 characters; the placeholders below are replaced in each call."
            required
          />
          <div class="form-actions">
            <button type="submit" class="primary">
              Save URL
            </button>
          </div>
        </form>
        {props.postbackUrl !== null && (
          <div class="secondary-actions">
            <form method="post" action="postbacks">
              <Csrf token={props.csrf} />
              <input type="hidden" name="action" value="rotate" />
              <button type="submit">New signing secret</button>
            </form>
            <form method="post" action="postbacks">
              <Csrf token={props.csrf} />
              <input type="hidden" name="action" value="off" />
              <button type="submit">Turn postbacks off</button>
            </form>
          </div>
        )}
      </section>
      <section class="card" aria-labelledby="postback-events">
        <h2 id="postback-events">Events</h2>
        <form method="post" action="postbacks" class="event-switches">
          <Csrf token={props.csrf} />
          <input type="hidden" name="action" value="events" />
          <fieldset>
            <legend>Send a postback when</legend>
            <ul class="switch-list">
              {postbackEvents.map((event) => {
                const id = `postback-event-${event}`;
                return (
                  <li key={event}>
                    <input
                      type="checkbox"
                      id={id}
                      name={eventFieldName(event)}
                      value="on"
                      checked={props.events.includes(event)}
                      aria-describedby={`${id}-code`}
                    />
                    <label for={id}>{eventWords[event].when}</label>
                    <code id={`${id}-code`} class="event-code">
                      {event}
                    </code>
                  </li>
                );
              })}
            </ul>
          </fieldset>
          {props.postbackUrl === null && <p class="muted">Postbacks are off: these apply once you save a postback URL.</p>}
          <div class="form-actions">
            <button type="submit" class="primary">
              Save events
            </button>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="placeholders">
        <h2 id="placeholders">Placeholders</h2>
        <dl class="pairs" id="placeholder-list">
          {postbackPlaceholders.map((name) => (
            <div key={name}>
              <dt>
                <code>{`{${name}}`}</code>
              </dt>
              <dd>{placeholderMeaning[name]}</dd>
            </div>
          ))}
        </dl>
        <p class="muted">
          For example{' '}
          <code class="address">{'https://tracker.example.com/postback?clickid={sub_id}&goal={event}&payout={payout}&amount={amount}&txid={event_id}'}</code>
        </p>
        <p class="muted">
          Put a token of your tracker in a query parameter whose name says so (such as <code>token</code>, <code>key</code> or <code>secret</code>): the
          delivery log then shows it as <code>***</code>.
        </p>
      </section>
      <section class="card" aria-labelledby="delivery-log">
        <h2 id="delivery-log">Delivery log</h2>
        {props.log.length === 0 ? (
          <p class="empty" id="no-deliveries">
            No postbacks yet. They appear here, newest first, as we call your URL.
          </p>
        ) : (
          <>
            <p class="muted">
              {props.log.length === props.logLimit ? `The latest ${props.logLimit} attempts, newest first.` : 'Newest first.'} Kept for 90 days.
            </p>
            <TableRegion label="Delivery log">
              <table id="deliveries" class="log">
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col" class="left">
                      Event id
                    </th>
                    <th scope="col" class="left">
                      Status
                    </th>
                    <th scope="col" class="num">
                      Attempts
                    </th>
                    <th scope="col" class="left">
                      HTTP status or error
                    </th>
                    <th scope="col" class="left">
                      URL called
                    </th>
                    <th scope="col">Time</th>
                  </tr>
                </thead>
                <tbody>
                  {props.log.map((entry) => (
                    <tr key={`${entry.at}#${entry.event_id}`}>
                      <th scope="row">{eventWords[entry.event]?.name ?? entry.event}</th>
                      <td class="left wrap">
                        <code>{entry.event_id}</code>
                      </td>
                      <td class={`left outcome-${entry.outcome}`}>{outcomeWords[entry.outcome]}</td>
                      <td>{entry.attempts}</td>
                      <td class="left wrap">{entry.status_code !== undefined ? String(entry.status_code) : (entry.error ?? '—')}</td>
                      <td class="left called">{entry.url ? <code>{entry.url}</code> : '—'}</td>
                      <td>{formatTime(entry.at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          </>
        )}
      </section>
    </Layout>
  );
}
