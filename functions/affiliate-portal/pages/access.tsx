/** The pages before and around signing in: sign-in, lockout, pending and suspended accounts, password reset, refusals. */
import { Csrf, Field, Layout, Notice } from './layout';

interface Base {
  appName?: string;
}

export function LoginPage(props: Base & { csrf: string; login?: string; problem?: 'invalid' | 'signed-out' | 'reset' | 'expired'; joinOpen?: boolean }) {
  return (
    <Layout title="Sign in" appName={props.appName} narrow>
      <div class="card access">
        <h1>Sign in</h1>
        <p class="lead">Your affiliate account{props.appName ? ` with ${props.appName}` : ''}.</p>
        {props.problem === 'invalid' && (
          <Notice kind="bad" id="sign-in-problem">
            That username or email and password do not match an account. Check both and try again.
          </Notice>
        )}
        {props.problem === 'signed-out' && <Notice kind="ok">You have signed out.</Notice>}
        {props.problem === 'reset' && <Notice kind="ok">Your password has been changed. Sign in with the new one.</Notice>}
        {props.problem === 'expired' && <Notice kind="info">Your session has ended. Please sign in again.</Notice>}
        <form method="post" action="login">
          <Csrf token={props.csrf} />
          <Field name="login" label="Username or email" type="text" value={props.login} autocomplete="username" required autofocus />
          <Field name="password" label="Password" type="password" autocomplete="current-password" required />
          <button type="submit" class="primary block">
            Sign in
          </button>
        </form>
        <p class="below">
          <a href="forgot">Forgot your password?</a>
        </p>
        {props.joinOpen && (
          <p class="below">
            New here? <a href="join">Join the programme</a>
          </p>
        )}
      </div>
    </Layout>
  );
}

/** Minutes until `until`, at least one, for a person to read. */
export function minutesUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
}

export function LockedPage(props: Base & { minutes: number }) {
  return (
    <Layout title="Sign-in paused" appName={props.appName} narrow>
      <div class="card access">
        <h1>Too many attempts</h1>
        <Notice kind="bad" id="locked">
          There have been too many unsuccessful sign-in attempts. For your security, signing in is paused for about {props.minutes}{' '}
          {props.minutes === 1 ? 'minute' : 'minutes'}.
        </Notice>
        <p>
          Wait and try again, or <a href="forgot">reset your password</a> if you have forgotten it.
        </p>
      </div>
    </Layout>
  );
}

const statusText = {
  pending: {
    title: 'Account awaiting approval',
    body: 'Your affiliate account has been created and is waiting for the programme team to approve it. You can sign in as soon as it is approved.',
  },
  suspended: {
    title: 'Account suspended',
    body: 'Your affiliate account has been suspended, so you cannot sign in. If you think this is a mistake, contact the affiliate programme team.',
  },
} as const;

export function AccountStatusPage(props: Base & { status: 'pending' | 'suspended' }) {
  const text = statusText[props.status];
  return (
    <Layout title={text.title} appName={props.appName} narrow>
      <div class="card access">
        <h1 id="status-title">{text.title}</h1>
        <p>{text.body}</p>
        <p>
          <a href="login">Back to sign-in</a>
        </p>
      </div>
    </Layout>
  );
}

export function ForgotPage(props: Base & { csrf: string; email?: string; error?: string }) {
  return (
    <Layout title="Reset your password" appName={props.appName} narrow>
      <div class="card access">
        <h1>Reset your password</h1>
        <p class="lead">Enter the email address of your affiliate account. We will send you a link to choose a new password.</p>
        <form method="post" action="forgot">
          <Csrf token={props.csrf} />
          <Field name="email" label="Email" type="email" value={props.email} error={props.error} autocomplete="email" required autofocus />
          <button type="submit" class="primary block">
            Send the link
          </button>
        </form>
        <p class="below">
          <a href="login">Back to sign-in</a>
        </p>
      </div>
    </Layout>
  );
}

/** The reset form's place when the application has no portal origin: a mailed link would have no address of the operator's to point to. */
export function ResetUnavailablePage(props: Base) {
  return (
    <Layout title="Password reset unavailable" appName={props.appName} narrow>
      <div class="card access">
        <h1>Password reset unavailable</h1>
        <Notice kind="bad" id="reset-unavailable">
          Passwords cannot be reset here yet: this affiliate programme has no portal address set, so there is no address a reset link could safely point to.
          Please ask the programme's operator to set the portal address, or to help you sign in.
        </Notice>
        <p>
          <a href="login">Back to sign-in</a>
        </p>
      </div>
    </Layout>
  );
}

export function ResetSentPage(props: Base) {
  return (
    <Layout title="Check your email" appName={props.appName} narrow>
      <div class="card access">
        <h1>Check your email</h1>
        <Notice kind="info" id="reset-sent">
          If an affiliate account uses that address, a link to choose a new password is on its way. The link works once, within an hour.
        </Notice>
        <p>
          <a href="login">Back to sign-in</a>
        </p>
      </div>
    </Layout>
  );
}

export function ResetPage(props: Base & { csrf: string; token: string; errors?: { password?: string; confirm?: string } }) {
  return (
    <Layout title="Choose a new password" appName={props.appName} narrow>
      <div class="card access">
        <h1>Choose a new password</h1>
        <form method="post" action="reset">
          <Csrf token={props.csrf} />
          <input type="hidden" name="token" value={props.token} />
          <Field
            name="password"
            label="New password"
            type="password"
            autocomplete="new-password"
            hint="At least 8 characters."
            error={props.errors?.password}
            required
            autofocus
          />
          <Field name="confirm" label="New password, again" type="password" autocomplete="new-password" error={props.errors?.confirm} required />
          <button type="submit" class="primary block">
            Save the new password
          </button>
        </form>
        <p class="below muted">Saving signs you out everywhere else.</p>
      </div>
    </Layout>
  );
}

const linkRefusals = {
  used: 'This reset link has already been used',
  expired: 'This reset link has expired',
  unknown: 'This reset link is not valid',
} as const;

export function ResetLinkRefusedPage(props: Base & { reason: keyof typeof linkRefusals }) {
  return (
    <Layout title="Reset link refused" appName={props.appName} narrow>
      <div class="card access">
        <h1 id="refused">{linkRefusals[props.reason]}</h1>
        <p>A reset link works once, within an hour of being sent.</p>
        <p>
          <a href="forgot">Send a new link</a>
        </p>
      </div>
    </Layout>
  );
}

export function ForbiddenPage(props: Base) {
  return (
    <Layout title="Form expired" appName={props.appName} narrow>
      <div class="card access">
        <h1>This form has expired</h1>
        <p>For your security the form could not be accepted. Go back, reload the page and try again.</p>
        <p>
          <a href="login">Go to sign-in</a>
        </p>
      </div>
    </Layout>
  );
}

/** An address of no application's portal, or of no page of one. */
export function NotFoundPage(props: { missing: 'portal' | 'page' }) {
  return (
    <Layout title="Not found" narrow>
      <div class="card access">
        <h1>{props.missing === 'page' ? 'There is no such page' : 'There is no affiliate portal here'}</h1>
        <p>Check the address you were given.</p>
      </div>
    </Layout>
  );
}

export function ErrorPage() {
  return (
    <Layout title="Something went wrong" narrow>
      <div class="card access">
        <h1>Something went wrong</h1>
        <p>Please try again in a moment.</p>
      </div>
    </Layout>
  );
}
