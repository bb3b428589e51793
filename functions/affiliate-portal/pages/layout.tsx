/** The frame of every portal page: the application's name, the navigation when signed in, and the one stylesheet. */
import type { ComponentChildren } from 'preact';
import { portalCss } from './style';

export interface Frame {
  title: string;
  appName?: string;
  /** Shown when someone is signed in: their name, the navigation and the sign-out form. */
  signedIn?: { name: string; csrf: string; current: 'dashboard' | 'links' | 'postbacks' };
  narrow?: boolean;
}

export function Layout(props: Frame & { children: ComponentChildren }) {
  const brand = props.appName ? `${props.appName} · Affiliates` : 'Affiliate portal';
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${props.title} · ${brand}`}</title>
        <style dangerouslySetInnerHTML={{ __html: portalCss }} />
      </head>
      <body>
        <a class="skip" href="#content">
          Skip to content
        </a>
        <header class="bar">
          <div class="inner">
            <span class="brand">{brand}</span>
            {props.signedIn && (
              <nav aria-label="Portal">
                <a href="./" aria-current={props.signedIn.current === 'dashboard' ? 'page' : undefined}>
                  Dashboard
                </a>
                <a href="links" aria-current={props.signedIn.current === 'links' ? 'page' : undefined}>
                  Links
                </a>
                <a href="postbacks" aria-current={props.signedIn.current === 'postbacks' ? 'page' : undefined}>
                  Postbacks
                </a>
                <span class="who" id="signed-in-as">
                  {props.signedIn.name}
                </span>
                <form method="post" action="sign_out">
                  <input type="hidden" name="csrf" value={props.signedIn.csrf} />
                  <button type="submit" class="quiet">
                    Sign out
                  </button>
                </form>
              </nav>
            )}
          </div>
        </header>
        <main id="content" class={props.narrow ? 'narrow' : undefined}>
          {props.children}
        </main>
      </body>
    </html>
  );
}

export function Notice(props: { kind: 'bad' | 'ok' | 'info'; id?: string; children: ComponentChildren }) {
  return (
    <div class={`notice ${props.kind}`} role={props.kind === 'bad' ? 'alert' : 'status'} id={props.id}>
      {props.children}
    </div>
  );
}

/** A labelled input, its error next to it (and tied to it for screen readers). */
export function Field(props: {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password' | 'url' | 'date';
  value?: string;
  error?: string;
  autocomplete?: string;
  required?: boolean;
  autofocus?: boolean;
  hint?: string;
}) {
  const id = `field-${props.name}`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [props.hint ? hintId : undefined, props.error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        {...({ type: props.type } as { type: 'text' })}
        id={id}
        name={props.name}
        value={props.value}
        autocomplete={props.autocomplete}
        required={props.required}
        autofocus={props.autofocus}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy}
      />
      {props.hint && (
        <p class="muted" id={hintId}>
          {props.hint}
        </p>
      )}
      {props.error && (
        <p class="field-error" id={errorId}>
          {props.error}
        </p>
      )}
    </div>
  );
}

export const Csrf = (props: { token: string }) => <input type="hidden" name="csrf" value={props.token} />;
