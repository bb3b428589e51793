/**
 * Settings (admins): API keys, the application, email channels and the
 * senders they may use, VAPID keys, the identity-verification secret, the
 * money-event mapping, player search, the affiliates' minimum payout and the send gate's messaging rules. Keys and secrets are shown once, when made; the server
 * never shows them again. A change's result is a toast; a refusal stays in
 * its card, each of the server's 400 `errors` under the field it names.
 */
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import type { MoneyKind } from '../../../domain/affiliate-program';
import { Badge, StatusBadge } from '../../../ui/design/badge';
import { DataTable, type Column } from '../../../ui/design/data-table';
import { ConfirmButton } from '../../../ui/design/dialog';
import { Field, errorsFor, fieldProps } from '../../../ui/design/field';
import { Alert, Card, PageHeader } from '../../../ui/design/page';
import { useToast } from '../../../ui/design/toast';
import { When } from '../../../ui/design/value';
import { FormFailure, ShownOnce, useChange } from '../actions';
import { type ApiError, getJson, postJson } from '../api';
import { ErrorNote, Forbidden } from '../components';
import { kindWords, type MoneyRow, moneyKinds, moneyRowErrors } from '../money-events';
import { useSession } from '../session';
import { useApi } from '../use-api';

const adminsOnly = 'Only admins may change settings.';

export function SettingsPage() {
  const { role } = useSession();
  // Only admins may read or change settings (the server answers 403 to others): offer nothing else.
  if (role !== 'admin')
    return (
      <>
        <PageHeader title="Settings" />
        <Forbidden />
      </>
    );
  return (
    <div class="admin-settings">
      <PageHeader title="Settings" subtitle="Keys, the application, email, web push and money events. Every change is written to the audit log." />
      <ApiKeys />
      <div class="grid-wide">
        <Application />
        <Money />
      </div>
      <Channels />
      <div class="grid-wide">
        <Vapid />
        <IdentitySecret />
      </div>
      <div class="grid-wide">
        <PlayerSearchSetting />
        <PayoutSettings />
      </div>
      <MessagingRules />
    </div>
  );
}

/** Whether a message names one of `paths` (what a Field with errorsFor shows). */
const namesOneOf =
  (paths: readonly string[]) =>
  (message: string): boolean =>
    paths.some((path) => errorsFor([message], path).length > 0);

const Loading = ({ what }: { what: string }) => (
  <p class="loading" aria-busy="true">
    Loading {what}…
  </p>
);

// ---- API keys --------------------------------------------------------------

type KeyView = ConsoleAnswer<'ConsoleListKeys'>['keys'][number];

const scopeWords: Record<KeyView['scope'], string> = {
  server: 'server — ingestion and the server API',
  comms: 'comms — sending email and push',
  browser: 'browser — the web SDK',
};

function ApiKeys() {
  const keys = useApi(() => getJson<ConsoleAnswer<'ConsoleListKeys'>>('/keys'), 'keys');
  const [scope, setScope] = useState<KeyView['scope']>('server');
  const [issued, setIssued] = useState<{ key: string; key_id: string } | undefined>();
  const { busy, failure, run } = useChange(adminsOnly);

  const create = async (event: Event) => {
    event.preventDefault();
    setIssued(undefined);
    const answer = await run(
      'create',
      () => postJson<ConsoleAnswer<'ConsoleIssueKey'>>('/keys', { scope }),
      (a) => `Key ${a.key_id} created: copy it now.`,
    );
    if (answer) {
      setIssued({ key: answer.key, key_id: answer.key_id });
      keys.reload();
    }
  };
  const revoke = async (keyId: string) => {
    await run(
      keyId,
      () => postJson(`/keys/${encodeURIComponent(keyId)}/revoke`),
      () => `Key ${keyId} revoked: it stops working within 30 seconds.`,
    );
    keys.reload();
  };

  const columns: Column<KeyView>[] = [
    { id: 'key_id', header: 'Key id', value: (k) => k.key_id, cell: (k) => <code class="nowrap">{k.key_id}</code>, rowHeader: true, required: true },
    {
      id: 'scope',
      header: 'Scope',
      value: (k) => k.scope,
      cell: (k) => <Badge tone={k.scope === 'browser' ? 'info' : 'neutral'}>{k.scope}</Badge>,
      required: true,
    },
    { id: 'created', header: 'Created', value: (k) => k.created_at, cell: (k) => <When at={k.created_at} />, required: true },
    {
      id: 'state',
      header: 'State',
      value: (k) => (k.revoked_at ? 'revoked' : 'active'),
      required: true,
      cell: (k) =>
        k.revoked_at ? (
          <span class="cluster">
            <StatusBadge status="revoked" />
            <small class="muted">
              <When at={k.revoked_at} />
            </small>
          </span>
        ) : (
          <StatusBadge status="active" />
        ),
    },
    {
      id: 'actions',
      header: 'Actions',
      required: true,
      cell: (k) =>
        !k.revoked_at && (
          <ConfirmButton
            label="Revoke"
            name={`Revoke ${k.key_id}`}
            title={`Revoke ${k.key_id}?`}
            confirmLabel={`Yes, revoke ${k.key_id}`}
            onConfirm={() => revoke(k.key_id)}
            class="ghost"
            confirmClass="danger"
            small
            busy={busy === k.key_id}
            disabled={busy !== undefined}
          >
            <p>Integrations using this {k.scope} key stop working within 30 seconds. This cannot be undone: make a new key first if one is still needed.</p>
          </ConfirmButton>
        ),
    },
  ];

  return (
    <Card title="API keys" id="api-keys">
      <p class="muted">Server keys send data and call the server API; comms keys send email and push; browser keys are for the web SDK on your site origins.</p>
      <form onSubmit={create} aria-label="Create an API key" class="inline-form">
        <Field id="key-scope" label="Scope of a new key">
          <select id="key-scope" name="scope" value={scope} onChange={(e) => setScope(e.currentTarget.value as KeyView['scope'])}>
            {(Object.keys(scopeWords) as KeyView['scope'][]).map((value) => (
              <option key={value} value={value}>
                {scopeWords[value]}
              </option>
            ))}
          </select>
        </Field>
        <button type="submit" class="primary" aria-busy={busy === 'create'} disabled={busy !== undefined}>
          Create key
        </button>
      </form>
      {issued && <ShownOnce label={`New key ${issued.key_id}`} value={issued.key} />}
      <FormFailure failure={failure} not="Not done" />
      <DataTable
        label="API keys"
        rows={keys.data?.keys}
        columns={columns}
        rowId={(k) => k.key_id}
        loading={keys.loading}
        error={keys.error && <ErrorNote error={keys.error} />}
        empty="No keys yet: create one to send data."
      />
    </Card>
  );
}

