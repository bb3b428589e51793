/** The funnel's sub-id day rows in memory, for the programme view's tests. */
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
