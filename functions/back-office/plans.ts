/** Commission plans of an application: created by the operator, edited as new versions, archived, assigned to affiliates (./deals.ts). */
import type { Plan } from '../domain/affiliate-program';
import type { AuditActor } from '../domain/audit';
import { versionOf } from '../domain/deals';
import { Conflict, NotFound } from '../domain/errors';
import { describePlan, newPlanId, validPlan, type PlanInput } from '../domain/plans';
import { requireApp } from './apps';
import { audit } from './audit';
import { nowOf, type BackOffice } from './ports';

/** A new plan of the application (ValidationError listing every problem of the input), audited as `plan.created` with its terms. */
export async function createPlan(
  office: Pick<BackOffice, 'apps' | 'plans' | 'audit' | 'now'>,
  appId: string,
  actor: AuditActor,
  input: PlanInput,
): Promise<Plan> {
  await requireApp(office, appId);
  const createdAt = nowOf(office).toISOString();
  const plan: Plan = { ...validPlan(input, { appId, planId: newPlanId(), createdAt }), version: 1, version_created_at: createdAt };
  await office.plans.create(plan);
  await audit(office)({ appId, actor, action: 'plan.created', target: `plan:${plan.plan_id}`, details: { name: plan.name, terms: describePlan(plan) } });
  return plan;
}

export async function listPlans(office: Pick<BackOffice, 'apps' | 'plans'>, appId: string): Promise<Plan[]> {
  await requireApp(office, appId);
  return office.plans.list(appId);
}

/** The application's plan `planId`; NotFound naming it when there is none. */
export async function requirePlan(office: Pick<BackOffice, 'plans'>, appId: string, planId: string): Promise<Plan> {
  const plan = await office.plans.get(appId, planId);
  if (!plan) throw new NotFound(`no plan ${planId} in application ${appId}`);
  return plan;
}

/**
 * A new version of the plan with the terms of `input` (the versions before it never change, so no past month
 * does). Affiliates on the plan keep the version they were assigned; a new assignment takes this one. Audited as
 * `plan.edited` with the version and the terms. An archived plan is not edited (Conflict), nor one edited meanwhile.
 */
export async function editPlan(
  office: Pick<BackOffice, 'apps' | 'plans' | 'audit' | 'now'>,
  appId: string,
  actor: AuditActor,
  planId: string,
  input: PlanInput,
): Promise<Plan> {
  await requireApp(office, appId);
  const current = await requirePlan(office, appId, planId);
  if (current.archived_at !== undefined) throw new Conflict(`plan ${planId} is archived`);
  const at = nowOf(office).toISOString();
  const terms = validPlan(input, { appId, planId, createdAt: current.created_at });
  const next: Plan = { ...terms, version: versionOf(current) + 1, version_created_at: at };
  await office.plans.saveVersion(next, current);
  await audit(office)({
    appId,
    actor,
    action: 'plan.edited',
    target: `plan:${planId}`,
    details: { version: next.version, name: next.name, terms: describePlan(next) },
  });
  return next;
}

/**
 * Archives the plan: it is not assigned any more, nor made the default of new affiliates; affiliates on it keep
 * earning under it. The application's default plan is refused (Conflict: choose another default first). Audited
 * as `plan.archived`; an archived plan is answered as it is, with no entry.
 */
export async function archivePlan(
  office: Pick<BackOffice, 'apps' | 'plans' | 'audit' | 'now'>,
  appId: string,
  actor: AuditActor,
  planId: string,
): Promise<Plan> {
  const app = await requireApp(office, appId);
  const plan = await requirePlan(office, appId, planId);
  if (plan.archived_at !== undefined) return plan;
  if (app.default_plan_id === planId) throw new Conflict(`plan ${planId} is the default plan of new affiliates: choose another default first`);
  const archived = (await office.plans.archive(appId, planId, nowOf(office).toISOString())) ?? (await requirePlan(office, appId, planId));
  await audit(office)({ appId, actor, action: 'plan.archived', target: `plan:${planId}`, details: { name: plan.name, version: versionOf(plan) } });
  return archived;
}

/** Every version of the application's plan, oldest first. */
export async function planVersions(office: Pick<BackOffice, 'apps' | 'plans'>, appId: string, planId: string): Promise<Plan[]> {
  await requireApp(office, appId);
  await requirePlan(office, appId, planId);
  return office.plans.versions(appId, planId);
}
