/**
 * What every change the console makes shares: the POST's busy flag, its
 * outcome in words next to the form (the server's own message, the field
 * errors of a 400, a role's refusal), and a secret the answer carries shown
 * this once.
 */
import { useState } from 'preact/hooks';
import { errorsFor } from '../../ui/design/field';
import { Alert } from '../../ui/design/page';
import { useToast } from '../../ui/design/toast';
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

/** A change refused: the server's message, and its 400 `errors` for the fields to show. */
export interface Failure {
  message: string;
  errors: string[];
}

/**
 * A form's POST, the design system's way: its busy flag (the action under
 * way), a success told in a toast, a refusal kept for the form to show by its
 * fields (Field, errorsFor) and in its alert (FormFailure). `forbidden` is
 * what a 403 says.
 */
export function useChange(forbidden: string) {
  const notify = useToast();
  const [busy, setBusy] = useState<string | undefined>();
  const [failure, setFailure] = useState<(Failure & { action: string }) | undefined>();
  const run = async <T,>(action: string, call: () => Promise<T>, done: (answer: T) => string | undefined): Promise<T | undefined> => {
    setBusy(action);
    setFailure(undefined);
    try {
      const answer = await call();
      const text = done(answer);
      if (text) notify('success', text);
      return answer;
    } catch (error) {
      if (!(error instanceof ApiError)) setFailure({ action, message: 'The server could not be reached. Try again.', errors: [] });
      else if (error.status === 403) setFailure({ action, message: forbidden, errors: [] });
      else setFailure({ action, message: error.message, errors: error.errors });
      return undefined;
    } finally {
      setBusy(undefined);
    }
  };
  /** The refusal of `action` (of any action without one), if that was the last thing tried. */
  const failed = (action?: string): Failure | undefined => (failure && (action === undefined || failure.action === action) ? failure : undefined);
  return { busy, failure: failed(), failed, run, clear: () => setFailure(undefined) };
}

/** The messages about a field whose server paths may be spelt several ways (`cpa amount`, `cpa.amount`). */
export const errorsOf = (failure: Failure | undefined, ...paths: string[]) => paths.flatMap((path) => errorsFor(failure?.errors, path));

/**
 * A refusal in its form's alert: what did not happen and the server's
 * message, then the errors no field shows. A message some field shows is one
 * that names a path of `fields`, or that `shown` claims.
 */
export function FormFailure({
  failure,
  not = 'Not saved',
  fields = [],
  shown = () => false,
}: {
  failure: Failure | undefined;
  /** What did not happen: "Not saved", "Not created"… */
  not?: string;
  fields?: readonly string[];
  shown?: (message: string) => boolean;
}) {
  if (!failure) return null;
  const rest = failure.errors.filter((message) => !shown(message) && !fields.some((field) => errorsFor([message], field).length > 0));
  return (
    <Alert tone="danger">
      {not}: {failure.message}
      {rest.length > 0 && ` (${rest.join('; ')})`}
      {rest.length < failure.errors.length && '. See the marked fields.'}
    </Alert>
  );
}

export function FormActions({ children }: { children: preact.ComponentChildren }) {
  return <div class="form-actions">{children}</div>;
}
