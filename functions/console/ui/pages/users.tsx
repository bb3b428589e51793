/** Users (admins): the application's enterprise users and their roles; change a role (the server keeps an admin). */
import { useState } from 'preact/hooks';
import type { ConsoleAnswer } from '../../answers';
import type { Role } from '../../../domain/enterprise';
import { RoleBadge } from '../../../ui/design/badge';
import { DataTable, type Column } from '../../../ui/design/data-table';
import { PageHeader } from '../../../ui/design/page';
import { Visible, When } from '../../../ui/design/value';
import { ApiError, getJson, postJson } from '../api';
import { ErrorNote } from '../components';
import { useSession } from '../session';
import { useApi } from '../use-api';

type UserView = ConsoleAnswer<'ConsoleListUsers'>['users'][number];

const roleChoices: readonly Role[] = ['admin', 'marketer', 'viewer'];

const fullName = (user: UserView) => `${user.first_name} ${user.last_name}`.trim();

export function UsersPage() {
  const session = useSession();
  const [cursor, setCursor] = useState<string | undefined>();
  const users = useApi(() => getJson<ConsoleAnswer<'ConsoleListUsers'>>('/users', { cursor }), cursor ?? '');

  const columns: Column<UserView>[] = [
    {
      id: 'name',
      header: 'Name',
      value: fullName,
      rowHeader: true,
      required: true,
      // The email under the name: who someone is and what to change stay in view on a phone.
      cell: (user) => (
        <>
          {fullName(user) ? <Visible text={fullName(user)} /> : '—'}
          {user.user_id === session.user.user_id && <small class="muted"> (you)</small>}
          <span class="user-email">
            <Visible text={user.email} />
          </span>
        </>
      ),
    },
    { id: 'email', header: 'Email', value: (user) => user.email, cell: (user) => <Visible text={user.email} />, hidden: true },
    { id: 'role', header: 'Role', value: (user) => user.role, cell: (user) => <RoleBadge role={user.role} /> },
    { id: 'change', header: 'Change role', required: true, cell: (user) => <RoleForm user={user} onChanged={users.reload} /> },
    {
      id: 'since',
      header: 'Since',
      value: (user) => user.created_at,
      cell: (user) => (
        <span class="nowrap">
          <When at={user.created_at} />
        </span>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Users"
        subtitle="Admins do everything; marketers work with players, messaging and affiliates; viewers only read. The application always keeps at least one admin."
      />
      <DataTable
        label="Users"
        rows={users.data?.users}
        columns={columns}
        rowId={(user) => user.user_id}
        loading={users.loading}
        error={users.error && <ErrorNote error={users.error} />}
        empty="No users."
        paging={
          users.data && {
            count: users.data.users.length,
            noun: 'user',
            next: users.data.next_cursor,
            atFirst: cursor === undefined,
            onNext: setCursor,
            onFirst: () => setCursor(undefined),
          }
        }
      />
    </>
  );
}

function RoleForm({ user, onChanged }: { user: UserView; onChanged: () => void }) {
  const [role, setRole] = useState<Role>(user.role);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | undefined>();
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
    <form class="role-form" onSubmit={change}>
      <div class="cluster">
        <label for={selectId} class="visually-hidden">
          Role of {user.email}
        </label>
        <select id={selectId} name="role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
          {roleChoices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
        <button type="submit" class="small" disabled={busy || role === user.role} aria-busy={busy}>
          Change<span class="visually-hidden"> the role of {user.email}</span>
        </button>
      </div>
      {message && (
        <p role={message.kind === 'error' ? 'alert' : 'status'} class={message.kind === 'error' ? 'field-error' : 'role-changed'}>
          {message.text}
        </p>
      )}
    </form>
  );
}
