/** The affiliate's tracking links: each with its click address to copy, and a form to create one. */
import type { LinkRecord } from '../../domain/affiliate-program';
import { formatDay } from '../../ui/format';
import { PageHeader } from '../../ui/design/page';
import { Csrf, Field, Layout, Notice, TableRegion } from './layout';

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
                      <code class="address">{link.click_address}</code>
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
      </section>
    </Layout>
  );
}
