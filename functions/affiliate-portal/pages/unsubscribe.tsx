/**
 * A player's email preferences, in the application's name (docs/api.md,
 * "Unsubscribe"): reached from the link in a marketing email. Plain forms,
 * no script: it works in any mail client's browser and on a phone.
 */
import { Layout, Notice } from './layout';

export interface Topic {
  name: string;
  label: string;
}

/** What the page confirms after a change: the topics left and rejoined, or all marketing email. */
export type Confirmation = { all: true } | { all: false; left: Topic[]; rejoined: Topic[] };

const labels = (topics: Topic[]) => topics.map((topic) => topic.label).join(', ');

function Confirmed(props: { appName: string; done: Confirmation }) {
  if (props.done.all) {
    return (
      <Notice kind="ok" id="preferences-saved">
        Done. You are unsubscribed from all marketing email from {props.appName}.
      </Notice>
    );
  }
  const { left, rejoined } = props.done;
  return (
    <Notice kind="ok" id="preferences-saved">
      <strong>Your preferences are saved.</strong>
      {left.length > 0 && <p class="tight">You will no longer get: {labels(left)}.</p>}
      {rejoined.length > 0 && <p class="tight">You will get again: {labels(rejoined)}.</p>}
      {left.length === 0 && rejoined.length === 0 && <p class="tight">Nothing changed.</p>}
    </Notice>
  );
}

export function PreferencesPage(props: {
  appName: string;
  topics: Topic[];
  /** The topics the player has left. */
  left: string[];
  /** `urm_consent_email`: only true is consent. */
  consent: boolean | undefined;
  /** The form's address, relative to the page's. */
  action: string;
  formToken: string;
  /** The topic the mail's link was for, when it was for one the page lists. */
  linkTopic?: Topic;
  done?: Confirmation;
}) {
  const subscribed = props.consent === true;
  return (
    <Layout title="Email preferences" brand={props.appName} narrow>
      <div class="card preferences">
        <h1>Email preferences</h1>
        <p class="lead">{subscribed ? `Choose the email you get from ${props.appName}.` : `Your marketing email from ${props.appName}.`}</p>
        {props.done && <Confirmed appName={props.appName} done={props.done} />}
        {!subscribed && !props.done?.all && (
          <Notice kind="info" id="not-subscribed">
            {props.consent === false
              ? `You are unsubscribed from all marketing email from ${props.appName}.`
              : `You are not signed up for marketing email from ${props.appName}.`}
          </Notice>
        )}
        {subscribed && props.topics.length > 0 && (
          <form method="post" action={props.action} class="topics-form">
            <input type="hidden" name="form" value={props.formToken} />
            <input type="hidden" name="action" value="topics" />
            <fieldset>
              <legend>Topics</legend>
              <p class="hint">Untick what you no longer want to hear about.</p>
              <ul class="topic-list">
                {props.topics.map((topic) => {
                  const id = `topic-${topic.name}`;
                  return (
                    <li key={topic.name}>
                      <input type="checkbox" id={id} name={`topic.${topic.name}`} value="on" checked={!props.left.includes(topic.name)} />
                      <label for={id}>
                        {topic.label}
                        {props.linkTopic?.name === topic.name && <span class="badge tone-accent">This email</span>}
                      </label>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
            <button type="submit" class="primary">
              Save preferences
            </button>
          </form>
        )}
        {subscribed && (
          <form method="post" action={props.action} class="leave-all">
            <input type="hidden" name="form" value={props.formToken} />
            <input type="hidden" name="action" value="all" />
            <h2>Unsubscribe from all</h2>
            <p>Stop every marketing email from {props.appName}.</p>
            <button type="submit">Unsubscribe from all marketing email</button>
          </form>
        )}
        <p class="account-note">Messages about your account, such as password resets and payment receipts, are not affected.</p>
      </div>
    </Layout>
  );
}

/** The answer to a one-click POST (RFC 8058): a mail client shows nothing, a person who posted from a browser sees this. */
export function UnsubscribedPage(props: { appName: string; topic?: Topic; manage: string }) {
  return (
    <Layout title="Unsubscribed" brand={props.appName} narrow>
      <div class="card preferences">
        <h1>You are unsubscribed</h1>
        <Notice kind="ok" id="unsubscribed">
          {props.topic
            ? `You will no longer get ${props.topic.label} email from ${props.appName}.`
            : `You will no longer get marketing email from ${props.appName}.`}
        </Notice>
        <p>
          <a href={props.manage}>Manage your email preferences</a>
        </p>
      </div>
    </Layout>
  );
}

/** Every bad token's page: the same for a malformed, forged, altered or another application's link. */
export function InvalidLinkPage() {
  return (
    <Layout title="Link not valid" brand="Email preferences" narrow>
      <div class="card preferences">
        <h1>This link is not valid</h1>
        <p>Open the unsubscribe link straight from the email: a link that was cut short or changed does not work.</p>
      </div>
    </Layout>
  );
}

/** A preferences form that did not come from the page (no form token, or posted from another site). */
export function PreferencesRefusedPage(props: { appName: string; manage: string }) {
  return (
    <Layout title="Form expired" brand={props.appName} narrow>
      <div class="card preferences">
        <h1>This form has expired</h1>
        <p>For your security the form could not be accepted. Nothing was changed.</p>
        <p>
          <a href={props.manage}>Open your email preferences again</a>
        </p>
      </div>
    </Layout>
  );
}
