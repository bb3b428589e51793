/**
 * Settings (admins): API keys, the application, email channels, VAPID keys,
 * the identity-verification secret and the money-event mapping. Keys and
 * secrets are shown once, when made; the server never shows them again.
 */
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { useAction, Result, ShownOnce } from '../actions';
import { ApiError, getJson, postJson } from '../api';
import { ErrorNote, Forbidden, Loading, Section, When } from '../components';
import { useSession } from '../session';
import { useApi } from '../use-api';

const useSettingsAction = () => useAction({ forbidden: 'Only admins may change settings.' });

export function SettingsPage() {
  const { role } = useSession();
  // Only admins may read or change settings (the server answers 403 to others): offer nothing else.
  if (role !== 'admin')
    return (
      <>
        <h1>Settings</h1>
        <Forbidden />
      </>
    );
  return (
    <>
      <h1>Settings</h1>
      <ApiKeys />
      <Application />
      <Channels />
      <Vapid />
      <IdentitySecret />
      <Money />
    </>
  );
}

type KeyView = ConsoleAnswer<'ConsoleListKeys'>['keys'][number];

function ApiKeys() {
  const keys = useApi(() => getJson<ConsoleAnswer<'ConsoleListKeys'>>('/keys'), 'keys');
  const [scope, setScope] = useState<KeyView['scope']>('server');
  const [issued, setIssued] = useState<{ key: string; key_id: string } | undefined>();
  const [confirming, setConfirming] = useState<string | undefined>();
  const { busy, outcome, run } = useSettingsAction();

  const create = async (event: Event) => {
    event.preventDefault();
    setIssued(undefined);
    const answer = await run(
      'create',
      () => postJson<ConsoleAnswer<'ConsoleIssueKey'>>('/keys', { scope }),
      () => undefined,
    );
    if (answer) {
      setIssued({ key: answer.key, key_id: answer.key_id });
      keys.reload();
    }
  };
  const revoke = async (keyId: string) => {
    setConfirming(undefined);
    await run(
      'revoke',
      () => postJson(`/keys/${encodeURIComponent(keyId)}/revoke`),
      () => `Key ${keyId} revoked: it stops working within 30 seconds.`,
    );
    keys.reload();
  };

  return (
    <Section title="API keys">
      <form onSubmit={create} aria-label="Create an API key">
        <label for="key-scope">Scope of a new key</label>
        <fieldset role="group">
          <select id="key-scope" name="scope" value={scope} onChange={(e) => setScope(e.currentTarget.value as KeyView['scope'])}>
            <option value="server">server — ingestion and the server API</option>
            <option value="comms">comms — sending email and push</option>
            <option value="browser">browser — the web SDK</option>
          </select>
          <button type="submit" aria-busy={busy === 'create'} disabled={busy !== undefined}>
            Create key
          </button>
        </fieldset>
      </form>
      {issued && <ShownOnce label={`New key ${issued.key_id}`} value={issued.key} />}
      <Result outcome={outcome} />
      {keys.error && <ErrorNote error={keys.error} />}
      {!keys.data && keys.loading && <Loading what="keys" />}
      {keys.data && (
        <figure class="table-scroll">
          <table class="striped">
            <thead>
              <tr>
                <th scope="col">Key id</th>
                <th scope="col">Scope</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.keys.map((key) => (
                <tr key={key.key_id}>
                  <th scope="row">
                    <code>{key.key_id}</code>
                  </th>
                  <td>{key.scope}</td>
                  <td>
                    <When at={key.created_at} />
                  </td>
                  <td>
                    {key.revoked_at ? (
                      <span class="muted">
                        revoked <When at={key.revoked_at} />
                      </span>
                    ) : confirming === key.key_id ? (
                      <span class="button-row" role="group" aria-label={`Confirm revoking ${key.key_id}`}>
                        <span>Revoke? Integrations using it stop working.</span>
                        <button type="button" class="danger" onClick={() => revoke(key.key_id)} disabled={busy !== undefined}>
                          Yes, revoke {key.key_id}
                        </button>
                        <button type="button" class="secondary outline" onClick={() => setConfirming(undefined)}>
                          Cancel
                        </button>
                      </span>
                    ) : (
                      <>
                        active{' '}
                        <button type="button" class="secondary outline small" onClick={() => setConfirming(key.key_id)} aria-label={`Revoke ${key.key_id}`}>
                          Revoke…
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </figure>
      )}
    </Section>
  );
}

type AppView = ConsoleAnswer<'ConsoleGetApp'>['app'];

function Application() {
  const app = useApi(() => getJson<ConsoleAnswer<'ConsoleGetApp'>>('/app'), 'app');
  return (
    <Section title="Application">
      {app.error && <ErrorNote error={app.error} />}
      {!app.data && app.loading && <Loading what="the application" />}
      {app.data && <ApplicationForm key={JSON.stringify(app.data.app)} app={app.data.app} onSaved={app.reload} />}
    </Section>
  );
}

function ApplicationForm({ app, onSaved }: { app: AppView; onSaved: () => void }) {
  const [name, setName] = useState(app.name);
  const [portal, setPortal] = useState(app.portal_origin ?? '');
  const [sites, setSites] = useState(app.site_origins.join('\n'));
  const [verification, setVerification] = useState(app.identity_verification);
  const [approval, setApproval] = useState(app.affiliate_approval);
  const { busy, outcome, run } = useSettingsAction();

  const save = async (event: Event) => {
    event.preventDefault();
    const siteOrigins = sites.split(/\s+/).filter(Boolean);
    const body: Record<string, unknown> = {};
    if (name !== app.name) body.name = name;
    if (portal.trim() && portal.trim() !== app.portal_origin) body.portal_origin = portal.trim();
    if (siteOrigins.join('\n') !== app.site_origins.join('\n')) body.site_origins = siteOrigins;
    if (verification !== app.identity_verification) body.identity_verification = verification;
    if (approval !== app.affiliate_approval) body.affiliate_approval = approval;
    if (Object.keys(body).length === 0) return;
    if (
      (await run(
        'save',
        () => postJson('/app', body),
        () => 'Saved.',
      )) !== undefined
    )
      onSaved();
  };

  return (
    <form onSubmit={save} aria-label="The application">
      <p class="muted">
        Application id <code>{app.app_id}</code>
      </p>
      <label for="app-name">Name</label>
      <input id="app-name" name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={200} />
      <label for="app-portal">Portal origin (sign-in links and the affiliate portal)</label>
      <input id="app-portal" name="portal_origin" value={portal} onInput={(e) => setPortal(e.currentTarget.value)} placeholder="https://portal.example.com" />
      <label for="app-sites">Site origins (one a line; pages there may use the browser key)</label>
      <textarea
        id="app-sites"
        name="site_origins"
        rows={3}
        value={sites}
        onInput={(e) => setSites(e.currentTarget.value)}
        placeholder="https://shop.example.com"
      />
      <div class="grid">
        <fieldset>
          <legend>Identity verification</legend>
          {(['on', 'off'] as const).map((value) => (
            <label key={value}>
              <input type="radio" name="identity_verification" value={value} checked={verification === value} onChange={() => setVerification(value)} />{' '}
              {value === 'on' ? 'On: browsers prove profile ids' : 'Off'}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>New affiliates</legend>
          {(['pending', 'approve'] as const).map((value) => (
            <label key={value}>
              <input type="radio" name="affiliate_approval" value={value} checked={approval === value} onChange={() => setApproval(value)} />{' '}
              {value === 'pending' ? 'Wait for approval' : 'Approved at once'}
            </label>
          ))}
        </fieldset>
      </div>
      <button type="submit" aria-busy={busy === 'save'} disabled={busy !== undefined}>
        Save application
      </button>
      <Result outcome={outcome} />
    </form>
  );
}

type SenderView = ConsoleAnswer<'ConsoleListSenders'>['senders'][number];

/** The senders the operator assigned: the only ones a channel may be made with. */
function AssignedSenders({ senders }: { senders: SenderView[] }) {
  if (senders.length === 0)
    return <p class="muted">No sender is assigned to this application yet: a channel can only send as an address or domain the operator assigns to it.</p>;
  return (
    <p class="muted">
      Senders the operator assigned to this application:{' '}
      {senders.map((sender, i) => (
        <span key={sender.sender}>
          {i > 0 && ', '}
          {sender.kind === 'domain' ? 'any address at ' : ''}
          <code>{sender.sender}</code>
        </span>
      ))}
      .
    </p>
  );
}

function Channels() {
  const channels = useApi(() => getJson<ConsoleAnswer<'ConsoleListChannels'>>('/channels'), 'channels');
  const senders = useApi(() => getJson<ConsoleAnswer<'ConsoleListSenders'>>('/senders'), 'senders');
  const [name, setName] = useState('');
  const [fromEmail, setFromEmail] = useState('');
  const [fromName, setFromName] = useState('');
  const [fromEmailError, setFromEmailError] = useState<string | undefined>();
  const { busy, outcome, run } = useSettingsAction();

  const create = async (event: Event) => {
    event.preventDefault();
    setFromEmailError(undefined);
    const answer = await run(
      'create',
      () =>
        postJson<ConsoleAnswer<'ConsoleCreateChannel'>>('/channels', { name, from_email: fromEmail, from_name: fromName }).catch((error: unknown) => {
          // A sender the application was not assigned: said beside the field too.
          if (error instanceof ApiError) setFromEmailError(error.errors.find((message) => message.startsWith('from_email')));
          throw error;
        }),
      (a) => `Channel “${a.channel.name}” created.`,
    );
    if (answer) {
      setName('');
      setFromEmail('');
      setFromName('');
      channels.reload();
    }
  };
  const toggle = async (channel: ConsoleAnswer<'ConsoleListChannels'>['channels'][number]) => {
    await run(
      channel.channel_id,
      () => postJson(`/channels/${encodeURIComponent(channel.channel_id)}`, { enabled: !channel.enabled }),
      () => `Channel “${channel.name}” ${channel.enabled ? 'disabled' : 'enabled'}.`,
    );
    channels.reload();
  };

  return (
    <Section title="Email channels">
      {channels.error && <ErrorNote error={channels.error} />}
      {channels.data &&
        (channels.data.channels.length === 0 ? (
          <p>No channels yet: email cannot be sent until one is added.</p>
        ) : (
          <figure class="table-scroll">
            <table class="striped">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Sender</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {channels.data.channels.map((channel) => (
                  <tr key={channel.channel_id}>
                    <th scope="row">{channel.name}</th>
                    <td>
                      {channel.from_name} &lt;{channel.from_email}&gt;
                      {channel.from_domain && <small class="muted"> (any address at {channel.from_domain})</small>}
                    </td>
                    <td>
                      {channel.enabled ? 'enabled' : 'disabled'}{' '}
                      <button
                        type="button"
                        class="secondary outline small"
                        onClick={() => toggle(channel)}
                        aria-busy={busy === channel.channel_id}
                        disabled={busy !== undefined}
                      >
                        {channel.enabled ? `Disable` : `Enable`}
                        <span class="visually-hidden"> {channel.name}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </figure>
        ))}
      <form onSubmit={create} aria-labelledby="new-channel-title">
        <h3 id="new-channel-title">New channel</h3>
        {senders.error && <ErrorNote error={senders.error} />}
        {senders.data && <AssignedSenders senders={senders.data.senders} />}
        <div class="grid">
          <label>
            Channel name
            <input name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} required autocomplete="off" />
          </label>
          <div>
            <label>
              From email
              <input
                name="from_email"
                type="email"
                list="assigned-senders"
                value={fromEmail}
                onInput={(e) => setFromEmail(e.currentTarget.value)}
                required
                autocomplete="off"
                aria-invalid={fromEmailError ? 'true' : undefined}
                aria-describedby={fromEmailError ? 'from-email-error' : undefined}
              />
            </label>
            {fromEmailError && (
              <small id="from-email-error" class="error">
                {fromEmailError}
              </small>
            )}
          </div>
          <datalist id="assigned-senders">
            {senders.data?.senders
              .filter((sender) => sender.kind === 'address')
              .map((sender) => (
                <option key={sender.sender} value={sender.sender} />
              ))}
          </datalist>
          <label>
            From name
            <input name="from_name" value={fromName} onInput={(e) => setFromName(e.currentTarget.value)} required autocomplete="off" />
          </label>
        </div>
        <button type="submit" aria-busy={busy === 'create'} disabled={busy !== undefined}>
          Create channel
        </button>
      </form>
      <Result outcome={outcome} />
    </Section>
  );
}

function Vapid() {
  const vapid = useApi(() => getJson<ConsoleAnswer<'ConsoleGetVapid'>>('/vapid'), 'vapid');
  const [subject, setSubject] = useState('');
  const [confirming, setConfirming] = useState(false);
  const { busy, outcome, run } = useSettingsAction();
  const has = Boolean(vapid.data?.vapid_public_key);

  const generate = async (event: Event) => {
    event.preventDefault();
    if (has && !confirming) return setConfirming(true);
    setConfirming(false);
    const answer = await run(
      'vapid',
      () => postJson('/vapid', { ...(subject.trim() ? { subject: subject.trim() } : {}), ...(has ? { rotate: true } : {}) }),
      () => (has ? 'VAPID keys rotated.' : 'VAPID keys generated.'),
    );
    if (answer) vapid.reload();
  };

  return (
    <Section title="Web push (VAPID keys)">
      {vapid.error && <ErrorNote error={vapid.error} />}
      {vapid.data && (
        <dl>
          <dt>Public key</dt>
          <dd>{vapid.data.vapid_public_key ? <code class="secret">{vapid.data.vapid_public_key}</code> : 'none yet: web push is off'}</dd>
          <dt>Subject</dt>
          <dd>{vapid.data.vapid_subject ?? '—'}</dd>
        </dl>
      )}
      <form onSubmit={generate} aria-label="VAPID keys">
        <label for="vapid-subject">Subject (mailto: or https:, optional)</label>
        <input
          id="vapid-subject"
          name="subject"
          value={subject}
          onInput={(e) => setSubject(e.currentTarget.value)}
          placeholder={vapid.data?.vapid_subject ?? 'mailto:ops@example.com'}
          autocomplete="off"
        />
        {confirming && (
          <p role="alert" class="error">
            Rotating stops every existing subscription until its page subscribes again. Press “Rotate keys” again to go on.
          </p>
        )}
        <button type="submit" class={has ? 'danger' : undefined} aria-busy={busy === 'vapid'} disabled={busy !== undefined || !vapid.data}>
          {has ? 'Rotate keys' : 'Generate keys'}
        </button>
      </form>
      <Result outcome={outcome} />
    </Section>
  );
}

function IdentitySecret() {
  const [secret, setSecret] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const { busy, outcome, run } = useSettingsAction();
  const rotate = async () => {
    setConfirming(false);
    const answer = await run(
      'rotate',
      () => postJson<ConsoleAnswer<'ConsoleRotateIdentitySecret'>>('/identity_secret'),
      () => undefined,
    );
    if (answer) setSecret(answer.identity_secret);
  };
  return (
    <Section title="Identity-verification secret">
      <p class="muted">Your servers sign profile ids with it. A new one replaces the old within 5 minutes: update your servers at once.</p>
      {secret && <ShownOnce label="New identity secret" value={secret} />}
      {confirming ? (
        <div class="button-row" role="group" aria-label="Confirm rotating the secret">
          <span>Rotate? Profile ids signed with the old secret stop being accepted.</span>
          <button type="button" class="danger" onClick={rotate}>
            Yes, rotate the secret
          </button>
          <button type="button" class="secondary outline" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" class="secondary" onClick={() => setConfirming(true)} aria-busy={busy === 'rotate'} disabled={busy !== undefined}>
          Rotate secret…
        </button>
      )}
      <Result outcome={outcome} />
    </Section>
  );
}

function Money() {
  const money = useApi(() => getJson<ConsoleAnswer<'ConsoleGetMoney'>>('/money'), 'money');
  return (
    <Section title="Money events">
      {money.error && <ErrorNote error={money.error} />}
      {money.data && <MoneyForm key={JSON.stringify(money.data)} currency={money.data.currency} events={money.data.money_events} onSaved={money.reload} />}
    </Section>
  );
}

function MoneyForm({ currency, events, onSaved }: { currency: string; events: Record<string, string>; onSaved: () => void }) {
  const [main, setMain] = useState(currency);
  const [mapping, setMapping] = useState(JSON.stringify(events, null, 2));
  const [invalid, setInvalid] = useState<string | undefined>();
  const { busy, outcome, run } = useSettingsAction();
  const save = async (event: Event) => {
    event.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(mapping);
    } catch {
      return setInvalid('The mapping must be JSON, e.g. {"deposit": "deposit", "cashout": "withdrawal"}.');
    }
    setInvalid(undefined);
    if (
      (await run(
        'money',
        () => postJson('/money', { currency: main.trim(), money_events: parsed }),
        () => 'Saved.',
      )) !== undefined
    )
      onSaved();
  };
  return (
    <form onSubmit={save} aria-label="Money events" noValidate>
      <p class="muted">
        Which of your events are money (deposits, withdrawals, bonuses…), in what main currency: the affiliate reports are computed from them.
      </p>
      <label for="money-currency">Main currency</label>
      <input id="money-currency" name="currency" value={main} onInput={(e) => setMain(e.currentTarget.value)} maxLength={3} autocomplete="off" />
      <label for="money-events">Mapping: event name → kind (JSON)</label>
      <textarea
        id="money-events"
        name="money_events"
        rows={6}
        class="mono"
        value={mapping}
        onInput={(e) => setMapping(e.currentTarget.value)}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? 'money-error' : undefined}
      />
      {invalid && (
        <small id="money-error" class="error">
          {invalid}
        </small>
      )}
      <button type="submit" aria-busy={busy === 'money'} disabled={busy !== undefined}>
        Save money events
      </button>
      <Result outcome={outcome} />
    </form>
  );
}
