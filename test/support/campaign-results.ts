/**
 * CampaignResultsStore in memory, with the DynamoDB adapter's semantics: a
 * marker per counted event and per player's unique figure, money as exact
 * decimals.
 */
import Decimal from 'decimal.js';
import {
  type CampaignResultsStore,
  type MoneyDelta,
  type Receipt,
  type StoredResults,
  type Tally,
  type TallyCounts,
  type TallyEntry,
  zeroGroupMoney,
} from '../../functions/domain/campaign-results';

export class MemoryCampaignResults implements CampaignResultsStore {
  readonly markers = new Set<string>();
  readonly stored = new Map<string, StoredResults>();
  readonly receiptsOf = new Map<string, Map<string, Receipt>>();

  private of(appId: string, campaign: string): StoredResults {
    const key = `${appId}#${campaign}`;
    const found = this.stored.get(key) ?? { steps: {}, days: {}, money: {} };
    this.stored.set(key, found);
    return found;
  }

  private once(marker: string): boolean {
    if (this.markers.has(marker)) return false;
    this.markers.add(marker);
    return true;
  }

  async tally(entries: TallyEntry[]): Promise<TallyCounts> {
    const counts: TallyCounts = { counted: 0, repeated: 0 };
    for (const { appId, profileId, insertId, tally } of entries) {
      if (this.count(appId, profileId, insertId, tally)) counts.counted++;
      else counts.repeated++;
    }
    return counts;
  }

  private count(appId: string, profileId: string, insertId: string, tally: Tally): boolean {
    const results = this.of(appId, tally.campaign);
    results.steps[tally.step] ??= {};
    const step = results.steps[tally.step];
    const player = `${appId}#${profileId}`;
    if (tally.receipt) {
      const mine = this.receiptsOf.get(player) ?? new Map<string, Receipt>();
      const key = `${tally.campaign}#${tally.receipt}`;
      const before = mine.get(key);
      if (!before || before.at < tally.at) mine.set(key, { campaign: tally.campaign, group: tally.receipt, at: tally.at });
      this.receiptsOf.set(player, mine);
    }
    if (!this.once(`${player}#x#${insertId}#${tally.campaign}`)) return false;
    if (tally.unique && this.once(`${player}#u#${tally.campaign}#${tally.step}#${tally.unique}`)) {
      step[`${tally.unique}_unique`] = (step[`${tally.unique}_unique`] ?? 0) + 1;
    }
    if (tally.receipt && this.once(`${player}#g#${tally.campaign}#${tally.receipt}`)) {
      results.money[tally.receipt] ??= zeroGroupMoney();
      results.money[tally.receipt]!.players++;
    }
    step[tally.counter] = (step[tally.counter] ?? 0) + 1;
    results.days[tally.day] ??= {};
    const day = results.days[tally.day];
    day[tally.counter] = (day[tally.counter] ?? 0) + 1;
    return true;
  }

  async receipts(appId: string, profileId: string): Promise<Receipt[]> {
    return [...(this.receiptsOf.get(`${appId}#${profileId}`)?.values() ?? [])];
  }

  async addMoney(appId: string, profileId: string, insertId: string, delta: MoneyDelta): Promise<boolean> {
    const money = this.of(appId, delta.campaign).money;
    money[delta.group] ??= zeroGroupMoney();
    const group = money[delta.group]!;
    const player = `${appId}#${profileId}`;
    if (delta.deposit_count > 0 && this.once(`${player}#dep#${delta.campaign}#${delta.group}`)) group.depositors++;
    if (!this.once(`${player}#x#${insertId}#${delta.campaign}#${delta.group}`)) return false;
    group.deposit_count += delta.deposit_count;
    group.deposits = new Decimal(group.deposits).plus(delta.deposits).toFixed();
    group.ngr = new Decimal(group.ngr).plus(delta.ngr).toFixed();
    return true;
  }

  async read(appId: string, campaign: string): Promise<StoredResults> {
    return structuredClone(this.stored.get(`${appId}#${campaign}`) ?? { steps: {}, days: {}, money: {} });
  }
}
