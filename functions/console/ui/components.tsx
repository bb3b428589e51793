/** Small pieces every page uses: loading and error notes, the pager, dates. */
import type { ComponentChildren } from 'preact';
import type { ApiError } from './api';

export function Loading({ what }: { what: string }) {
  return <p aria-busy="true">Loading {what}…</p>;
}

/** The server's answer, in words: 403 says the role may not; others show the server's message. */
export function ErrorNote({ error }: { error: ApiError }) {
  if (error.status === 403) return <Forbidden />;
  if (error.status === 404) return <p role="alert">Not found.</p>;
  return (
    <p role="alert" class="error">
      {error.message}
      {error.errors.length > 0 && ` (${error.errors.join('; ')})`}
    </p>
  );
}

export function Forbidden() {
  return (
    <div role="alert">
      <article>
        <header>
          <strong>Not allowed</strong>
        </header>
        Your role does not allow this. Ask an admin of the application if you need it.
      </article>
    </div>
  );
}

/** "Next" follows the server's cursor; "First page" goes back to the start (cursors only go forward). */
export function Pager({
  next,
  onNext,
  onFirst,
  atFirst,
}: {
  next: string | null | undefined;
  onNext: (cursor: string) => void;
  onFirst: () => void;
  atFirst: boolean;
}) {
  if (!next && atFirst) return null;
  return (
    <nav aria-label="Pages" class="pager">
      <ul>
        {!atFirst && (
          <li>
            <button type="button" class="secondary" onClick={onFirst}>
              First page
            </button>
          </li>
        )}
        {next && (
          <li>
            <button type="button" onClick={() => onNext(next)}>
              Next
            </button>
          </li>
        )}
      </ul>
    </nav>
  );
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A time in the reader's zone, the exact ISO value on hover and for machines. */
export function When({ at }: { at: string }) {
  const date = new Date(at);
  return (
    <time dateTime={at} title={at}>
      {Number.isNaN(date.getTime()) ? at : dateTime.format(date)}
    </time>
  );
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A value as JSON, so a string "true" and the boolean true read differently. */
export function Value({ value }: { value: unknown }) {
  return <code>{JSON.stringify(value)}</code>;
}