// ---- The application -------------------------------------------------------

type AppView = ConsoleAnswer<'ConsoleGetApp'>['app'];
type PlanView = ConsoleAnswer<'ConsoleListPlans'>['plans'][number];

function Application() {
  const app = useApi(() => getJson<ConsoleAnswer<'ConsoleGetApp'>>('/app'), 'app');
  const plans = useApi(() => getJson<ConsoleAnswer<'ConsoleListPlans'>>('/plans'), 'plans');
  return (
    <Card title="Application" id="application">
      {app.error && <ErrorNote error={app.error} />}
      {!app.data && app.loading && <Loading what="the application" />}
      {app.data && (
        <ApplicationForm key={JSON.stringify(app.data.app)} app={app.data.app} plans={plans.data?.plans} plansError={plans.error} onSaved={app.reload} />
      )}
    </Card>
  );
}

/** The paths of the application form's fields, as the server's messages name them. */
const appFields = {
  name: ['name'],
  portal: ['portal_origin', 'portal origin'],
  sites: ['site_origins', 'site origin'],
  plan: ['default_plan_id'],
};
const fieldErrors = (errors: readonly string[] | undefined, paths: readonly string[]) => paths.flatMap((path) => errorsFor(errors, path));

function ApplicationForm({
  app,
  plans,
  plansError,
  onSaved,
}: {
  app: AppView;
  plans: readonly PlanView[] | undefined;
  plansError: ApiError | undefined;
  onSaved: () => void;
}) {
  const notify = useToast();
  const [name, setName] = useState(app.name);
  const [portal, setPortal] = useState(app.portal_origin ?? '');
  const [sites, setSites] = useState(app.site_origins.join('\n'));
  const [plan, setPlan] = useState(app.default_plan_id ?? '');
  const [verification, setVerification] = useState(app.identity_verification);
  const [approval, setApproval] = useState(app.affiliate_approval);
  const [signup, setSignup] = useState(app.affiliate_signup);
  const { busy, failure, run } = useChange(adminsOnly);
  const errors = failure?.errors;

  const save = async (event: Event) => {
    event.preventDefault();
    const siteOrigins = sites.split(/\s+/).filter(Boolean);
    const body: Record<string, unknown> = {};
    if (name !== app.name) body.name = name;
    if (portal.trim() && portal.trim() !== app.portal_origin) body.portal_origin = portal.trim();
    if (siteOrigins.join('\n') !== app.site_origins.join('\n')) body.site_origins = siteOrigins;
    if (plan && plan !== app.default_plan_id) body.default_plan_id = plan;
    if (verification !== app.identity_verification) body.identity_verification = verification;
    if (approval !== app.affiliate_approval) body.affiliate_approval = approval;
    if (signup !== app.affiliate_signup) body.affiliate_signup = signup;
    if (Object.keys(body).length === 0) return notify('info', 'Nothing to save: no field was changed.');
    if (
      (await run(
        'save',
        () => postJson('/app', body),
        () => 'Saved.',
      )) !== undefined
    )
      onSaved();
  };

  const nameErrors = fieldErrors(errors, appFields.name);
  const portalErrors = fieldErrors(errors, appFields.portal);
  const siteErrors = fieldErrors(errors, appFields.sites);
  const planErrors = fieldErrors(errors, appFields.plan);
  // The stored default may be missing from the list (not loaded yet): it is still the one selected.
  const planChoices = plans ?? [];
  const storedMissing = app.default_plan_id && !planChoices.some((p) => p.plan_id === app.default_plan_id);

  return (
    <form onSubmit={save} aria-label="The application">
      <p class="muted">
        Application id <code>{app.app_id}</code>
      </p>
      <Field id="app-name" label="Name" errors={nameErrors}>
        <input {...fieldProps('app-name', nameErrors)} name="name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={200} />
      </Field>
      <Field id="app-portal" label="Portal origin (sign-in links and the affiliate portal)" errors={portalErrors}>
        <input
          {...fieldProps('app-portal', portalErrors)}
          name="portal_origin"
          value={portal}
          onInput={(e) => setPortal(e.currentTarget.value)}
          placeholder="https://portal.example.com"
          autocomplete="off"
        />
      </Field>
      <Field id="app-sites" label="Site origins (one a line; pages there may use the browser key)" errors={siteErrors}>
        <textarea
          {...fieldProps('app-sites', siteErrors)}
          name="site_origins"
          rows={3}
          value={sites}
          onInput={(e) => setSites(e.currentTarget.value)}
          placeholder="https://shop.example.com"
        />
      </Field>
      <Field
        id="app-default-plan"
        label="Default plan of new affiliates"
        hint={
          plansError
            ? `The plans could not be read: ${plansError.message}`
            : 'The plan an affiliate gets on registering; an affiliate’s own page changes theirs.'
        }
        errors={planErrors}
      >
        <select {...fieldProps('app-default-plan', planErrors, true)} name="default_plan_id" value={plan} onChange={(e) => setPlan(e.currentTarget.value)}>
          {!app.default_plan_id && <option value="">No default plan</option>}
          {storedMissing && <option value={app.default_plan_id ?? ''}>{app.default_plan_id}</option>}
          {planChoices.map((p) => (
            <option key={p.plan_id} value={p.plan_id}>
              {p.name} ({p.terms})
            </option>
          ))}
        </select>
      </Field>
      <div class="form-row">
        <fieldset>
          <legend>Identity verification</legend>
          {(['on', 'off'] as const).map((value) => (
            <label key={value} class="choice">
              <input type="radio" name="identity_verification" value={value} checked={verification === value} onChange={() => setVerification(value)} />
              {value === 'on' ? 'On: browsers prove profile ids' : 'Off'}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>New affiliates</legend>
          {(['pending', 'approve'] as const).map((value) => (
            <label key={value} class="choice">
              <input type="radio" name="affiliate_approval" value={value} checked={approval === value} onChange={() => setApproval(value)} />
              {value === 'pending' ? 'Wait for approval' : 'Approved at once'}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Join page of the portal</legend>
          {(['closed', 'open'] as const).map((value) => (
            <label key={value} class="choice">
              <input type="radio" name="affiliate_signup" value={value} checked={signup === value} onChange={() => setSignup(value)} />
              {value === 'closed' ? 'Closed: affiliates are registered for you' : 'Open: anyone may apply (each waits for approval)'}
            </label>
          ))}
        </fieldset>
      </div>
      <FormFailure failure={failure} shown={namesOneOf(Object.values(appFields).flat())} />
      <div class="form-actions">
        <button type="submit" class="primary" aria-busy={busy === 'save'} disabled={busy !== undefined}>
          Save application
        </button>
      </div>
    </form>
  );
}

// ---- Player search ---------------------------------------------------------

function PlayerSearchSetting() {
  const app = useApi(() => getJson<ConsoleAnswer<'ConsoleGetApp'>>('/app'), 'app');
  return (
    <Card title="Player search" id="player-search-setting">
      <p class="muted">
        The Players page finds a player by profile id, by the attributes named here and, when first_name and last_name are both here, by the full name. A change
        applies to players as their profiles are applied from then on: a player not changed since is still found by the attributes searched before, until an
        operator runs <code>npm run admin -- players reindex</code>.
      </p>
      {app.error && <ErrorNote error={app.error} />}
      {!app.data && app.loading && <Loading what="the setting" />}
      {app.data && <PlayerSearchForm key={app.data.app.search_attributes.join()} names={app.data.app.search_attributes} onSaved={app.reload} />}
    </Card>
  );
}

const searchFields = ['search_attributes', 'searchable attribute'];

function PlayerSearchForm({ names, onSaved }: { names: readonly string[]; onSaved: () => void }) {
  const notify = useToast();
  const [text, setText] = useState(names.join(', '));
  const { busy, failure, run } = useChange(adminsOnly);
  const errors = fieldErrors(failure?.errors, searchFields);

  const save = async (event: Event) => {
    event.preventDefault();
    const chosen = text.split(/[\s,]+/).filter(Boolean);
    if (chosen.join() === names.join()) return notify('info', 'Nothing to save: the attributes are the same.');
    if (
      (await run(
        'save',
        () => postJson('/app', { search_attributes: chosen }),
        () => 'Saved: players applied from now on are found by these attributes.',
      )) !== undefined
    )
      onSaved();
  };

  return (
    <form onSubmit={save} aria-label="Player search">
      <Field
        id="search-attributes"
        label="Searchable attributes"
        hint="At most five attribute names, separated by commas, e.g. email, first_name, last_name, phone."
        errors={errors}
      >
        <input
          {...fieldProps('search-attributes', errors)}
          name="search_attributes"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          autocomplete="off"
          spellcheck={false}
        />
      </Field>
      <FormFailure failure={failure} shown={namesOneOf(searchFields)} />
      <div class="form-actions">
        <button type="submit" class="primary" aria-busy={busy === 'save'} disabled={busy !== undefined}>
          Save searchable attributes
        </button>
      </div>
    </form>
  );
}

// ---- Affiliate payouts ------------------------------------------------------

function PayoutSettings() {
  const settings = useApi(() => getJson<ConsoleAnswer<'ConsoleGetPayoutSettings'>>('/payout-settings'), 'payout-settings');
  return (
    <Card title="Affiliate payouts" id="payout-settings">
      <p class="muted">
        A statement whose total is below the minimum payout is not paid: its total is carried forward to the next month. Open statements use the minimum at
        once; an approved statement keeps the one it was approved with.
      </p>
      {settings.error && <ErrorNote error={settings.error} />}
      {!settings.data && settings.loading && <Loading what="the minimum payout" />}
      {settings.data && <PayoutForm key={settings.data.min_payout} minimum={settings.data.min_payout} onSaved={settings.reload} />}
    </Card>
  );
}

const payoutFields = ['min_payout'];

function PayoutForm({ minimum, onSaved }: { minimum: string; onSaved: () => void }) {
  const notify = useToast();
  const [text, setText] = useState(minimum);
  const { busy, failure, run } = useChange(adminsOnly);
  const errors = fieldErrors(failure?.errors, payoutFields);

  const save = async (event: Event) => {
    event.preventDefault();
    if (text.trim() === minimum) return notify('info', 'Nothing to save: the minimum payout is the same.');
    if (
      (await run(
        'save',
        () => postJson<ConsoleAnswer<'ConsoleSetPayoutSettings'>>('/payout-settings', { min_payout: text.trim() }),
        ({ min_payout }) => `Saved: the minimum payout is ${min_payout}; open statements use it now.`,
      )) !== undefined
    )
      onSaved();
  };

  return (
    <form onSubmit={save} aria-label="Affiliate payouts">
      <Field
        id="min-payout"
        label="Minimum payout"
        hint="In the application's currency, from 0 to 1,000,000, e.g. 100. 0 pays every positive total."
        errors={errors}
      >
        <input
          {...fieldProps('min-payout', errors)}
          name="min_payout"
          inputMode="decimal"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          autocomplete="off"
        />
      </Field>
      <FormFailure failure={failure} shown={namesOneOf(payoutFields)} />
      <div class="form-actions">
        <button type="submit" class="primary" aria-busy={busy === 'save'} disabled={busy !== undefined}>
          Save minimum payout
        </button>
      </div>
    </form>
  );
}

// ---- Email channels and their senders --------------------------------------

type SenderView = ConsoleAnswer<'ConsoleListSenders'>['senders'][number];
type ChannelView = ConsoleAnswer<'ConsoleListChannels'>['channels'][number];

/** The senders the operator assigned: the only ones a channel may be made with. */
function AssignedSenders({ senders }: { senders: SenderView[] }) {
  if (senders.length === 0)
    return <p class="muted">No sender is assigned to this application yet: a channel can only send as an address or domain the operator assigns to it.</p>;
  return (
    <p>
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

const channelFields = ['name', 'from_email', 'from_name'];

function Channels() {
  const channels = useApi(() => getJson<ConsoleAnswer<'ConsoleListChannels'>>('/channels'), 'channels');
  const senders = useApi(() => getJson<ConsoleAnswer<'ConsoleListSenders'>>('/senders'), 'senders');
  const [name, setName] = useState('');
  const [fromEmail, setFromEmail] = useState('');
  const [fromName, setFromName] = useState('');
  const create = useChange(adminsOnly);
  const toggling = useChange(adminsOnly);
  const errors = create.failure?.errors;

  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await create.run(
      'create',
      () => postJson<ConsoleAnswer<'ConsoleCreateChannel'>>('/channels', { name, from_email: fromEmail, from_name: fromName }),
      (a) => `Channel “${a.channel.name}” created.`,
    );
    if (answer) {
      setName('');
      setFromEmail('');
      setFromName('');
      channels.reload();
    }
  };
  const toggle = async (channel: ChannelView) => {
    await toggling.run(
      channel.channel_id,
      () => postJson(`/channels/${encodeURIComponent(channel.channel_id)}`, { enabled: !channel.enabled }),
      () => `Channel “${channel.name}” ${channel.enabled ? 'disabled' : 'enabled'}.`,
    );
    channels.reload();
  };

  const columns: Column<ChannelView>[] = [
    { id: 'name', header: 'Name', value: (c) => c.name, rowHeader: true, required: true },
    {
      id: 'sender',
      header: 'Sender',
      value: (c) => c.from_email,
      required: true,
      cell: (c) => (
        <>
          {c.from_name} &lt;{c.from_email}&gt;
          {c.from_domain && <small class="muted"> (any address at {c.from_domain})</small>}
        </>
      ),
    },
    {
      id: 'state',
      header: 'State',
      value: (c) => (c.enabled ? 'enabled' : 'disabled'),
      required: true,
      cell: (c) => <Badge tone={c.enabled ? 'success' : 'neutral'}>{c.enabled ? 'enabled' : 'disabled'}</Badge>,
    },
    {
      id: 'actions',
      header: 'Actions',
      required: true,
      cell: (c) =>
        c.enabled ? (
          <ConfirmButton
            label="Disable"
            name={`Disable ${c.name}`}
            title={`Disable the channel “${c.name}”?`}
            confirmLabel="Disable channel"
            onConfirm={() => toggle(c)}
            class="ghost"
            confirmClass="danger"
            small
            busy={toggling.busy === c.channel_id}
            disabled={toggling.busy !== undefined}
          >
            <p>Email sent through it is refused until you enable it again; campaigns and sends naming it fail meanwhile.</p>
          </ConfirmButton>
        ) : (
          <button type="button" class="small" onClick={() => toggle(c)} aria-busy={toggling.busy === c.channel_id} disabled={toggling.busy !== undefined}>
            Enable<span class="visually-hidden"> {c.name}</span>
          </button>
        ),
    },
  ];

  const nameErrors = errorsFor(errors, 'name');
  const emailErrors = errorsFor(errors, 'from_email');
  const fromNameErrors = errorsFor(errors, 'from_name');

  return (
    <Card title="Email channels" id="email-channels">
      <p class="muted">A channel is a sender address with a display name; email is sent through an enabled channel.</p>
      <FormFailure failure={toggling.failure} not="Not changed" />
      <DataTable
        label="Email channels"
        rows={channels.data?.channels}
        columns={columns}
        rowId={(c) => c.channel_id}
        loading={channels.loading}
        error={channels.error && <ErrorNote error={channels.error} />}
        empty="No channels yet: email cannot be sent until one is added."
      />
      <section class="sub-section" aria-labelledby="assigned-senders-title">
        <h3 id="assigned-senders-title">Assigned senders</h3>
        {senders.error && <ErrorNote error={senders.error} />}
        {!senders.data && senders.loading && <Loading what="the senders" />}
        {senders.data && <AssignedSenders senders={senders.data.senders} />}
      </section>
      <form onSubmit={submit} aria-labelledby="new-channel-title" class="sub-section">
        <h3 id="new-channel-title">New channel</h3>
        <div class="form-row">
          <Field id="channel-name" label="Channel name" errors={nameErrors}>
            <input
              {...fieldProps('channel-name', nameErrors)}
              name="name"
              value={name}
              onInput={(e) => setName(e.currentTarget.value)}
              required
              autocomplete="off"
            />
          </Field>
          <Field id="from-email" label="From email" errors={emailErrors}>
            <input
              {...fieldProps('from-email', emailErrors)}
              name="from_email"
              type="email"
              list="assigned-senders"
              value={fromEmail}
              onInput={(e) => setFromEmail(e.currentTarget.value)}
              required
              autocomplete="off"
            />
          </Field>
          <Field id="from-name" label="From name" errors={fromNameErrors}>
            <input
              {...fieldProps('from-name', fromNameErrors)}
              name="from_name"
              value={fromName}
              onInput={(e) => setFromName(e.currentTarget.value)}
              required
              autocomplete="off"
            />
          </Field>
        </div>
        <datalist id="assigned-senders">
          {senders.data?.senders
            .filter((sender) => sender.kind === 'address')
            .map((sender) => (
              <option key={sender.sender} value={sender.sender} />
            ))}
        </datalist>
        <FormFailure failure={create.failure} not="Not created" shown={namesOneOf(channelFields)} />
        <div class="form-actions">
          <button type="submit" class="primary" aria-busy={create.busy === 'create'} disabled={create.busy !== undefined}>
            Create channel
          </button>
        </div>
      </form>
    </Card>
  );
}

// ---- Web push and the identity secret --------------------------------------

function Vapid() {
  const vapid = useApi(() => getJson<ConsoleAnswer<'ConsoleGetVapid'>>('/vapid'), 'vapid');
  const [subject, setSubject] = useState('');
  const { busy, failure, run } = useChange(adminsOnly);
  const has = Boolean(vapid.data?.vapid_public_key);
  // The subject is the form's one field: every message of a 400 is about it ("a subject is required…" too).
  const subjectErrors = failure?.errors ?? [];

  const generate = async () => {
    const answer = await run(
      'vapid',
      () => postJson('/vapid', { ...(subject.trim() ? { subject: subject.trim() } : {}), ...(has ? { rotate: true } : {}) }),
      () => (has ? 'VAPID keys rotated.' : 'VAPID keys generated.'),
    );
    if (answer) vapid.reload();
  };
  const submit = (event: Event) => {
    event.preventDefault();
    // Rotating goes through its confirmation (the button below); Enter in the field only generates the first keys.
    if (!has) void generate();
  };

  return (
    <Card title="Web push (VAPID keys)" id="vapid">
      {vapid.error && <ErrorNote error={vapid.error} />}
      {!vapid.data && vapid.loading && <Loading what="the VAPID keys" />}
      {vapid.data && (
        <dl class="pairs">
          <div>
            <dt>Public key</dt>
            <dd>{vapid.data.vapid_public_key ? <code class="secret">{vapid.data.vapid_public_key}</code> : 'none yet: web push is off'}</dd>
          </div>
          <div>
            <dt>Subject</dt>
            <dd>{vapid.data.vapid_subject ?? '—'}</dd>
          </div>
        </dl>
      )}
      <form onSubmit={submit} aria-label="VAPID keys">
        <Field id="vapid-subject" label="Subject (mailto: or https:, optional)" errors={subjectErrors}>
          <input
            {...fieldProps('vapid-subject', subjectErrors)}
            name="subject"
            value={subject}
            onInput={(e) => setSubject(e.currentTarget.value)}
            placeholder={vapid.data?.vapid_subject ?? 'mailto:ops@example.com'}
            autocomplete="off"
          />
        </Field>
        <FormFailure failure={failure} not="Not done" shown={() => true} />
        <div class="form-actions">
          {has ? (
            <ConfirmButton
              label="Rotate keys"
              title="Rotate the VAPID keys?"
              confirmLabel="Yes, rotate the keys"
              onConfirm={generate}
              busy={busy === 'vapid'}
              disabled={busy !== undefined}
              class=""
              confirmClass="danger"
            >
              <p>Rotating stops every existing subscription until its page subscribes again.</p>
            </ConfirmButton>
          ) : (
            <button type="submit" class="primary" aria-busy={busy === 'vapid'} disabled={busy !== undefined || !vapid.data}>
              Generate keys
            </button>
          )}
        </div>
      </form>
    </Card>
  );
}

function IdentitySecret() {
  const [secret, setSecret] = useState<string | undefined>();
  const { busy, failure, run } = useChange(adminsOnly);
  const rotate = async () => {
    const answer = await run(
      'rotate',
      () => postJson<ConsoleAnswer<'ConsoleRotateIdentitySecret'>>('/identity_secret'),
      () => 'Identity secret rotated: copy the new one now.',
    );
    if (answer) setSecret(answer.identity_secret);
  };
  return (
    <Card title="Identity-verification secret" id="identity-secret">
      <p class="muted">Your servers sign profile ids with it. A new one replaces the old within 5 minutes: update your servers at once.</p>
      {secret && <ShownOnce label="New identity secret" value={secret} />}
      <FormFailure failure={failure} not="Not rotated" />
      <div class="form-actions">
        <ConfirmButton
          label="Rotate secret…"
          title="Rotate the identity secret?"
          confirmLabel="Yes, rotate the secret"
          onConfirm={rotate}
          busy={busy === 'rotate'}
          disabled={busy !== undefined}
          class=""
          confirmClass="danger"
        >
          <p>Profile ids signed with the old secret stop being accepted within 5 minutes. The new secret is shown once.</p>
        </ConfirmButton>
      </div>
    </Card>
  );
}

// ---- Money events ----------------------------------------------------------

function Money() {
  const money = useApi(() => getJson<ConsoleAnswer<'ConsoleGetMoney'>>('/money'), 'money');
  return (
    <Card title="Money events" id="money-events">
      {money.error && <ErrorNote error={money.error} />}
      {!money.data && money.loading && <Loading what="the money events" />}
      {money.data && <MoneyForm key={JSON.stringify(money.data)} currency={money.data.currency} events={money.data.money_events} onSaved={money.reload} />}
    </Card>
  );
}

let nextRowKey = 1;
const newRow = (name = '', kind: MoneyKind = 'deposit'): MoneyRow => ({ key: nextRowKey++, name, kind });

function MoneyForm({ currency, events, onSaved }: { currency: string; events: Record<string, string>; onSaved: () => void }) {
  const [main, setMain] = useState(currency);
  const [rows, setRows] = useState<MoneyRow[]>(() => Object.entries(events).map(([name, kind]) => newRow(name, kind as MoneyKind)));
  const [twice, setTwice] = useState<string | undefined>();
  const { busy, failure, run } = useChange(adminsOnly);
  const errors = failure?.errors;

  const update = (key: number, change: Partial<MoneyRow>) => setRows((all) => all.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const remove = (key: number) => {
    const at = rows.findIndex((row) => row.key === key);
    const next = rows[at + 1] ?? rows[at - 1];
    setRows((all) => all.filter((row) => row.key !== key));
    // The removed row's button goes with it: the focus moves to a neighbouring row, or to "Add event".
    requestAnimationFrame(() => document.getElementById(next ? `money-event-${next.key}-name` : 'money-add')?.focus());
  };
  const add = () => {
    const row = newRow();
    setRows((all) => [...all, row]);
    // The new row's name takes the focus once rendered.
    requestAnimationFrame(() => document.getElementById(`money-event-${row.key}-name`)?.focus());
  };

  const save = async (event: Event) => {
    event.preventDefault();
    // A map cannot hold a name twice: said here, as the server would never see the second.
    // Unnamed rows are left to the server, which names the empty name beside each of them.
    const duplicate = rows.find((row, index) => row.name !== '' && rows.findIndex((other) => other.name === row.name) !== index);
    setTwice(duplicate?.name);
    if (duplicate) return;
    const mapping = new Map(rows.map((row) => [row.name, row.kind]));
    if (
      (await run(
        'money',
        () => postJson('/money', { currency: main.trim(), money_events: Object.fromEntries(mapping) }),
        () => 'Saved.',
      )) !== undefined
    )
      onSaved();
  };

  const currencyErrors = errorsFor(errors, 'currency');
  const shownByRows = (message: string) => errorsFor([message], 'currency').length > 0 || rows.some((row) => moneyRowErrors([message], row.name).length > 0);

  return (
    <form onSubmit={save} aria-label="Money events" noValidate>
      <p class="muted">
        Which of your events are money (deposits, withdrawals, bonuses…), in what main currency: the affiliate reports are computed from them.
      </p>
      <Field id="money-currency" label="Main currency" hint="Three letters (ISO 4217), e.g. EUR." errors={currencyErrors}>
        <input
          {...fieldProps('money-currency', currencyErrors, true)}
          class="currency"
          name="currency"
          value={main}
          onInput={(e) => setMain(e.currentTarget.value)}
          maxLength={3}
          autocomplete="off"
        />
      </Field>
      <table class="money-map" aria-labelledby="money-map-title">
        <caption id="money-map-title">Mapping: event name → kind</caption>
        <thead>
          <tr>
            <th scope="col">Event name</th>
            <th scope="col">Kind</th>
            <th scope="col">
              <span class="visually-hidden">Remove</span>
            </th>
          </tr>
        </thead>
        {rows.length === 0 && (
          <tbody>
            <tr>
              <td colSpan={3} class="muted">
                No money events: the affiliate reports count registrations only.
              </td>
            </tr>
          </tbody>
        )}
        {rows.map((row, index) => {
          const id = `money-event-${row.key}`;
          const messages = [...moneyRowErrors(errors, row.name), ...(twice !== undefined && row.name === twice ? ['This event is named twice.'] : [])];
          const invalid = messages.length > 0;
          const called = row.name || `row ${index + 1}`;
          return (
            <tbody key={row.key} class={invalid ? 'invalid' : undefined}>
              <tr>
                <td>
                  <input
                    id={`${id}-name`}
                    name="event_name"
                    value={row.name}
                    onInput={(e) => update(row.key, { name: e.currentTarget.value })}
                    aria-label={`Event name ${index + 1}`}
                    aria-invalid={invalid ? 'true' : undefined}
                    aria-describedby={invalid ? `${id}-error` : undefined}
                    placeholder="e.g. Deposit"
                    autocomplete="off"
                    maxLength={256}
                  />
                </td>
                <td>
                  <select
                    id={`${id}-kind`}
                    name="event_kind"
                    value={row.kind}
                    onChange={(e) => update(row.key, { kind: e.currentTarget.value as MoneyKind })}
                    aria-label={`Kind of event ${index + 1}`}
                  >
                    {moneyKinds.map((kind) => (
                      <option key={kind} value={kind}>
                        {kindWords[kind]}
                      </option>
                    ))}
                  </select>
                </td>
                <td class="row-action">
                  <button type="button" class="ghost small" onClick={() => remove(row.key)}>
                    Remove<span class="visually-hidden"> {called}</span>
                  </button>
                </td>
              </tr>
              {invalid && (
                <tr class="row-error">
                  <td colSpan={3}>
                    <p class="field-error" id={`${id}-error`}>
                      {messages.join(' ')}
                    </p>
                  </td>
                </tr>
              )}
            </tbody>
          );
        })}
      </table>
      <div class="form-actions">
        <button type="button" id="money-add" class="small" onClick={add}>
          Add event
        </button>
      </div>
      <FormFailure failure={failure} shown={shownByRows} />
      {twice !== undefined && <Alert tone="danger">Not saved: “{twice}” is named twice. Each event name may be mapped once.</Alert>}
      <div class="form-actions">
        <button type="submit" class="primary" aria-busy={busy === 'money'} disabled={busy !== undefined}>
          Save money events
        </button>
      </div>
    </form>
  );
}

// ---- Messaging rules (the send gate) ----------------------------------------

type MessagingView = ConsoleAnswer<'ConsoleGetApp'>['app']['messaging'];
type TopicRow = { key: number; name: string; label: string };
let nextTopicKey = 1;
const channelsOfGate = [
  ['email', 'Email'],
  ['push', 'Push'],
] as const;

function MessagingRules() {
  const app = useApi(() => getJson<ConsoleAnswer<'ConsoleGetApp'>>('/app'), 'app');
  return (
    <Card title="Messaging rules" id="messaging-rules">
      <p class="muted">
        What the send gate allows a marketing message: at most so many per player per channel, in the player’s local day and week; none in the quiet hours
        (deferred to their end). Transactional messages skip these rules.
      </p>
      {app.error && <ErrorNote error={app.error} />}
      {!app.data && app.loading && <Loading what="the rules" />}
      {app.data && <MessagingForm key={JSON.stringify(app.data.app.messaging)} rules={app.data.app.messaging} onSaved={app.reload} />}
    </Card>
  );
}

/** The time zones the browser knows, UTC first. */
function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', current, ...known])];
}

function MessagingForm({ rules, onSaved }: { rules: MessagingView; onSaved: () => void }) {
  const text = (n: number | null) => (n === null ? '' : String(n));
  const [caps, setCaps] = useState(() => ({
    email: { daily: text(rules.caps.email.daily), weekly: text(rules.caps.email.weekly) },
    push: { daily: text(rules.caps.push.daily), weekly: text(rules.caps.push.weekly) },
  }));
  const [quiet, setQuiet] = useState({ start: rules.quiet_hours?.start ?? '', end: rules.quiet_hours?.end ?? '' });
  const [zone, setZone] = useState(rules.time_zone);
  const [topics, setTopics] = useState<TopicRow[]>(() => rules.topics.map((t) => ({ key: nextTopicKey++, ...t })));
  const [emailAttribute, setEmailAttribute] = useState(rules.email_attribute);
  const [phoneAttribute, setPhoneAttribute] = useState(rules.phone_attribute);
  const [halfWindow, setHalfWindow] = useState(false);
  const { busy, failure, run } = useChange(adminsOnly);
  const zones = timeZones(rules.time_zone);

  const setCap = (channel: 'email' | 'push', period: 'daily' | 'weekly', value: string) =>
    setCaps((all) => ({ ...all, [channel]: { ...all[channel], [period]: value } }));
  const updateTopic = (key: number, change: Partial<TopicRow>) => setTopics((all) => all.map((t) => (t.key === key ? { ...t, ...change } : t)));
  const removeTopic = (key: number) => {
    const at = topics.findIndex((t) => t.key === key);
    const next = topics[at + 1] ?? topics[at - 1];
    setTopics((all) => all.filter((t) => t.key !== key));
    // The removed row's button goes with it: the focus moves to a neighbouring row, or to "Add topic".
    requestAnimationFrame(() => document.getElementById(next ? `topic-${next.key}-name` : 'topic-add')?.focus());
  };
  const addTopic = () => {
    const row = { key: nextTopicKey++, name: '', label: '' };
    setTopics((all) => [...all, row]);
    requestAnimationFrame(() => document.getElementById(`topic-${row.key}-name`)?.focus());
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const oneSide = (quiet.start === '') !== (quiet.end === '');
    setHalfWindow(oneSide);
    if (oneSide) return;
    const capOf = (values: { daily: string; weekly: string }) => ({
      ...(values.daily.trim() === '' ? {} : { daily: Number(values.daily) }),
      ...(values.weekly.trim() === '' ? {} : { weekly: Number(values.weekly) }),
    });
    const messaging = {
      caps: { email: capOf(caps.email), push: capOf(caps.push) },
      ...(quiet.start === '' ? {} : { quiet_hours: { start: quiet.start, end: quiet.end } }),
      time_zone: zone,
      topics: topics.map(({ name, label }) => ({ name: name.trim(), label: label.trim() })),
      email_attribute: emailAttribute.trim(),
      phone_attribute: phoneAttribute.trim(),
    };
    if (
      (await run(
        'messaging',
        () => postJson('/app', { messaging }),
        () => 'Saved: the send gate applies these rules from now on.',
      )) !== undefined
    )
      onSaved();
  };

  return (
    <form onSubmit={save} aria-label="Messaging rules" noValidate class="messaging-rules">
      <fieldset>
        <legend>Caps per player (empty: no cap)</legend>
        <div class="messaging-caps">
          {channelsOfGate.map(([channel, word]) =>
            (['daily', 'weekly'] as const).map((period) => {
              const id = `cap-${channel}-${period}`;
              return (
                <Field key={id} id={id} label={`${word} messages per ${period === 'daily' ? 'local day' : 'week'}`}>
                  <input
                    {...fieldProps(id, [])}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={1000}
                    name={id}
                    value={caps[channel][period]}
                    onInput={(e) => setCap(channel, period, e.currentTarget.value)}
                  />
                </Field>
              );
            }),
          )}
        </div>
      </fieldset>
      <fieldset>
        <legend>Quiet hours (player’s local time; empty: none)</legend>
        <div class="messaging-quiet">
          <Field id="quiet-start" label="Quiet hours start">
            <input
              {...fieldProps('quiet-start', [])}
              type="time"
              name="quiet_start"
              value={quiet.start}
              onInput={(e) => setQuiet({ ...quiet, start: e.currentTarget.value })}
            />
          </Field>
          <Field id="quiet-end" label="Quiet hours end">
            <input
              {...fieldProps('quiet-end', [])}
              type="time"
              name="quiet_end"
              value={quiet.end}
              onInput={(e) => setQuiet({ ...quiet, end: e.currentTarget.value })}
            />
          </Field>
          <Field id="messaging-zone" label="Default time zone" hint="For players without urm_timezone.">
            <select {...fieldProps('messaging-zone', [], true)} name="time_zone" value={zone} onChange={(e) => setZone(e.currentTarget.value)}>
              {zones.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {halfWindow && <Alert tone="danger">Not saved: give the quiet hours both a start and an end, or neither.</Alert>}
      </fieldset>
      <fieldset>
        <legend>Topics a player may unsubscribe from</legend>
        {topics.length === 0 && <p class="muted">No topics: a player unsubscribes from all marketing email at once.</p>}
        {topics.map((topic, index) => (
          <div key={topic.key} class="messaging-topic">
            <Field id={`topic-${topic.key}-name`} label={`Topic ${index + 1} name`}>
              <input
                {...fieldProps(`topic-${topic.key}-name`, [])}
                name="topic_name"
                value={topic.name}
                onInput={(e) => updateTopic(topic.key, { name: e.currentTarget.value })}
                placeholder="e.g. promos"
                autocomplete="off"
                spellcheck={false}
                maxLength={64}
              />
            </Field>
            <Field id={`topic-${topic.key}-label`} label={`Topic ${index + 1} label`}>
              <input
                {...fieldProps(`topic-${topic.key}-label`, [])}
                name="topic_label"
                value={topic.label}
                onInput={(e) => updateTopic(topic.key, { label: e.currentTarget.value })}
                placeholder="e.g. Promotions and bonuses"
                maxLength={80}
              />
            </Field>
            <button type="button" class="ghost small" onClick={() => removeTopic(topic.key)}>
              Remove<span class="visually-hidden"> topic {topic.name || index + 1}</span>
            </button>
          </div>
        ))}
        <div class="form-actions">
          <button type="button" id="topic-add" class="small" onClick={addTopic}>
            Add topic
          </button>
        </div>
      </fieldset>
      <fieldset>
        <legend>Address attributes</legend>
        <div class="messaging-quiet">
          <Field id="email-attribute" label="Email address attribute">
            <input
              {...fieldProps('email-attribute', [])}
              name="email_attribute"
              value={emailAttribute}
              onInput={(e) => setEmailAttribute(e.currentTarget.value)}
              autocomplete="off"
              spellcheck={false}
            />
          </Field>
          <Field id="phone-attribute" label="Phone attribute">
            <input
              {...fieldProps('phone-attribute', [])}
              name="phone_attribute"
              value={phoneAttribute}
              onInput={(e) => setPhoneAttribute(e.currentTarget.value)}
              autocomplete="off"
              spellcheck={false}
            />
          </Field>
        </div>
      </fieldset>
      <FormFailure failure={failure} />
      <div class="form-actions">
        <button type="submit" class="primary" aria-busy={busy === 'messaging'} disabled={busy !== undefined}>
          Save messaging rules
        </button>
      </div>
    </form>
  );
}
