/** "Join the programme": the application form, and what happens next. */
import { Csrf, Field, Layout, Notice } from './layout';
import { ProfileFields } from './profile';

export interface JoinView {
  appName?: string;
  csrf: string;
  values?: Record<string, string>;
  errors?: Record<string, string>;
  /** Minutes until this address may apply again. */
  throttled?: number;
}

export function JoinPage(props: JoinView) {
  const values = props.values ?? {};
  const errors = props.errors;
  return (
    <Layout title="Join the programme" appName={props.appName}>
      <div class="card join">
        <h1>Join the programme</h1>
        <p class="lead">
          Apply for an affiliate account{props.appName ? ` with ${props.appName}` : ''}. The programme team reviews each application before you can sign in.
        </p>
        {errors && (
          <Notice kind="bad" id="join-problems">
            Your application was not sent: check the fields marked below.
          </Notice>
        )}
        {props.throttled !== undefined && (
          <Notice kind="bad" id="join-throttled">
            Too many applications have come from your network. Please try again in about {props.throttled} {props.throttled === 1 ? 'minute' : 'minutes'}.
          </Notice>
        )}
        <form method="post" action="join" novalidate>
          <Csrf token={props.csrf} />
          <ProfileFields values={values} errors={errors}>
            <div class="form-row">
              <Field name="email" label="Email" type="email" value={values.email} error={errors?.email} autocomplete="email" required />
              <Field
                name="username"
                label="Username"
                type="text"
                value={values.username}
                error={errors?.username}
                autocomplete="username"
                hint="What you sign in with, with your email."
                required
              />
            </div>
            <div class="form-row">
              <Field
                name="password"
                label="Password"
                type="password"
                error={errors?.password}
                autocomplete="new-password"
                hint="At least 8 characters."
                required
              />
              <Field name="confirm" label="Password, again" type="password" error={errors?.confirm} autocomplete="new-password" required />
            </div>
          </ProfileFields>
          <div class="form-actions">
            <button type="submit" class="primary">
              Apply
            </button>
          </div>
        </form>
        <p class="below">
          Already have an account? <a href="login">Sign in</a>
        </p>
      </div>
    </Layout>
  );
}

export function JoinReceivedPage(props: { appName?: string }) {
  return (
    <Layout title="Application received" appName={props.appName} narrow>
      <div class="card access">
        <h1 id="join-received">Application received</h1>
        <Notice kind="ok">Thank you for applying.</Notice>
        <p>
          The programme team reviews every application. Once yours is approved, sign in with the username or email and password you chose: your dashboard, links
          and postbacks are there.
        </p>
        <p>Until then, signing in says that your account is awaiting approval.</p>
        <p>
          <a href="login">Go to sign-in</a>
        </p>
      </div>
    </Layout>
  );
}
