/**
 * Reading the affiliate funnel of a running local stack through the
 * FunnelReader adapter (the report API reads it the same way), and sending
 * the records of a player's funnel over HTTP as an integrator does.
 */
import { expect } from '@jest/globals';
import DecimalJs from 'decimal.js';
import { DynamoFunnelStore } from '../../functions/adapters/dynamo-funnel-store';
import type { FunnelDayRow } from '../../functions/domain/affiliate-program';
import { tables } from '../../functions/manifest/resources';
import { localBackOffice, localClients, type LocalEndpoints } from '../../lib/local/stack';
import { request } from './http';
import type { TestStack } from './local-stack';

export function funnelOf(endpoints: Pick<LocalEndpoints, 'dynamodb_endpoint' | 'kinesis_endpoint' | 'region' | 'access_key_id'>) {
  const { document } = localClients(endpoints);
  return { reader: new DynamoFunnelStore(document, tables.funnel.localName), office: localBackOffice(document), document };
}

export interface Totals {
  clicks: number;
  registrations: number;
  ftds: number;
  deposit_count: number;
  deposits: string;
  withdrawals: string;
  bets: string;
  wins: string;
  bonuses: string;
}

/** The sum of day rows, exact. */
export function totalsOf(rows: FunnelDayRow[]): Totals {
  const sum = (field: keyof Totals) => rows.reduce((total, row) => total.plus(row[field] as string), new DecimalJs(0)).toFixed();
  const count = (field: keyof Totals) => rows.reduce((total, row) => total + (row[field] as number), 0);
  return {
    clicks: count('clicks'),
    registrations: count('registrations'),
    ftds: count('ftds'),
    deposit_count: count('deposit_count'),
    deposits: sum('deposits'),
    withdrawals: sum('withdrawals'),
    bets: sum('bets'),
    wins: sum('wins'),
    bonuses: sum('bonuses'),
  };
}

export const noTotals: Totals = totalsOf([]);

/** Yesterday to tomorrow (UTC): set_affiliate stamps the attribution with the server's clock. */
export function aroundToday(): { from: string; to: string } {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return { from: day(-1), to: day(1) };
}

export async function setAffiliate(stack: TestStack, body: Record<string, unknown>): Promise<void> {
  const response = await request(stack.baseUrl, 'POST', '/api/set_affiliate', { key: stack.dev.server_key, body: { app_id: stack.dev.app_id, ...body } });
  expect(response.status).toBe(200);
}

/** A money event of the demo application (EUR; Deposit, Withdrawal, Bet, Win, Bonus mapped). */
export function moneyEvent(stack: TestStack, profileId: string, event: string, amount: number | undefined, fields: Record<string, unknown> = {}) {
  return {
    app_id: stack.dev.app_id,
    profile_id: profileId,
    event,
    urm_date_time: new Date().toISOString(),
    ...(amount === undefined ? {} : { amount }),
    currency: 'EUR',
    ...fields,
  };
}
