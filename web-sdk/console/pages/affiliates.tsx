/** Affiliates: the application's affiliates with status and plan, filtered by status, paged. */
import { useState } from 'preact/hooks';
import type { AffiliateWithPlan } from '../../../functions/shared/back-office/affiliates';
import { getJson } from '../api';
import { ErrorNote, Loading, Pager, When } from '../components';
import { useApi } from '../use-api';

export const AFFILIATE_PAGE_SIZE = 25;
const statuses = ['pending', 'approved', 'suspended'] as const;

export function StatusBadge({ status }: { status: string }) {
  return <mark class={`status status-${status}`}>{status}</mark>;
}

export function AffiliatesPage() {
  const [status, setStatus] = useState('');
  const [cursor, setCursor] = useState<string | undefined>();
  const page = useApi(
    () => getJson<{ affiliates: AffiliateWithPlan[]; next_cursor: string | null }>('/affiliates', { status, cursor, limit: AFFILIATE_PAGE_SIZE }),
    `${status}\n${cursor ?? ''}`,
  );
  return (
    <>
      <h1>Affiliates</h1>
      <form class="status-filter" aria-label="Filter affiliates" onSubmit={(e) => e.preventDefault()}>
        <label for="affiliate-status">Status</label>
        <select
          id="affiliate-status"
          name="status"
          value={status}
          onChange={(e) => {
            setCursor(undefined);
            setStatus(e.currentTarget.value);
          }}
        >
          <option value="">all</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </form>
      {page.error && <ErrorNote error={page.error} />}
      {!page.data && page.loading && <Loading what="affiliates" />}
      {page.data && (
        <>
          {page.data.affiliates.length === 0 ? (
            <p>{status ? `No ${status} affiliates on this page.` : 'No affiliates yet.'}{page.data.next_cursor ? ' There may be more: see the next page.' : ''}</p>
          ) : (
            <figure class="table-scroll">
              <table class="striped">
                <thead>
                  <tr>
                    <th scope="col">Affiliate</th>
                    <th scope="col">Name</th>
                    <th scope="col">Email</th>
                    <th scope="col">Status</th>
                    <th scope="col">Plan</th>
                    <th scope="col">Since</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.affiliates.map((affiliate) => (
                    <tr key={affiliate.affiliate_id}>
                      <th scope="row">
                        <a href={`/console/affiliates/${encodeURIComponent(affiliate.affiliate_id)}`}>{affiliate.username}</a>
                      </th>
                      <td>{`${affiliate.first_name} ${affiliate.last_name}`.trim() || '—'}</td>
                      <td>{affiliate.email}</td>
                      <td>
                        <StatusBadge status={affiliate.status} />
                      </td>
                      <td>{affiliate.plan?.name ?? <span class="muted">none</span>}</td>
                      <td>
                        <When at={affiliate.created_at} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </figure>
          )}
          <Pager next={page.data.next_cursor} atFirst={cursor === undefined} onNext={setCursor} onFirst={() => setCursor(undefined)} />
        </>
      )}
    </>
  );
}
