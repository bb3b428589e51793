/** The funnel's sub-id day rows in memory, for the programme view's tests; a player's events through the local stack. */
import { randomUUID } from 'node:crypto';
import { expect } from '@jest/globals';
import { request } from './http';
import type { SubIdDayRow, SubIdReader } from '../../functions/domain/programme';

export class MemorySubIds implements SubIdReader {
  readonly rows: SubIdDayRow[] = [];
  /** The affiliates whose sub-id rows were read, in order: what the view cost. */
  readonly reads: string[] = [];

  async subIdDays(appId: string, affiliateId: string, from: string, to: string): Promise<SubIdDayRow[]> {
    this.reads.push(affiliateId);
    return this.rows.filter((row) => row.app_id === appId && row.affiliate_id === affiliateId && row.day >= from && row.day <= to);
  }
}

/** A sub-id day row of `affiliateId` with zeros but what is given. */
export function subIdRow(affiliateId: string, day: string, subId: string, figures: Partial<SubIdDayRow> = {}, appId = 'app_1'): SubIdDayRow {
  return { app_id: appId, affiliate_id: affiliateId, link_id: 'lnk_1', day, sub_id: subId, clicks: 0, registrations: 0, ftds: 0, deposits: '0', ...figures };
}

/** A new player attributed to `affiliateId` with `set_affiliate`, then its money events through `/events`, as an operator's server sends them. */
export async function attributedPlayer(
  baseUrl: string,
  app: { appId: string; serverKey: string },
  affiliateId: string,
  events: { event: string; amount: number }[],
): Promise<void> {
  const profileId = `player-${randomUUID()}`;
  const attributed = await request(baseUrl, 'POST', '/api/set_affiliate', {
    key: app.serverKey,
    body: { app_id: app.appId, profile_id: profileId, urm_aff_id: affiliateId },
  });
  expect(attributed.status).toBe(200);
  const sent = await request(baseUrl, 'POST', '/events', {
    key: app.serverKey,
    body: events.map((e) => ({ app_id: app.appId, profile_id: profileId, ...e, currency: 'EUR', urm_date_time: new Date().toISOString() })),
  });
  expect(sent.body.FailedRecordCount).toBe(0);
}
