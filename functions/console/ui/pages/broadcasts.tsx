/**
 * Broadcasts: a template sent to a segment's members, now, at a set time or
 * at a local time of each player. The list with status and progress, the
 * form of a new one (a draft), and a broadcast's page with its progress and
 * counts, which follows a running broadcast as it sends, and the operator's
 * Start, Pause, Resume and Cancel.
 */
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { Badge, type Tone } from '../../../ui/design/badge';
import { type Column, DataTable } from '../../../ui/design/data-table';
import { ConfirmButton } from '../../../ui/design/dialog';
import { Field, fieldProps } from '../../../ui/design/field';
import { type Kpi, KpiCards } from '../../../ui/design/kpi';
import { Card, PageHeader } from '../../../ui/design/page';
import { Visible, When } from '../../../ui/design/value';
import { errorsOf, FormActions, FormFailure, useChange } from '../actions';
import { getJson, postJson } from '../api';
import { ErrorNote, Loading } from '../components';
import { useSession } from '../session';
import { useApi } from '../use-api';
import { TemplateChoices, templateChoicesId } from '../template-choices';

type Broadcast = ConsoleAnswer<'ConsoleGetBroadcast'>['broadcast'];

export const broadcastPath = (broadcastId: string) => `/console/broadcasts/${encodeURIComponent(broadcastId)}`;

const statusTones: Record<Broadcast['status'], Tone> = {
  draft: 'neutral',
  scheduled: 'info',
  running: 'accent',
  paused: 'warning',
  done: 'success',
  cancelled: 'danger',
};

export const BroadcastStatus = ({ status }: { status: Broadcast['status'] }) => <Badge tone={statusTones[status]}>{status}</Badge>;

/** While these, the page follows the broadcast: it sends on its own. */
const moving = (status: Broadcast['status']) => status === 'scheduled' || status === 'running';

const count = (n: number) => n.toLocaleString('en-GB');
const suppressedOf = (broadcast: Broadcast) => Object.values(broadcast.counts.suppressed).reduce((sum, n) => sum + n, 0);

