/**
 * Rejections: the records the consumers refused to apply (kept 14 days),
 * newest first, paged, each with the reason and the record as received, so
 * an integrator's mistake can be found and the record sent again, fixed.
 */
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { getJson } from '../api';
import { ErrorNote, Loading, Pager, When } from '../components';
import { useApi } from '../use-api';

export const REJECTION_PAGE_SIZE = 50;

/** The record as JSON, indented when it parses (a cut record is shown as stored). */
function recordText(record: string): string {
  try {
    return JSON.stringify(JSON.parse(record), null, 2);
  } catch {
    return record;
  }
}

export function RejectionsPage() {
  const [cursor, setCursor] = useState<string | undefined>();
  const page = useApi(() => getJson<ConsoleAnswer<'ConsoleListRejections'>>('/rejections', { cursor, limit: REJECTION_PAGE_SIZE }), cursor ?? '');
  return (
    <>
      <h1>Rejections</h1>
      <p class="muted">
        Records accepted by the API (<code>200</code>) that the service then could not apply, newest first, kept 14 days. Fix the cause and send the record
        again with a new <code>urm_insert_id</code>.
      </p>
      {page.error && <ErrorNote error={page.error} />}
      {!page.data && page.loading && <Loading what="rejections" />}
      {page.data && (
        <>
          {page.data.rejections.length === 0 ? (
            <p>No rejected records in the last 14 days.</p>
          ) : (
            <figure class="table-scroll">
              <table class="striped">
                <thead>
                  <tr>
                    <th scope="col">Received</th>
                    <th scope="col">Player</th>
                    <th scope="col">Record</th>
                    <th scope="col">Reason</th>
                  </tr>
                </thead>
                <tbody>
                  {page.data.rejections.map((rejection) => (
                    <tr key={`${rejection.received_at}#${rejection.shard}#${rejection.seq}`}>
                      <td>
                        <When at={rejection.received_at} />
                      </td>
                      <th scope="row">
                        <a href={`/console/players/${encodeURIComponent(rejection.profile_id)}`}>{rejection.profile_id}</a>
                      </th>
                      <td>
                        <details>
                          <summary>
                            {rejection.kind} <code>{rejection.urm_insert_id}</code>
                          </summary>
                          <pre>{recordText(rejection.record)}</pre>
                          {rejection.record_truncated && <small class="muted">Cut to fit: the record was longer.</small>}
                        </details>
                      </td>
                      <td>{rejection.reason}</td>
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
