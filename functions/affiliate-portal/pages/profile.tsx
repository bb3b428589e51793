/** The affiliate's profile: names and contacts to edit, how it signs in (read only), and a password change. */
import type { ComponentChildren } from 'preact';
import type { AffiliateRecord } from '../../domain/affiliates';
import { PageHeader } from '../../ui/design/page';
import { Csrf, Field, Layout, Notice } from './layout';

/** The contact fields with their labels, types and hints, as register_affiliate's rules have them: the profile and the join page show them alike. */
export const contactInputs = [
  { name: 'website_url', label: 'Website', type: 'url', hint: 'Starting with https:// or http://.', autocomplete: 'url' },
  { name: 'phone_number', label: 'Phone number', type: 'tel', hint: '+ and 7 to 20 digits.', autocomplete: 'tel' },
  { name: 'telegram', label: 'Telegram', type: 'text', hint: '5 to 32 letters, digits or underscores.' },
  { name: 'whatsapp', label: 'WhatsApp', type: 'tel', hint: '+ and 7 to 20 digits.' },
  { name: 'skype', label: 'Skype', type: 'text', hint: '5 to 32 letters, digits, . , - or _.' },
  { name: 'facebook', label: 'Facebook', type: 'text', hint: '5 to 50 letters, digits or periods.' },
  { name: 'youtube', label: 'YouTube', type: 'url', hint: 'Your channel’s address.' },
] as const;

/** First and last name, `children` (the join page's sign-in fields), then the contacts: a profile's fields, each with its problem. */
export function ProfileFields(props: { values: Partial<Record<string, string>>; errors?: Record<string, string>; children?: ComponentChildren }) {
  return (
    <>
      <div class="form-row">
        <Field
          name="first_name"
          label="First name"
          type="text"
          value={props.values.first_name}
          error={props.errors?.first_name}
          autocomplete="given-name"
          required
        />
        <Field
          name="last_name"
          label="Last name"
          type="text"
          value={props.values.last_name}
          error={props.errors?.last_name}
          autocomplete="family-name"
          required
        />
      </div>
      {props.children}
      <fieldset class="contacts">
        <legend>Contacts (optional)</legend>
        <div class="form-row">
          {contactInputs.map((input) => (
            <Field
              key={input.name}
              name={input.name}
              label={input.label}
              type={input.type}
              hint={input.hint}
              value={props.values[input.name]}
              error={props.errors?.[input.name]}
              autocomplete={'autocomplete' in input ? input.autocomplete : undefined}
            />
          ))}
        </div>
      </fieldset>
    </>
  );
}

export interface ProfileView {
  appName?: string;
  affiliate: AffiliateRecord;
  csrf: string;
  /** What was just saved: the page says so. */
  notice?: 'saved' | 'password';
  /** The posted profile and its problems, after a refusal. */
  form?: Record<string, string>;
  profileErrors?: Record<string, string>;
  passwordErrors?: { current?: string; password?: string; confirm?: string };
}

export function ProfilePage(props: ProfileView) {
  const { affiliate } = props;
  // The affiliate's text fields (its deals are no form's).
  const values: Partial<Record<string, string>> =
    props.form ?? Object.fromEntries(Object.entries(affiliate).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  return (
    <Layout title="Profile" appName={props.appName} signedIn={{ name: `${affiliate.first_name} ${affiliate.last_name}`, csrf: props.csrf, current: 'profile' }}>
      <PageHeader title="Profile" subtitle="Your details as the programme team sees them, and your password." />
      {props.notice === 'saved' && (
        <Notice kind="ok" id="profile-saved">
          Your profile has been saved.
        </Notice>
      )}
      {props.notice === 'password' && (
        <Notice kind="ok" id="password-changed">
          Your password has been changed. Every other session has been signed out.
        </Notice>
      )}
      {props.profileErrors && (
        <Notice kind="bad" id="profile-problems">
          Your profile was not saved: check the fields marked below.
        </Notice>
      )}
      <section class="card" aria-labelledby="your-details">
        <h2 id="your-details">Your details</h2>
        <form method="post" action="profile" novalidate>
          <Csrf token={props.csrf} />
          <ProfileFields values={values} errors={props.profileErrors} />
          <div class="form-actions">
            <button type="submit" class="primary">
              Save profile
            </button>
          </div>
        </form>
      </section>
      <div class="profile-columns">
        <section class="card" aria-labelledby="sign-in-details">
          <h2 id="sign-in-details">Signing in</h2>
          <dl class="pairs">
            <div>
              <dt>Username</dt>
              <dd id="profile-username">{affiliate.username}</dd>
            </div>
            <div>
              <dt>Email</dt>
              <dd id="profile-email">{affiliate.email}</dd>
            </div>
          </dl>
          <p class="muted">These sign you in, so they cannot be changed here: ask the programme team if one must change.</p>
        </section>
        <section class="card" aria-labelledby="change-password">
          <h2 id="change-password">Change password</h2>
          <form method="post" action="password" novalidate>
            <Csrf token={props.csrf} />
            <Field name="current" label="Current password" type="password" autocomplete="current-password" error={props.passwordErrors?.current} required />
            <Field
              name="password"
              label="New password"
              type="password"
              autocomplete="new-password"
              hint="At least 8 characters."
              error={props.passwordErrors?.password}
              required
            />
            <Field name="confirm" label="New password, again" type="password" autocomplete="new-password" error={props.passwordErrors?.confirm} required />
            <div class="form-actions">
              <button type="submit" class="primary">
                Change password
              </button>
            </div>
          </form>
          <p class="muted">Changing it signs you out everywhere else.</p>
        </section>
      </div>
    </Layout>
  );
}
