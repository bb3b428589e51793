/** The frame of every portal page: the application's name, the navigation when signed in, and the design system's stylesheet. */
import type { ComponentChildren } from 'preact';
import { Field as DesignField, fieldProps } from '../../ui/design/field';
import { portalCss } from './style';

export interface Frame {
  title: string;
  appName?: string;
  /** Shown when someone is signed in: their name, the navigation and the sign-out form. */
  signedIn?: { name: string; csrf: string; current: 'dashboard' | 'links' | 'postbacks' | 'payments' | 'profile' };
  narrow?: boolean;
  /** The bar's name in place of the affiliate programme's: the preference page is the application's own. */
  brand?: string;
  /** A page's own stylesheet after the portal's (its CSP allows it by hash). */
  extraCss?: string;
}

const navigation = [
  ['dashboard', './', 'Dashboard'],
  ['links', 'links', 'Links'],
  ['postbacks', 'postbacks', 'Postbacks'],
  ['payments', 'payments', 'Payments'],
  ['profile', 'profile', 'Profile'],
] as const;

export function Layout(props: Frame & { children: ComponentChildren }) {
  const brand = props.brand ?? (props.appName ? `${props.appName} · Affiliates` : 'Affiliate portal');
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${props.title} · ${brand}`}</title>
        <style dangerouslySetInnerHTML={{ __html: portalCss }} />
        {props.extraCss && <style dangerouslySetInnerHTML={{ __html: props.extraCss }} />}
      </head>
      <body class="portal">
        <a class="skip" href="#content">
          Skip to content
        </a>
        <header class="bar">
          <div class="inner">
            <span class="brand">{brand}</span>
            {props.signedIn && (
              <>
                <nav aria-label="Portal">
                  {navigation.map(([key, href, label]) => (
                    <a key={key} href={href} aria-current={props.signedIn?.current === key ? 'page' : undefined}>
                      {label}
                    </a>
                  ))}
                </nav>
                <div class="account">
                  <span class="who" id="signed-in-as">
                    {props.signedIn.name}
                  </span>
                  <form method="post" action="sign_out">
                    <input type="hidden" name="csrf" value={props.signedIn.csrf} />
                    <button type="submit" class="quiet small">
                      Sign out
                    </button>
                  </form>
                </div>
              </>
            )}
          </div>
        </header>
        <main id="content" class={props.narrow ? 'page narrow' : 'page'}>
          {props.children}
        </main>
      </body>
    </html>
  );
}

const tones = { bad: 'danger', ok: 'success', info: 'info' } as const;

/** A message in the design system's alert: `role="alert"` for a problem, `status` otherwise. */
export function Notice(props: { kind: 'bad' | 'ok' | 'info'; id?: string; children: ComponentChildren }) {
  return (
    <div class={`alert tone-${tones[props.kind]}`} role={props.kind === 'bad' ? 'alert' : 'status'} id={props.id}>
      {props.children}
    </div>
  );
}

/** A labelled input with its hint and its error under it (the design system's Field), tied to it for screen readers. */
export function Field(props: {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password' | 'url' | 'date' | 'tel';
  value?: string;
  error?: string;
  autocomplete?: string;
  required?: boolean;
  autofocus?: boolean;
  hint?: string;
}) {
  const id = `field-${props.name}`;
  const errors = props.error ? [props.error] : undefined;
  return (
    <DesignField id={id} label={props.label} hint={props.hint} errors={errors}>
      <input
        {...({ type: props.type } as { type: 'text' })}
        {...fieldProps(id, errors, !!props.hint)}
        name={props.name}
        value={props.value}
        autocomplete={props.autocomplete}
        required={props.required}
        autofocus={props.autofocus}
      />
    </DesignField>
  );
}

export const Csrf = (props: { token: string }) => <input type="hidden" name="csrf" value={props.token} />;

export { TableRegion } from '../../ui/design/page';
