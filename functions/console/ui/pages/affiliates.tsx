/**
 * Affiliates: the application's affiliates with status and plan, filtered by
 * status (also from the address: `?status=pending`, as Home links), paged;
 * and the commission plans, which admins and marketers create here.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { ConsoleAnswer } from '../../answers';
import { Badge, StatusBadge } from '../../../ui/design/badge';
import { ConfirmButton } from '../../../ui/design/dialog';
import { type Column, DataTable } from '../../../ui/design/data-table';
import { Field, fieldProps } from '../../../ui/design/field';
import { Card, PageHeader } from '../../../ui/design/page';
import { Visible, When } from '../../../ui/design/value';
import { errorsOf, FormActions, FormFailure, useChange } from '../actions';
import { getJson, postJson } from '../api';
import { ErrorNote } from '../components';
import { useSession } from '../session';
import { useApi } from '../use-api';

export const AFFILIATE_PAGE_SIZE = 25;

/** A plan as GET /console/api/plans answers it: its terms in words. */
export type PlanView = ConsoleAnswer<'ConsoleListPlans'>['plans'][number];
type AffiliateRow = ConsoleAnswer<'ConsoleListAffiliates'>['affiliates'][number];
const statuses = ['pending', 'approved', 'suspended'] as const;

const known = (status: string | undefined) => ((statuses as readonly string[]).includes(status ?? '') ? status! : '');

