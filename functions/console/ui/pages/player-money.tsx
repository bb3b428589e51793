/**
 * A player's money ever, at the top of the player page: lifetime deposits,
 * withdrawals and NGR, the number of deposits, the first and last deposit,
 * in the application's main currency, as the funnel counted them.
 */
import type { ConsoleAnswer } from '../../answers';
import { type Kpi, KpiCards } from '../../../ui/design/kpi';
import { formatCount, formatDay, formatMoney } from '../../../ui/format';

export type PlayerMoney = ConsoleAnswer<'ConsoleGetPlayer'>['money'];

/** The figure without its currency, which the card shows as its unit. */
function figure(amount: string, currency: string): string {
  const text = formatMoney(amount, currency);
  return text.endsWith(` ${currency}`) ? text.slice(0, -(currency.length + 1)) : text;
}

const isZero = (amount: string) => /^-?0(\.0*)?$/.test(amount);

/** Every money amount is above zero, so a player with none counted has every figure at zero. */
export const hasMoney = (money: PlayerMoney) => money.deposit_count > 0 || money.first_deposit !== null || !isZero(money.withdrawals) || !isZero(money.ngr);

export function moneyKpis(money: PlayerMoney): Kpi[] {
  const { currency } = money;
  const deposit = (id: string, label: string, found: PlayerMoney['first_deposit']): Kpi =>
    found
      ? { id, label, value: figure(found.amount, currency), unit: currency, note: formatDay(found.day) }
      : { id, label, value: <span class="muted">none</span> };
  return [
    { id: 'kpi-deposits', label: 'Deposits', value: figure(money.deposits, currency), unit: currency, key: true },
    { id: 'kpi-withdrawals', label: 'Withdrawals', value: figure(money.withdrawals, currency), unit: currency },
    { id: 'kpi-ngr', label: 'NGR', value: figure(money.ngr, currency), unit: currency },
    { id: 'kpi-deposit-count', label: 'Number of deposits', value: formatCount(money.deposit_count) },
    deposit('kpi-first-deposit', 'First deposit', money.first_deposit),
    deposit('kpi-last-deposit', 'Last deposit', money.last_deposit),
  ];
}

export function PlayerMoneyCards({ money }: { money: PlayerMoney }) {
  if (!hasMoney(money)) return <p class="muted player-money-none">No money events yet</p>;
  return (
    <div class="player-money">
      <KpiCards label="Money" kpis={moneyKpis(money)} />
    </div>
  );
}
