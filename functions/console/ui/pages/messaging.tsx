/**
 * Messaging one player from its page (admins, marketers): an email through
 * one of the application's channels, to the player's own `email` attribute,
 * or a web push to its devices, marketing unless the user says it is an
 * account message (the send gate decides). A send's result is a toast; a
 * refusal, or the gate's no or later, stays next to the form (the server's message, a 400's errors under the fields
 * they name). The send shows on the timeline (urm_email_sent / urm_push_sent)
 * within seconds.
 */
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { Field, errorsFor, fieldProps, otherErrors } from '../../../ui/design/field';
import { useToast } from '../../../ui/design/toast';
import { refusal, Result, type Outcome } from '../actions';
import { ApiError, postJson } from '../api';
import { ErrorNote } from '../components';
import type { Loaded } from '../use-api';

/** A topic of the application a marketing message may be about. */
export interface Topic {
  name: string;
  label: string;
}

type HeldBack = { suppressed: string; detail: string } | { deferred_until: string; detail: string };

/** Marketing (the gate's every rule) or an account message (suppression only), with the reason an auditor reads. */
function usePurpose(prefix: string, topics: readonly Topic[]) {
  const [purpose, setPurpose] = useState<'marketing' | 'transactional'>('marketing');
  const [reason, setReason] = useState('');
  const [topic, setTopic] = useState('');
  const body = purpose === 'transactional' ? { purpose, reason: reason.trim() } : { purpose, ...(topic ? { topic } : {}) };
  const reset = () => {
    setPurpose('marketing');
    setReason('');
    setTopic('');
  };
  const fields = (errors: string[]) => {
    const reasonErrors = errorsFor(errors, 'reason');
    return (
      <>
        <fieldset class="send-purpose">
          <legend>Purpose</legend>
          <label>
            <input type="radio" name={`${prefix}-purpose`} value="marketing" checked={purpose === 'marketing'} onChange={() => setPurpose('marketing')} />{' '}
            Marketing
          </label>
          <label>
            <input
              type="radio"
              name={`${prefix}-purpose`}
              value="transactional"
              checked={purpose === 'transactional'}
              onChange={() => setPurpose('transactional')}
            />{' '}
            Transactional (account message)
          </label>
        </fieldset>
        {purpose === 'marketing' && topics.length > 0 && (
          <Field id={`${prefix}-topic`} label="Topic" hint="A player who unsubscribed from the topic is not sent the message.">
            <select id={`${prefix}-topic`} name="topic" value={topic} onChange={(e) => setTopic(e.currentTarget.value)}>
              <option value="">No topic</option>
              {topics.map((choice) => (
                <option key={choice.name} value={choice.name}>
                  {choice.label}
                </option>
              ))}
            </select>
          </Field>
        )}
        {purpose === 'transactional' && (
          <Field id={`${prefix}-reason`} label="Reason" errors={reasonErrors} hint="Why this is an account message, not marketing: kept in the audit log.">
            <input
              {...fieldProps(`${prefix}-reason`, reasonErrors)}
              name="reason"
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
              required
              maxLength={500}
              autocomplete="off"
            />
          </Field>
        )}
      </>
    );
  };
  return { body, reset, fields };
}

