/** Commission plans of an application: created by the operator, assigned to affiliates (./affiliates.ts). */
import type { Plan } from '../domain/affiliate-program';
import type { AuditActor } from '../domain/audit';
import { NotFound } from '../domain/errors';
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
  const plan = validPlan(input, { appId, planId: newPlanId(), createdAt: nowOf(office).toISOString() });
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