function when(broadcast: Broadcast): string {
  const { schedule } = broadcast;
  if (schedule.kind === 'local') return `${schedule.day} at ${schedule.time}, each player's local time`;
  if (schedule.kind === 'at') return new Date(schedule.at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  return 'As soon as started';
}

function Progress({ broadcast, label }: { broadcast: Broadcast; label: string }) {
  const { done, total } = broadcast.progress;
  if (total === 0) return <span class="muted">{broadcast.status === 'draft' || broadcast.status === 'scheduled' ? 'Not started' : 'No members'}</span>;
  return (
    <span class="broadcast-progress">
      <progress aria-label={label} max={total} value={done} />
      <span>
        {count(done)} of {count(total)}
      </span>
    </span>
  );
}

const columns: readonly Column<Broadcast>[] = [
  {
    id: 'name',
    header: 'Name',
    value: (broadcast) => broadcast.name.toLowerCase(),
    cell: (broadcast) => <a href={broadcastPath(broadcast.broadcast_id)}>{broadcast.name}</a>,
    rowHeader: true,
    required: true,
  },
  { id: 'status', header: 'Status', value: (broadcast) => broadcast.status, cell: (broadcast) => <BroadcastStatus status={broadcast.status} /> },
  {
    id: 'progress',
    header: 'Progress',
    value: (broadcast) => (broadcast.progress.total === 0 ? 0 : broadcast.progress.done / broadcast.progress.total),
    cell: (broadcast) => <Progress broadcast={broadcast} label={`Progress of ${broadcast.name}`} />,
  },
  { id: 'sent', header: 'Sent', value: (broadcast) => broadcast.counts.sent, cell: (broadcast) => count(broadcast.counts.sent), numeric: true },
  { id: 'segment', header: 'Segment', value: (broadcast) => broadcast.segment_id, cell: (broadcast) => <code>{broadcast.segment_id}</code> },
  { id: 'template', header: 'Template', value: (broadcast) => broadcast.template_id, cell: (broadcast) => <code>{broadcast.template_id}</code>, hidden: true },
  { id: 'created_at', header: 'Created', value: (broadcast) => broadcast.created_at, cell: (broadcast) => <When at={broadcast.created_at} /> },
];

export function BroadcastsPage() {
  const { role } = useSession();
  const list = useApi(() => getJson<ConsoleAnswer<'ConsoleListBroadcasts'>>('/broadcasts'), 'broadcasts');
  return (
    <>
      <PageHeader
        title="Broadcasts"
        subtitle="A template sent once to every member of a segment: now, at a set time, or at a local time of each player. Every message asks the send gate."
        actions={
          role !== 'viewer' && (
            <a class="button primary" href="/console/broadcasts/new">
              New broadcast
            </a>
          )
        }
      />
      <DataTable
        label="Broadcasts"
        rows={list.data?.broadcasts}
        columns={columns}
        rowId={(broadcast) => broadcast.broadcast_id}
        loading={list.loading}
        error={list.error && <ErrorNote error={list.error} />}
        empty={
          role === 'viewer'
            ? 'No broadcasts yet.'
            : 'No broadcasts yet. Make one with “New broadcast”: pick a template and a segment, then start it when you are ready.'
        }
      />
    </>
  );
}

const fields = ['name', 'template_id', 'segment_id', 'purpose', 'topic', 'schedule', 'holdout_percent'] as const;

export function NewBroadcastPage() {
  const { route } = useLocation();
  const segments = useApi(() => getJson<ConsoleAnswer<'ConsoleListSegments'>>('/segments'), 'segments');
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [segmentId, setSegmentId] = useState('');
  const [purpose, setPurpose] = useState<'marketing' | 'transactional'>('marketing');
  const [topic, setTopic] = useState('');
  const [kind, setKind] = useState<'now' | 'at' | 'local'>('now');
  const [at, setAt] = useState('');
  const [day, setDay] = useState('');
  const [time, setTime] = useState('18:00');
  const [holdout, setHoldout] = useState('0');
  const { busy, failed, run } = useChange('Your role may not create broadcasts.');
  const failure = failed('create');
  const errors = Object.fromEntries(fields.map((field) => [field, errorsOf(failure, field)])) as Record<(typeof fields)[number], string[]>;
  const choices = (segments.data?.segments ?? []).filter((segment) => segment.status !== 'archived');

  const create = async (event: Event) => {
    event.preventDefault();
    const schedule =
      kind === 'at' ? { kind, at: Number.isNaN(Date.parse(at)) ? at : new Date(at).toISOString() } : kind === 'local' ? { kind, day, time } : { kind };
    const body = {
      name: name.trim(),
      template_id: templateId.trim(),
      segment_id: segmentId,
      purpose,
      ...(topic.trim() ? { topic: topic.trim() } : {}),
      schedule,
      holdout_percent: Number(holdout) || 0,
    };
    const answer = await run(
      'create',
      () => postJson<ConsoleAnswer<'ConsoleCreateBroadcast'>>('/broadcasts', body),
      ({ broadcast }) => `Broadcast “${broadcast.name}” created as a draft: start it when you are ready.`,
    );
    if (answer) route(broadcastPath(answer.broadcast.broadcast_id));
  };

  return (
    <>
      <PageHeader
        trail={[{ label: 'Broadcasts', href: '/console/broadcasts' }, { label: 'New broadcast' }]}
        title="New broadcast"
        subtitle="Saved as a draft. Its members are taken from the segment when it starts, and each gets the message once."
      />
      <form class="broadcast-form" onSubmit={create} aria-label="New broadcast" noValidate>
        <TemplateChoices prefix="broadcast-templates" />
        <Card title="Message">
          <div class="form-row">
            <Field id="broadcast-name" label="Name" errors={errors.name}>
              <input
                {...fieldProps('broadcast-name', errors.name)}
                name="name"
                value={name}
                onInput={(e) => setName(e.currentTarget.value)}
                required
                maxLength={120}
                autocomplete="off"
                placeholder="e.g. Weekend reload bonus"
              />
            </Field>
            <Field id="broadcast-template" label="Template" hint="The id of an email or push template." errors={errors.template_id}>
              <input
                {...fieldProps('broadcast-template', errors.template_id, true)}
                name="template_id"
                value={templateId}
                onInput={(e) => setTemplateId(e.currentTarget.value)}
                list={templateChoicesId('broadcast-templates', 'any')}
                required
                maxLength={64}
                autocomplete="off"
                spellcheck={false}
                placeholder="e.g. weekend-reload"
              />
            </Field>
          </div>
          <div class="form-row">
            <Field id="broadcast-purpose" label="Purpose" hint="Marketing honours consent, unsubscribes, caps and quiet hours." errors={errors.purpose}>
              <select
                {...fieldProps('broadcast-purpose', errors.purpose, true)}
                name="purpose"
                value={purpose}
                onChange={(e) => setPurpose(e.currentTarget.value as 'marketing' | 'transactional')}
              >
                <option value="marketing">Marketing</option>
                <option value="transactional">Transactional</option>
              </select>
            </Field>
            <Field id="broadcast-topic" label="Topic (optional)" hint="A topic of Settings, Messaging: players who left it get nothing." errors={errors.topic}>
              <input
                {...fieldProps('broadcast-topic', errors.topic, true)}
                name="topic"
                value={topic}
                onInput={(e) => setTopic(e.currentTarget.value)}
                maxLength={64}
                autocomplete="off"
                spellcheck={false}
              />
            </Field>
          </div>
        </Card>
        <Card title="Audience">
          <div class="form-row">
            <Field id="broadcast-segment" label="Segment" errors={errors.segment_id}>
              <select
                {...fieldProps('broadcast-segment', errors.segment_id)}
                name="segment_id"
                value={segmentId}
                onChange={(e) => setSegmentId(e.currentTarget.value)}
                required
              >
                <option value="">{segments.loading ? 'Loading segments…' : 'Choose a segment'}</option>
                {choices.map((segment) => (
                  <option key={segment.segment_id} value={segment.segment_id}>
                    {segment.name} ({count(segment.size)} members)
                  </option>
                ))}
              </select>
            </Field>
            <Field
              id="broadcast-holdout"
              label="Holdout (%)"
              hint="Members held out get nothing: the results compare them with those who got it. 0 to 50."
              errors={errors.holdout_percent}
            >
              <input
                {...fieldProps('broadcast-holdout', errors.holdout_percent, true)}
                name="holdout_percent"
                type="number"
                inputMode="numeric"
                min={0}
                max={50}
                step={1}
                value={holdout}
                onInput={(e) => setHoldout(e.currentTarget.value)}
              />
            </Field>
          </div>
          {segments.error && <ErrorNote error={segments.error} />}
        </Card>
        <Card title="When">
          <fieldset class="broadcast-when">
            <legend>Send</legend>
            <label>
              <input type="radio" name="when" value="now" checked={kind === 'now'} onChange={() => setKind('now')} /> As soon as started
            </label>
            <label>
              <input type="radio" name="when" value="at" checked={kind === 'at'} onChange={() => setKind('at')} /> At a set time
            </label>
            <label>
              <input type="radio" name="when" value="local" checked={kind === 'local'} onChange={() => setKind('local')} /> At a local time of each player
            </label>
          </fieldset>
          {kind === 'at' && (
            <Field id="broadcast-at" label="Date and time" hint="In your browser's time zone." errors={errors.schedule}>
              <input {...fieldProps('broadcast-at', errors.schedule, true)} type="datetime-local" value={at} onInput={(e) => setAt(e.currentTarget.value)} />
            </Field>
          )}
          {kind === 'local' && (
            <div class="form-row">
              <Field id="broadcast-day" label="Day" errors={errors.schedule}>
                <input {...fieldProps('broadcast-day', errors.schedule)} type="date" value={day} onInput={(e) => setDay(e.currentTarget.value)} />
              </Field>
              <Field id="broadcast-time" label="Local time" hint="In each player's urm_timezone, else the application's.">
                <input {...fieldProps('broadcast-time', undefined, true)} type="time" value={time} onInput={(e) => setTime(e.currentTarget.value)} />
              </Field>
            </div>
          )}
        </Card>
        <FormFailure failure={failure} not="Not created" fields={fields} />
        <FormActions>
          <button type="submit" class="primary" aria-busy={busy === 'create'} disabled={busy !== undefined}>
            Create broadcast
          </button>
          <a class="button" href="/console/broadcasts">
            Cancel
          </a>
        </FormActions>
      </form>
    </>
  );
}

function Actions({ broadcast, onChanged }: { broadcast: Broadcast; onChanged: () => void }) {
  const { busy, failed, run } = useChange('Your role may not change broadcasts.');
  const act = (action: 'start' | 'pause' | 'resume' | 'cancel', said: string) =>
    run(
      action,
      () => postJson<ConsoleAnswer<'ConsoleStartBroadcast'>>(`/broadcasts/${encodeURIComponent(broadcast.broadcast_id)}/${action}`),
      () => {
        onChanged();
        return `Broadcast “${broadcast.name}” ${said}.`;
      },
    );
  const { status } = broadcast;
  return (
    <div class="broadcast-actions">
      <div class="cluster">
        {status === 'draft' && (
          <button type="button" class="primary" aria-busy={busy === 'start'} disabled={busy !== undefined} onClick={() => void act('start', 'started')}>
            {broadcast.schedule.kind === 'now' ? 'Start' : 'Schedule'}
          </button>
        )}
        {moving(status) && (
          <button type="button" aria-busy={busy === 'pause'} disabled={busy !== undefined} onClick={() => void act('pause', 'paused')}>
            Pause
          </button>
        )}
        {status === 'paused' && (
          <button type="button" class="primary" aria-busy={busy === 'resume'} disabled={busy !== undefined} onClick={() => void act('resume', 'resumed')}>
            Resume
          </button>
        )}
        {(status === 'draft' || moving(status) || status === 'paused') && (
          <ConfirmButton
            label="Cancel broadcast"
            title={`Cancel ${broadcast.name}?`}
            confirmLabel="Stop broadcast"
            onConfirm={() => void act('cancel', 'cancelled')}
            busy={busy === 'cancel'}
          >
            <p>No more messages go out. Those already sent stay sent; a cancelled broadcast cannot be started again.</p>
          </ConfirmButton>
        )}
      </div>
      <FormFailure failure={failed()} not="Not changed" />
    </div>
  );
}

export function BroadcastPage({ id }: { id: string }) {
  const { role } = useSession();
  const [round, setRound] = useState(0);
  const broadcast = useApi(() => getJson<ConsoleAnswer<'ConsoleGetBroadcast'>>(`/broadcasts/${encodeURIComponent(id)}`), `${id}\n${round}`);
  const b = broadcast.data?.broadcast;
  // Follows a broadcast that sends on its own; the previous figures stay shown while the next arrive.
  useEffect(() => {
    if (!b || !moving(b.status)) return undefined;
    const timer = setTimeout(() => setRound((n) => n + 1), 2000);
    return () => clearTimeout(timer);
  }, [b, round]);
  const trail = [{ label: 'Broadcasts', href: '/console/broadcasts' }, { label: b ? b.name : <Visible text={id} /> }];
  if (broadcast.error?.status === 404)
    return (
      <>
        <PageHeader trail={trail} title={<Visible text={id} />} />
        <p role="alert" class="alert tone-danger">
          There is no broadcast with this id in this application.
        </p>
      </>
    );
  const kpis: Kpi[] = b
    ? [
        { label: 'Members', value: count(b.counts.entered), note: b.snapshot.done ? 'taken at the start' : 'being taken', key: true, id: 'broadcast-entered' },
        { label: 'Sent', value: count(b.counts.sent), note: 'accepted for delivery', id: 'broadcast-sent' },
        { label: 'Suppressed', value: count(suppressedOf(b)), note: 'refused by the send gate', id: 'broadcast-suppressed' },
        { label: 'Held out', value: count(b.counts.held_out), note: `${b.holdout_percent}% holdout`, id: 'broadcast-held-out' },
        {
          label: 'Failed',
          value: count(b.counts.failed),
          note: b.counts.deferred > 0 ? `${count(b.counts.deferred)} deferred to after quiet hours` : 'not sent',
          id: 'broadcast-failed',
        },
      ]
    : [];
  const reasons = b ? Object.entries(b.counts.suppressed).filter(([, n]) => n > 0) : [];
  return (
    <>
      <PageHeader
        trail={trail}
        title={b ? b.name : <Visible text={id} />}
        subtitle={b && <BroadcastStatus status={b.status} />}
        actions={b && role !== 'viewer' && <Actions broadcast={b} onChanged={() => setRound((n) => n + 1)} />}
      />
      {broadcast.error && <ErrorNote error={broadcast.error} />}
      {!b && broadcast.loading && <Loading what="the broadcast" />}
      {b && (
        <div class="broadcast-page">
          <Card title="Progress">
            <div class="broadcast-progress-card" role="status" aria-live="polite">
              <Progress broadcast={b} label="Broadcast progress" />
              <span class="muted">
                {b.status === 'done' && b.finished_at ? (
                  <>
                    Finished <When at={b.finished_at} />.
                  </>
                ) : null}
                {b.status === 'running' && 'Sending at the application’s broadcast rate.'}
                {b.status === 'paused' && 'Paused: nothing is sent until it is resumed.'}
                {b.status === 'scheduled' && b.start_at ? (
                  <>
                    Starts <When at={b.start_at} />.
                  </>
                ) : null}
                {b.status === 'draft' && 'A draft: nothing is sent until it is started.'}
                {b.status === 'cancelled' && 'Cancelled: nothing more is sent.'}
              </span>
            </div>
          </Card>
          <KpiCards label="Broadcast figures" kpis={kpis} />
          {reasons.length > 0 && (
            <Card title="Suppressed by reason">
              <ul class="broadcast-reasons">
                {reasons.map(([reason, n]) => (
                  <li key={reason}>
                    <code>{reason}</code> <span>{count(n)}</span>
                  </li>
                ))}
              </ul>
            </Card>
          )}
          <Card title="Details">
            <dl class="broadcast-details">
              <dt>Template</dt>
              <dd>
                <code>{b.template_id}</code>
              </dd>
              <dt>Segment</dt>
              <dd>
                <a href={`/console/segments/${encodeURIComponent(b.segment_id)}`}>
                  <code>{b.segment_id}</code>
                </a>
              </dd>
              <dt>Purpose</dt>
              <dd>
                {b.purpose}
                {b.topic ? `, topic ${b.topic}` : ''}
              </dd>
              <dt>When</dt>
              <dd>{when(b)}</dd>
              <dt>Created</dt>
              <dd>
                <When at={b.created_at} /> by <span class="break">{b.created_by}</span>
              </dd>
            </dl>
          </Card>
        </div>
      )}
    </>
  );
}
