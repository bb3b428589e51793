/** The audit log (admins): who did what, to what, when; newest first, paged. */
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import { getJson } from '../api';
import { ErrorNote, Loading, Pager, Value, When } from '../components';
import { useApi } from '../use-api';

export const AUDIT_PAGE_SIZE = 50;

export function AuditPage() {
  const [cursor, setCursor] = useState<string | undefined>();
  const audit = useApi(() => getJson<ConsoleAnswer<'ConsoleAudit'>>('/audit', { cursor, limit: AUDIT_PAGE_SIZE }), cursor ?? '');
  return (
    <>
      <h1>Audit log</h1>
      <p class="muted">Every change made in the console or with the command line (shown as “admin command line”), newest first.</p>
      {audit.error && <ErrorNote error={audit.error} />}
      {!audit.data && audit.loading && <Loading what="the audit log" />}
      {audit.data && (
        <>
          {audit.data.entries.length === 0 ? (
            <p>No entries.</p>
          ) : (
            <figure class="table-scroll">
              <table class="striped">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Target</th>
                    <th scope="col">Details</th>
                  </tr>
                </thead>
                <tbody>
                  {audit.data.entries.map((entry) => (
                    <tr key={entry.entry_id}>
                      <td>
                        <When at={entry.at} />
                      </td>
                      <td>{entry.actor.email}</td>
                      <td>
                        <code>{entry.action}</code>
                      </td>
                      <td>{entry.target}</td>
                      <td class="details">
                        {entry.details &&
                          Object.entries(entry.details).map(([name, value]) => (
                            <div key={name}>
                              {name}: <Value value={value} />
                            </div>
                          ))}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </figure>
          )}
          <Pager next={audit.data.next_cursor} atFirst={cursor === undefined} onNext={setCursor} onFirst={() => setCursor(undefined)} />
        </>
      )}
    </>
  );
}
