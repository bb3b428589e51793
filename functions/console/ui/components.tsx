/** The console's notes every page uses: loading, and the server's refusal in words. */
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
