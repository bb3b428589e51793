/**
 * An application's money settings (docs/api.md, "Money events"): its main
 * currency and the event names that carry money. The funnel consumer picks a
 * change up within 30 seconds (its settings cache); events already counted
 * stay as they were counted.
 */
import type { MoneyKind } from '../domain/affiliate-program';
import { ValidationError } from '../domain/errors';
import { moneySettingsOf, moneySettingsProblems, type MoneySettings } from '../domain/money-settings';
import { changedFields, requireApp } from './apps';
import type { AuditActor } from '../domain/audit';
import { audit } from './audit';
import type { BackOffice } from './ports';

export type AppMoneySettings = MoneySettings & { app_id: string };

export async function getMoneySettings(office: Pick<BackOffice, 'apps'>, appId: string): Promise<AppMoneySettings> {
  return { app_id: appId, ...moneySettingsOf(await requireApp(office, appId)) };
}

/**
 * Sets what is given: `currency`, and `money_events`, which replaces the whole
 * mapping. Audited as `money.updated` with what changed (`{from, to}`).
 */
export async function setMoneySettings(
  office: Pick<BackOffice, 'apps' | 'audit' | 'now'>,
  appId: string,
  actor: AuditActor,
  input: { currency?: string; money_events?: Record<string, string> },
): Promise<AppMoneySettings> {
  const problems = moneySettingsProblems(input);
  if (problems.length > 0) throw new ValidationError(problems, 'money settings are invalid');
  const before = moneySettingsOf(await requireApp(office, appId));
  const updated = moneySettingsOf(
    await office.apps.update(appId, {
      currency: input.currency,
      money_events: input.money_events as Record<string, MoneyKind> | undefined,
    }),
  );
  const changed = changedFields(before, updated, ['currency', 'money_events']);
  if (Object.keys(changed).length > 0) await audit(office)({ appId, actor, action: 'money.updated', target: `app:${appId}`, details: { changes: changed } });
  return { app_id: appId, ...updated };
}