/** One send per click; a retry of the same click (same action_id) would not send twice. */
function useSend(url: string, fields: readonly string[], onSent: () => void) {
  const notify = useToast();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const [errors, setErrors] = useState<string[]>([]);
  const send = async <T extends object>(body: Record<string, unknown>, describe: (answer: Exclude<T, HeldBack>) => string) => {
    setBusy(true);
    setOutcome(undefined);
    setErrors([]);
    try {
      const answer = await postJson<T>(url, { ...body, action_id: crypto.randomUUID() });
      // The gate's answer stays by the form: the operator reads why, and the timeline has it too.
      const held = answer as Partial<{ suppressed: string; deferred_until: string; detail: string }>;
      if (held.suppressed !== undefined) {
        setOutcome({ kind: 'error', text: `Not sent: ${held.detail ?? held.suppressed}.` });
        onSent();
        return false;
      }
      if (held.deferred_until !== undefined) {
        setOutcome({ kind: 'success', text: `Deferred: ${held.detail}. It goes out at ${new Date(held.deferred_until).toLocaleString()}.` });
        onSent();
        return true;
      }
      notify('success', describe(answer as Exclude<T, HeldBack>));
      onSent();
      return true;
    } catch (error) {
      const words = { prefix: 'Not sent: ', end: '.', forbidden: 'your role may not message players.' };
      // A 400's messages that name a field go under it; the alert says the rest.
      if (error instanceof ApiError && error.status === 400 && error.errors.length > 0) {
        setErrors(error.errors);
        const rest = otherErrors(error.errors, fields);
        setOutcome(refusal(new ApiError(400, error.message, rest), words));
      } else setOutcome(refusal(error, words));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, outcome, errors, send };
}

export function SendEmail({
  path,
  channels,
  topics = [],
  onSent,
}: {
  path: string;
  channels: Loaded<ConsoleAnswer<'ConsoleListChannels'>>;
  topics?: readonly Topic[];
  onSent: () => void;
}) {
  const [channelId, setChannelId] = useState('');
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const { busy, outcome, errors, send } = useSend(`${path}/email`, ['channel_id', 'subject', 'text_body', 'reason'], onSent);
  const why = usePurpose('email', topics);
  const enabled = channels.data?.channels.filter((channel) => channel.enabled) ?? [];
  const chosen = channelId || enabled[0]?.channel_id || '';

  const submit = async (event: Event) => {
    event.preventDefault();
    const sent = await send<ConsoleAnswer<'ConsoleEmailPlayer'>>(
      { channel_id: chosen, subject, text_body: text, ...why.body },
      (answer) => `Email sent (message ${answer.message_id}). It shows on the timeline within seconds.`,
    );
    if (sent) {
      setSubject('');
      setText('');
      why.reset();
    }
  };

  const channelErrors = errorsFor(errors, 'channel_id');
  const subjectErrors = errorsFor(errors, 'subject');
  const textErrors = errorsFor(errors, 'text_body');
  return (
    <form class="send-form" onSubmit={submit} aria-labelledby="send-email-title">
      <h3 id="send-email-title">Send email</h3>
      <p class="muted">To the player's own address (its email attribute).</p>
      {channels.error && <ErrorNote error={channels.error} />}
      <Field
        id="email-channel"
        label="Channel"
        errors={channelErrors}
        hint={channels.data && enabled.length === 0 ? 'No enabled channel: an admin adds one in Settings.' : undefined}
      >
        <select
          {...fieldProps('email-channel', channelErrors, !!channels.data && enabled.length === 0)}
          name="channel_id"
          value={chosen}
          onChange={(e) => setChannelId(e.currentTarget.value)}
          required
        >
          {enabled.length === 0 && <option value="">{channels.data ? 'no enabled channel' : 'loading channels…'}</option>}
          {enabled.map((channel) => (
            <option key={channel.channel_id} value={channel.channel_id}>
              {channel.name} — {channel.from_name} &lt;{channel.from_email}&gt;
            </option>
          ))}
        </select>
      </Field>
      <Field id="email-subject" label="Subject" errors={subjectErrors}>
        <input
          {...fieldProps('email-subject', subjectErrors)}
          name="subject"
          value={subject}
          onInput={(e) => setSubject(e.currentTarget.value)}
          required
          maxLength={998}
          autocomplete="off"
        />
      </Field>
      <Field id="email-text" label="Text" errors={textErrors}>
        <textarea {...fieldProps('email-text', textErrors)} name="text_body" rows={5} value={text} onInput={(e) => setText(e.currentTarget.value)} required />
      </Field>
      {why.fields(errors)}
      <div class="form-actions">
        <button type="submit" class="primary" aria-busy={busy} disabled={busy || !chosen}>
          Send email
        </button>
      </div>
      <Result outcome={outcome} />
    </form>
  );
}

/**
 * `unavailable`: why no push can reach the player (no web push device, or it
 * said no to notifications); the form is shown disabled, with the reason.
 */
export function SendPush({ path, unavailable, topics = [], onSent }: { path: string; unavailable?: string; topics?: readonly Topic[]; onSent: () => void }) {
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [url, setUrl] = useState('');
  const { busy, outcome, errors, send } = useSend(`${path}/push`, ['title', 'body', 'url', 'reason'], onSent);
  const why = usePurpose('push', topics);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (unavailable) return;
    const sent = await send<ConsoleAnswer<'ConsolePushPlayer'>>(
      { title, body, ...(url.trim() ? { url: url.trim() } : {}), ...why.body },
      (answer) =>
        `Push sent to ${answer.sent} device${answer.sent === 1 ? '' : 's'}${answer.failed ? `, ${answer.failed} failed` : ''}${answer.removed ? `, ${answer.removed} expired and removed` : ''}${answer.skipped ? `, ${answer.skipped} skipped` : ''}.`,
    );
    if (sent) {
      setTitle('');
      setBody('');
      setUrl('');
      why.reset();
    }
  };

  const off = !!unavailable;
  const titleErrors = errorsFor(errors, 'title');
  const bodyErrors = errorsFor(errors, 'body');
  const urlErrors = errorsFor(errors, 'url');
  return (
    <form class="send-form" onSubmit={submit} aria-labelledby="send-push-title">
      <h3 id="send-push-title">Send push</h3>
      <p class="muted">To the player's web push devices.</p>
      {/* Nothing to fill in when nothing can be sent: the reason, and the button it disables. */}
      {unavailable ? (
        <p class="alert tone-warning" id="push-unavailable">
          {unavailable}
        </p>
      ) : (
        <>
          <Field id="push-title" label="Title" errors={titleErrors}>
            <input
              {...fieldProps('push-title', titleErrors)}
              name="title"
              value={title}
              onInput={(e) => setTitle(e.currentTarget.value)}
              required
              autocomplete="off"
            />
          </Field>
          <Field id="push-body" label="Body" errors={bodyErrors}>
            <textarea {...fieldProps('push-body', bodyErrors)} name="body" rows={3} value={body} onInput={(e) => setBody(e.currentTarget.value)} required />
          </Field>
          <Field id="push-url" label="Link (optional)" errors={urlErrors}>
            <input
              {...fieldProps('push-url', urlErrors)}
              name="url"
              type="url"
              value={url}
              onInput={(e) => setUrl(e.currentTarget.value)}
              placeholder="https://"
              autocomplete="off"
            />
          </Field>
          {why.fields(errors)}
        </>
      )}
      <div class="form-actions">
        <button type="submit" class="primary" aria-busy={busy} disabled={busy || off} aria-describedby={off ? 'push-unavailable' : undefined}>
          Send push
        </button>
      </div>
      <Result outcome={outcome} />
    </form>
  );
}
