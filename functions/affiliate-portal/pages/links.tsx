/** The affiliate's tracking links: each with its click address to copy, and a form to create one. */
import type { LinkRecord } from '../../domain/affiliate-program';
import { formatDay } from '../../ui/format';
import { Csrf, Field, Layout, Notice } from './layout';

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
}

export function LinksPage(props: LinksView) {
  const form = props.form;
  const created = props.links.find((link) => link.link_id === props.created);
  return (
    <Layout title="Links" appName={props.appName} signedIn={{ name: props.name, csrf: props.csrf, current: 'links' }}>
      <h1>Links</h1>
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
          <Field name="name" label="Name" type="text" value={form?.name} error={form?.errors.name} hint="For you: which campaign or page it is for." required />
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
          <button type="submit">Create link</button>
        </form>
      </section>
      <section class="card" aria-labelledby="your-links">
        <h2 id="your-links">Your links</h2>
        {props.links.length === 0 ? (
          <p class="muted" id="no-links">
            You have no links yet. Create one above, then share its click address.
          </p>
        ) : (
          <div class="table-wrap">
            <table id="links-list">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col" class="left">
                    Click address (to share)
                  </th>
                  <th scope="col" class="left">
                    Landing page
                  </th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {[...props.links].reverse().map((link) => (
                  <tr key={link.link_id}>
                    <th scope="row">{link.name}</th>
                    <td class="left">
                      <code class="address">{link.click_address}</code>
                    </td>
                    <td class="left wrap">{link.landing_url}</td>
                    <td>{formatDay(link.created_at.slice(0, 10))}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Layout>
  );
}
