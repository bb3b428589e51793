/**
 * What every change the console makes shares: the POST's busy flag, its
 * outcome in words next to the form (the server's own message, the field
 * errors of a 400, a role's refusal), and a secret the answer carries shown
 * this once.
 */
import { useState } from 'preact/hooks';
import { ApiError } from './api';

export type Outcome = { kind: 'error' | 'success'; text: string } | undefined;

/** How a refusal reads: `prefix` before the server's message ("Not sent: ") and `end` after it, `forbidden` for a 403. */
export interface RefusalWords {
  prefix?: string;
  end?: string;
  forbidden: string;
}

export function refusal(error: unknown, words: RefusalWords): Outcome {
  const prefix = words.prefix ?? '';
  if (!(error instanceof ApiError)) return { kind: 'error', text: `${prefix}the server could not be reached. Try again.` };
  if (error.status === 403) return { kind: 'error', text: `${prefix}${words.forbidden}` };
  return { kind: 'error', text: `${prefix}${error.message}${error.errors.length ? ` (${error.errors.join('; ')})` : ''}${words.end ?? ''}` };
}

export function Result({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return (
    <p role={outcome.kind === 'error' ? 'alert' : 'status'} class={outcome.kind}>
      {outcome.text}
    </p>
  );
}

/** A POST with its busy flag (the name of the action under way) and its outcome in words. */
export function useAction(words: RefusalWords) {
  const [busy, setBusy] = useState<string | undefined>();
  const [outcome, setOutcome] = useState<Outcome>();
  const run = async <T,>(name: string, call: () => Promise<T>, done: (answer: T) => string | undefined): Promise<T | undefined> => {
    setBusy(name);
    setOutcome(undefined);
    try {
      const answer = await call();
      const text = done(answer);
      setOutcome(text ? { kind: 'success', text } : undefined);
      return answer;
    } catch (error) {
      setOutcome(refusal(error, words));
      return undefined;
    } finally {
      setBusy(undefined);
    }
  };
  return { busy, outcome, run };
}

/** A secret shown this once: selectable, with a copy hint and a warning. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  return (
    <article class="shown-once" aria-live="polite">
      <header>
        <strong>{label}: copy it now</strong>
      </header>
      <p>
        <code class="secret" tabIndex={0}>
          {value}
        </code>
      </p>
      <p>
        <small>Select it and copy it (Ctrl+C / ⌘C) to where it is kept. It is not stored in a readable form: this page will not show it again.</small>
      </p>
    </article>
  );
}