export function AffiliatesPage() {
  const { query, route } = useLocation();
  const status = known(query.status);
  const [cursor, setCursor] = useState<string | undefined>();
  const [forStatus, setForStatus] = useState(status);
  if (forStatus !== status) {
    setForStatus(status);
    setCursor(undefined);
  }
  const page = useApi(
    () => getJson<ConsoleAnswer<'ConsoleListAffiliates'>>('/affiliates', { status, cursor, limit: AFFILIATE_PAGE_SIZE }),
    `${status}\n${cursor ?? ''}`,
  );
  const columns: Column<AffiliateRow>[] = [
    {
      id: 'affiliate',
      header: 'Affiliate',
      rowHeader: true,
      required: true,
      value: (row) => row.username,
      cell: (row) => (
        <a href={`/console/affiliates/${encodeURIComponent(row.affiliate_id)}`}>
          <Visible text={row.username} />
        </a>
      ),
    },
    // Always shown: the chooser's checkboxes would share the labels "Name" and "Status" with the forms on this page.
    {
      id: 'name',
      header: 'Name',
      required: true,
      value: (row) => `${row.first_name} ${row.last_name}`.trim() || '—',
      cell: (row) => <span class="nowrap">{`${row.first_name} ${row.last_name}`.trim() || '—'}</span>,
    },
    { id: 'email', header: 'Email', value: (row) => row.email, cell: (row) => <span class="nowrap">{row.email}</span> },
    { id: 'status', header: 'Status', required: true, value: (row) => row.status, cell: (row) => <StatusBadge status={row.status} /> },
    { id: 'plan', header: 'Plan', value: (row) => row.plan?.name, cell: (row) => (row.plan ? row.plan.name : <span class="muted">none</span>) },
    {
      id: 'since',
      header: 'Since',
      value: (row) => row.created_at,
      cell: (row) => (
        <span class="nowrap">
          <When at={row.created_at} />
        </span>
      ),
    },
  ];
  const filter = (
    <form class="status-filter" aria-label="Filter affiliates" onSubmit={(e) => e.preventDefault()}>
      <label for="affiliate-status">Status</label>
      <select
        id="affiliate-status"
        name="status"
        value={status}
        onChange={(e) => {
          const chosen = e.currentTarget.value;
          route(chosen ? `/console/affiliates?status=${encodeURIComponent(chosen)}` : '/console/affiliates', true);
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
  );
  return (
    <>
      <PageHeader
        title="Affiliates"
        subtitle="Approve applications, assign commission plans and follow each affiliate's results."
        actions={
          <a class="button" href="/console/affiliates/programme">
            Programme by month
          </a>
        }
      />
      <Card>
        <DataTable
          label="Affiliates"
          rows={page.data?.affiliates}
          columns={columns}
          rowId={(row) => row.affiliate_id}
          loading={page.loading}
          error={page.error && <ErrorNote error={page.error} />}
          toolbar={filter}
          empty={
            <p>
              {status ? `No ${status} affiliates on this page.` : 'No affiliates yet.'}
              {page.data?.next_cursor ? ' There may be more: see the next page.' : ''}
            </p>
          }
          paging={
            page.data && {
              count: page.data.affiliates.length,
              noun: status ? `${status} affiliate` : 'affiliate',
              next: page.data.next_cursor,
              atFirst: cursor === undefined,
              onNext: setCursor,
              onFirst: () => setCursor(undefined),
            }
          }
        />
      </Card>
      <Plans />
    </>
  );
}

/** The application's plans, and (admins, marketers) a new one: CPA, RevShare or both. */
function Plans() {
  const { role } = useSession();
  const plans = useApi(() => getJson<ConsoleAnswer<'ConsoleListPlans'>>('/plans'), 'plans');
  const [editing, setEditing] = useState<PlanView | undefined>();
  const [shown, setShown] = useState<PlanView | undefined>();
  const archive = useChange('Your role may not archive plans.');
  const archiveFailure = archive.failed('archive');
  const columns: Column<PlanView>[] = [
    {
      id: 'plan',
      header: 'Plan',
      rowHeader: true,
      required: true,
      value: (plan) => plan.name,
      cell: (plan) => (
        <>
          <Visible text={plan.name} />
          <small class="muted plan-id">{plan.plan_id}</small>
        </>
      ),
    },
    { id: 'terms', header: 'Terms', required: true, value: (plan) => plan.terms, cell: (plan) => <span class="plan-terms">{plan.terms}</span> },
    {
      id: 'version',
      header: 'Version',
      required: true,
      value: (plan) => plan.version,
      cell: (plan) => (
        <span class="nowrap">
          v{plan.version} {plan.archived_at && <Badge tone="warning">archived</Badge>}
        </span>
      ),
    },
    {
      id: 'created',
      header: 'Created',
      required: true,
      value: (plan) => plan.created_at,
      cell: (plan) => (
        <span class="nowrap">
          <When at={plan.created_at} />
        </span>
      ),
    },
    ...(role === 'viewer'
      ? []
      : [
          {
            id: 'actions',
            header: 'Actions',
            required: true,
            value: () => '',
            cell: (plan: PlanView) => (
              <span class="row-actions">
                <button type="button" class="small" aria-label={`Versions of ${plan.name}`} onClick={() => setShown(plan)}>
                  Versions
                </button>
                {!plan.archived_at && (
                  <>
                    <button type="button" class="small" aria-label={`Edit ${plan.name}`} onClick={() => setEditing(plan)}>
                      Edit
                    </button>
                    <ConfirmButton
                      small
                      label="Archive"
                      name={`Archive ${plan.name}`}
                      title={`Archive “${plan.name}”?`}
                      confirmLabel="Archive plan"
                      onConfirm={() =>
                        void archive.run(
                          'archive',
                          () => postJson<ConsoleAnswer<'ConsoleArchivePlan'>>(`/plans/${encodeURIComponent(plan.plan_id)}/archive`, {}),
                          () => {
                            plans.reload();
                            return `Plan “${plan.name}” archived.`;
                          },
                        )
                      }
                    >
                      It is not assigned any more. Affiliates on it keep earning under it.
                    </ConfirmButton>
                  </>
                )}
              </span>
            ),
          } satisfies Column<PlanView>,
        ]),
  ];
  const list = (
    <DataTable
      label="Plans"
      rows={plans.data?.plans}
      columns={columns}
      rowId={(plan) => plan.plan_id}
      loading={plans.loading}
      error={plans.error && <ErrorNote error={plans.error} />}
      empty={<p>No plans yet: an affiliate without a plan earns nothing.</p>}
    />
  );
  return (
    <Card title="Plans">
      {role === 'viewer' ? (
        list
      ) : (
        <div class="plans-layout">
          <div>
            {list}
            <FormFailure failure={archiveFailure} not="Not archived" fields={[]} />
            {shown && <PlanVersions plan={shown} onClose={() => setShown(undefined)} />}
          </div>
          <NewPlan
            key={editing?.plan_id ?? 'new'}
            editing={editing}
            onCreated={() => {
              setEditing(undefined);
              plans.reload();
            }}
            onCancel={() => setEditing(undefined)}
          />
        </div>
      )}
    </Card>
  );
}

const planFields = ['name', 'cpa', 'revshare'] as const;

/** Every version of a plan, oldest first: what affiliates assigned each one earn under. */
function PlanVersions({ plan, onClose }: { plan: PlanView; onClose: () => void }) {
  const versions = useApi(() => getJson<ConsoleAnswer<'ConsolePlanVersions'>>(`/plans/${encodeURIComponent(plan.plan_id)}/versions`), plan.plan_id);
  return (
    <section class="plan-versions" aria-label={`Versions of ${plan.name}`}>
      <h3>Versions of “{plan.name}”</h3>
      {versions.error && <ErrorNote error={versions.error} />}
      <ol>
        {versions.data?.versions.map((version) => (
          <li key={version.version}>
            <strong>v{version.version}</strong> {version.name}: {version.terms}{' '}
            <span class="muted">
              (<When at={version.version_created_at ?? version.created_at} />)
            </span>
          </li>
        ))}
      </ol>
      <button type="button" class="small" onClick={onClose}>
        Close versions
      </button>
    </section>
  );
}

/** A new plan, or (with `editing`) a plan's new version: the terms given whole. */
function NewPlan({ editing, onCreated, onCancel }: { editing?: PlanView; onCreated: () => void; onCancel: () => void }) {
  const empty = editing
    ? {
        name: editing.name,
        cpa: editing.cpa?.amount ?? '',
        minDeposit: editing.cpa?.min_deposit ?? '',
        revshare: editing.revshare?.percent ?? '',
        carryOver: editing.revshare?.carry_over ?? false,
      }
    : { name: '', cpa: '', minDeposit: '', revshare: '', carryOver: false };
  const [form, setForm] = useState(empty);
  const { busy, failed, run } = useChange('Your role may not create plans.');
  const failure = failed('plan');
  const field = (name: 'name' | 'cpa' | 'minDeposit' | 'revshare') => ({
    value: form[name],
    onInput: (e: Event) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value }),
  });
  const errors = {
    name: errorsOf(failure, 'name'),
    cpa: errorsOf(failure, 'cpa amount', 'cpa.amount'),
    minDeposit: errorsOf(failure, 'cpa min_deposit', 'cpa.min_deposit'),
    revshare: errorsOf(failure, 'revshare percent', 'revshare.percent', 'revshare.carry_over'),
  };
  const create = async (event: Event) => {
    event.preventDefault();
    const body = {
      name: form.name,
      ...(form.cpa.trim() ? { cpa: { amount: form.cpa.trim(), ...(form.minDeposit.trim() ? { min_deposit: form.minDeposit.trim() } : {}) } } : {}),
      ...(form.revshare.trim() ? { revshare: { percent: form.revshare.trim(), carry_over: form.carryOver } } : {}),
    };
    const answer = editing
      ? await run(
          'plan',
          () => postJson<ConsoleAnswer<'ConsoleEditPlan'>>(`/plans/${encodeURIComponent(editing.plan_id)}`, body),
          ({ plan }) => `Plan “${plan.name}” is now version ${plan.version}: ${plan.terms}.`,
        )
      : await run(
          'plan',
          () => postJson<ConsoleAnswer<'ConsoleCreatePlan'>>('/plans', body),
          ({ plan }) => `Plan “${plan.name}” created: ${plan.terms}.`,
        );
    if (answer) {
      setForm(empty);
      onCreated();
    }
  };
  return (
    <form class="new-plan" onSubmit={create} aria-label={editing ? 'Edit plan' : 'New plan'}>
      <h3>{editing ? `Edit “${editing.name}”` : 'New plan'}</h3>
      <p class="muted">
        {editing
          ? `Saving makes version ${editing.version + 1}. Affiliates keep the version they were assigned; assign the plan again to move them.`
          : "CPA, RevShare or both (hybrid): fill in what the plan pays. Amounts are in the application's currency."}
      </p>
      <Field id="plan-name" label="Name" errors={errors.name}>
        <input {...fieldProps('plan-name', errors.name)} name="name" required maxLength={100} autocomplete="off" {...field('name')} />
      </Field>
      <div class="form-row">
        <Field id="plan-cpa" label="CPA per qualified first deposit" errors={errors.cpa}>
          <input {...fieldProps('plan-cpa', errors.cpa)} name="cpa_amount" inputMode="decimal" placeholder="e.g. 50" autocomplete="off" {...field('cpa')} />
        </Field>
        <Field id="plan-min-deposit" label="Smallest qualifying first deposit" errors={errors.minDeposit}>
          <input
            {...fieldProps('plan-min-deposit', errors.minDeposit)}
            name="cpa_min_deposit"
            inputMode="decimal"
            placeholder="0"
            autocomplete="off"
            disabled={!form.cpa.trim()}
            {...field('minDeposit')}
          />
        </Field>
        <Field id="plan-revshare" label="RevShare, % of NGR" errors={errors.revshare}>
          <input
            {...fieldProps('plan-revshare', errors.revshare)}
            name="revshare_percent"
            inputMode="decimal"
            placeholder="e.g. 25"
            autocomplete="off"
            {...field('revshare')}
          />
        </Field>
      </div>
      <label class="choice">
        <input
          type="checkbox"
          role="switch"
          name="carry_over"
          checked={form.carryOver}
          disabled={!form.revshare.trim()}
          onChange={(e) => setForm({ ...form, carryOver: e.currentTarget.checked })}
        />
        Carry a month's negative RevShare into the next month
      </label>
      <FormFailure failure={failure} not="Not created" fields={[...planFields]} />
      <FormActions>
        <button type="submit" class="primary" aria-busy={busy === 'plan'} disabled={busy !== undefined}>
          {editing ? 'Save as new version' : 'Create plan'}
        </button>
        {editing && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </FormActions>
    </form>
  );
}
