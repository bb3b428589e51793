/** Users (admins): the application's enterprise users and their roles; change a role (the server keeps an admin). */
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import type { Role } from '../../../domain/enterprise';
import { ApiError, getJson, postJson } from '../api';
import { ErrorNote, Loading, Pager, When } from '../components';
import { useSession } from '../session';
import { useApi } from '../use-api';

const roleChoices: readonly Role[] = ['admin', 'marketer', 'viewer'];

export function UsersPage() {
  const [cursor, setCursor] = useState<string | undefined>();
  const users = useApi(() => getJson<ConsoleAnswer<'ConsoleListUsers'>>('/users', { cursor }), cursor ?? '');
  return (
    <>
      <h1>Users</h1>
      <p class="muted">
        Admins do everything; marketers work with players, messaging and affiliates; viewers only read. The application always keeps at least one admin.
      </p>
      {users.error && <ErrorNote error={users.error} />}
      {!users.data && users.loading && <Loading what="users" />}
      {users.data && (
        <>
          <figure class="table-scroll">
            <table class="striped">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Email</th>
                  <th scope="col">Since</th>
                  <th scope="col">Role</th>
                </tr>
              </thead>
              <tbody>
                {users.data.users.map((user) => (
                  <UserRow key={user.user_id} user={user} onChanged={users.reload} />
                ))}
              </tbody>
            </table>
          </figure>
          <Pager next={users.data.next_cursor} atFirst={cursor === undefined} onNext={setCursor} onFirst={() => setCursor(undefined)} />
        </>
      )}
    </>
  );
}

function UserRow({ user, onChanged }: { user: ConsoleAnswer<'ConsoleListUsers'>['users'][number]; onChanged: () => void }) {
  const session = useSession();
  const [role, setRole] = useState<Role>(user.role);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | undefined>();
  const name = `${user.first_name} ${user.last_name}`.trim();
  const selectId = `role-${user.user_id}`;

  const change = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setMessage(undefined);
    try {
      await postJson(`/users/${encodeURIComponent(user.user_id)}/role`, { role });
      setMessage({ kind: 'success', text: `Now ${role}.` });
      onChanged();
    } catch (error) {
      setRole(user.role);
      const text =
        error instanceof ApiError
          ? error.status === 409
            ? `Not changed: ${error.message}.`
            : error.status === 403
              ? 'Not changed: only admins may change roles.'
              : `Not changed: ${error.message}`
          : 'Not changed: the server could not be reached.';
      setMessage({ kind: 'error', text });
    } finally {
      setBusy(false);
    }
  };

  return (
    <tr>
      <th scope="row">
        {name || '—'}
        {user.user_id === session.user.user_id && <small class="muted"> (you)</small>}
      </th>
      <td>{user.email}</td>
      <td>
        <When at={user.created_at} />
      </td>
      <td>
        <form class="role-form" onSubmit={change}>
          <label for={selectId} class="visually-hidden">
            Role of {user.email}
          </label>
          <fieldset role="group">
            <select id={selectId} name="role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {roleChoices.map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
            <button type="submit" disabled={busy || role === user.role} aria-busy={busy} aria-label={`Change the role of ${user.email}`}>
              Change
            </button>
          </fieldset>
          {message && (
            <small role={message.kind === 'error' ? 'alert' : 'status'} class={message.kind}>
              {message.text}
            </small>
          )}
        </form>
      </td>
    </tr>
  );
}
