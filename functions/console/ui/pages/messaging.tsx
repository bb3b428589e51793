/**
 * Messaging one player from its page (admins, marketers): an email through
 * one of the application's channels, to the player's own `email` attribute,
 * or a web push to its devices. The server's answer is shown as it is; the
 * send shows on the timeline (urm_email_sent / urm_push_sent) within seconds.
 */
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { refusal, Result, type Outcome } from '../actions';
import { postJson } from '../api';
import { ErrorNote } from '../components';
import type { Loaded } from '../use-api';

/** One send per click; a retry of the same click (same action_id) would not send twice. */
function useSend(url: string, onSent: () => void) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const send = async <T,>(body: Record<string, unknown>, describe: (answer: T) => string) => {
    setBusy(true);
    setOutcome(undefined);
    try {
      const answer = await postJson<T>(url, { ...body, action_id: crypto.randomUUID() });
      setOutcome({ kind: 'success', text: describe(answer) });
      onSent();
      return true;
    } catch (error) {
      setOutcome(refusal(error, { prefix: 'Not sent: ', end: '.', forbidden: 'your role may not message players.' }));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, outcome, send };
}

export function SendEmail({ path, channels, onSent }: { path: string; channels: Loaded<ConsoleAnswer<'ConsoleListChannels'>>; onSent: () => void }) {
  const [channelId, setChannelId] = useState('');
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const { busy, outcome, send } = useSend(`${path}/email`, onSent);
  const enabled = channels.data?.channels.filter((channel) => channel.enabled) ?? [];
  const chosen = channelId || enabled[0]?.channel_id || '';

  const submit = async (event: Event) => {
    event.preventDefault();
    const sent = await send<ConsoleAnswer<'ConsoleEmailPlayer'>>(
      { channel_id: chosen, subject, text_body: text },
      (answer) => `Email sent (message ${answer.message_id}). It shows on the timeline within seconds.`,
    );
    if (sent) {
      setSubject('');
      setText('');
    }
  };

  return (
    <form class="send-form" onSubmit={submit} aria-labelledby="send-email-title">
      <h3 id="send-email-title">Send email</h3>
      <p class="muted">To the player's own address (its email attribute).</p>
      {channels.error && <ErrorNote error={channels.error} />}
      <label for="email-channel">Channel</label>
      <select id="email-channel" name="channel_id" value={chosen} onChange={(e) => setChannelId(e.currentTarget.value)} required>
        {enabled.length === 0 && <option value="">{channels.data ? 'no enabled channel: an admin adds one in Settings' : 'loading channels…'}</option>}
        {enabled.map((channel) => (
          <option key={channel.channel_id} value={channel.channel_id}>
            {channel.name} — {channel.from_name} &lt;{channel.from_email}&gt;
          </option>
        ))}
      </select>
      <label for="email-subject">Subject</label>
      <input id="email-subject" name="subject" value={subject} onInput={(e) => setSubject(e.currentTarget.value)} required maxLength={998} autocomplete="off" />
      <label for="email-text">Text</label>
      <textarea id="email-text" name="text_body" rows={5} value={text} onInput={(e) => setText(e.currentTarget.value)} required />
      <button type="submit" aria-busy={busy} disabled={busy || !chosen}>
        Send email
      </button>
      <Result outcome={outcome} />
    </form>
  );
}

export function SendPush({ path, onSent }: { path: string; onSent: () => void }) {
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [url, setUrl] = useState('');
  const { busy, outcome, send } = useSend(`${path}/push`, onSent);

  const submit = async (event: Event) => {
    event.preventDefault();
    const sent = await send<ConsoleAnswer<'ConsolePushPlayer'>>(
      { title, body, ...(url.trim() ? { url: url.trim() } : {}) },
      (answer) =>
        `Push sent to ${answer.sent} device${answer.sent === 1 ? '' : 's'}${answer.failed ? `, ${answer.failed} failed` : ''}${answer.removed ? `, ${answer.removed} expired and removed` : ''}${answer.skipped ? `, ${answer.skipped} skipped` : ''}.`,
    );
    if (sent) {
      setTitle('');
      setBody('');
      setUrl('');
    }
  };

  return (
    <form class="send-form" onSubmit={submit} aria-labelledby="send-push-title">
      <h3 id="send-push-title">Send push</h3>
      <p class="muted">To the player's web push devices.</p>
      <label for="push-title">Title</label>
      <input id="push-title" name="title" value={title} onInput={(e) => setTitle(e.currentTarget.value)} required autocomplete="off" />
      <label for="push-body">Body</label>
      <textarea id="push-body" name="body" rows={3} value={body} onInput={(e) => setBody(e.currentTarget.value)} required />
      <label for="push-url">Link (optional)</label>
      <input id="push-url" name="url" type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://" autocomplete="off" />
      <button type="submit" aria-busy={busy} disabled={busy}>
        Send push
      </button>
      <Result outcome={outcome} />
    </form>
  );
}
