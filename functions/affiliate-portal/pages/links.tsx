/** The affiliate's tracking links: each with its click address to copy, and a form to create one. */
import type { LinkRecord } from '../../domain/affiliate-program';
import { formatDay } from '../../ui/format';
import { Field as DesignField, fieldProps } from '../../ui/design/field';
import { PageHeader } from '../../ui/design/page';
import { copyScript } from './copy-script';
import { Csrf, Field, Layout, Notice, TableRegion } from './layout';

/** The link builder's answer (links.ts `builtLink`): the built click address, or why not. */
export type BuiltLink = { link_id: string; sub_id: string } & ({ url: string } | { error: string });

/** A Copy button for the element `target`: hidden until the page's script shows it (without script, a click on the address selects it). */
function CopyButton(props: { target: string; label: string }) {
  return (
    <button type="button" class="small copy" data-copy={props.target} aria-label={props.label} hidden>
      Copy
    </button>
  );
}

/** Pick a link, give a sub-id, get its tracking address: a GET form, so it works without script. */
function LinkBuilder(props: { links: LinksView['links']; built?: BuiltLink }) {
  const built = props.built;
  const linkError = built && 'error' in built && built.link_id === '' ? [built.error] : undefined;
  const subIdError = built && 'error' in built && built.link_id !== '' ? built.error : undefined;
  return (
    <section class="card" aria-labelledby="builder" id="link-builder">
      <h2 id="builder">Link builder</h2>
      <p class="muted">Add a sub-id to tell your traffic sources apart: it comes back in your postbacks as {'{sub_id}'}.</p>
      <form method="get" action="links#link-builder" class="builder" novalidate>
        <div class="form-row">
          <DesignField id="field-link" label="Link" errors={linkError}>
            <select {...fieldProps('field-link', linkError)} name="link">
              {[...props.links].reverse().map((link) => (
                <option key={link.link_id} value={link.link_id} selected={built?.link_id === link.link_id}>
                  {link.name}
                </option>
              ))}
            </select>
          </DesignField>
          <Field
            name="sub_id"
            label="Sub-id (urm_aff)"
            type="text"
            value={built?.sub_id}
            error={subIdError}
            hint="Up to 100 letters, digits, dots, underscores or dashes."
          />
        </div>
        <div class="form-actions">
          <button type="submit" class="primary">
            Build link
          </button>
        </div>
      </form>
      {built && 'url' in built && (
        <div class="built" id="built-link">
          <p class="built-label">Your tracking link</p>
          <div class="copy-row">
            <code class="address" id="built-address">
              {built.url}
            </code>
            <CopyButton target="built-address" label="Copy the tracking link" />
          </div>
        </div>
      )}
    </section>
  );
}

export interface LinksView {
  appName?: string;
  name: string;
  csrf: string;
  /** Oldest first, as stored; shown newest first. */
  links: (LinkRecord & { click_address: string })[];
  /** The application's site origins: where a landing page may be. */
  siteOrigins: string[];
  /** The application has no portal origin: click addresses are paths only, and the page says why. */
  withoutPortalOrigin?: boolean;
  form?: { name: string; landing_url: string; errors: { name?: string; landing_url?: string } };
  created?: string;
  /** The link builder's answer, when its form was sent. */
  built?: BuiltLink;
}

export function LinksPage(props: LinksView) {
  const form = props.form;
  const created = props.links.find((link) => link.link_id === props.created);
  return (
    <Layout title="Links" appName={props.appName} signedIn={{ name: props.name, csrf: props.csrf, current: 'links' }}>
      <PageHeader title="Links" subtitle="Share a link’s click address: its clicks, and the players they bring, show on your dashboard." />
      {props.withoutPortalOrigin && (
        <Notice kind="info" id="no-portal-origin">
          This affiliate programme has no portal address set yet, so each click address below is only its path. Ask the programme's operator for the address to
          put in front of it.
        </Notice>
      )}
      {created && (
        <Notice kind="ok" id="link-created">
          Link “{created.name}” created. Share its click address: <code class="address">{created.click_address}</code>
        </Notice>
      )}
      <section class="card" aria-labelledby="new-link">
        <h2 id="new-link">New link</h2>
        <form method="post" action="links" novalidate>
          <Csrf token={props.csrf} />
          <div class="form-row">
            <Field
              name="name"
              label="Name"
              type="text"
              value={form?.name}
              error={form?.errors.name}
              hint="For you: which campaign or page it is for."
              required
            />
            <Field
              name="landing_url"
              label="Landing page"
              type="url"
              value={form?.landing_url}
              error={form?.errors.landing_url}
              hint={
                props.siteOrigins.length > 0
                  ? `A page on ${props.siteOrigins.join(' or ')}. Visitors who click go there.`
                  : 'The programme has no site set up for links yet.'
              }
              required
            />
          </div>
          <div class="form-actions">
            <button type="submit" class="primary">
              Create link
            </button>
          </div>
        </form>
      </section>
      <section class="card" aria-labelledby="your-links">
        <h2 id="your-links">Your links</h2>
        {props.links.length === 0 ? (
          <p class="empty" id="no-links">
            You have no links yet. Create one above, then share its click address.
          </p>
        ) : (
          <TableRegion label="Your links">
            <table id="links-list" class="link-list">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Click address (to share)</th>
                  <th scope="col">Landing page</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {[...props.links].reverse().map((link) => (
                  <tr key={link.link_id}>
                    <th scope="row" class="name">
                      {link.name}
                    </th>
                    <td class="address" data-label="Click address (to share)">
                      <div class="copy-row">
                        <code class="address" id={`address-${link.link_id}`}>
                          {link.click_address}
                        </code>
                        <CopyButton target={`address-${link.link_id}`} label={`Copy the click address of ${link.name}`} />
                      </div>
                    </td>
                    <td class="landing" data-label="Landing page">
                      {link.landing_url}
                    </td>
                    <td class="created nowrap" data-label="Created">
                      {formatDay(link.created_at.slice(0, 10))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
        <p class="copy-status" id="copy-status" role="status" />
      </section>
      {props.links.length > 0 && <LinkBuilder links={props.links} built={props.built} />}
      <script dangerouslySetInnerHTML={{ __html: copyScript }} />
    </Layout>
  );
}
