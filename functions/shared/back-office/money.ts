/**
 * An application's money settings (docs/api.md, "Money events"): its main
 * currency and the event names that carry money. The funnel consumer picks a
 * change up within 30 seconds (its settings cache); events already counted
 * stay as they were counted.
 */
import type { MoneyKind } from '../domain/affiliate-program';
import { ValidationError } from '../domain/errors';
import { moneySettingsOf, moneySettingsProblems, type MoneySettings } from '../domain/money-settings';
import { requireApp } from './apps';
import type { BackOffice } from './ports';

export type AppMoneySettings = MoneySettings & { app_id: string };

export async function getMoneySettings(office: BackOffice, appId: string): Promise<AppMoneySettings> {
  return { app_id: appId, ...moneySettingsOf(await requireApp(office, appId)) };
}

/** Sets what is given: `currency`, and `money_events`, which replaces the whole mapping. */
export async function setMoneySettings(
  office: BackOffice,
  appId: string,
  input: { currency?: string; money_events?: Record<string, string> },
): Promise<AppMoneySettings> {
  const problems = moneySettingsProblems(input);
  if (problems.length > 0) throw new ValidationError(problems, 'money settings are invalid');
  await requireApp(office, appId);
  const updated = await office.apps.update(appId, {
    currency: input.currency,
    money_events: input.money_events as Record<string, MoneyKind> | undefined,
  });
  return { app_id: appId, ...moneySettingsOf(updated) };
}
