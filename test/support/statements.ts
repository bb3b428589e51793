/** In-memory statements and payout details, with the DynamoDB adapters' conditions (functions/adapters/dynamo-statement-store.ts). */
import type { PayoutDetails, PayoutStore } from '../../functions/domain/payouts';
import type { FrozenStatement, ManualAdjustment, StatementPayment, StatementStore } from '../../functions/domain/statements';

const key = (appId: string, affiliateId: string, month: string) => `${appId}#${affiliateId}#${month}`;
const copy = <T>(value: T): T => structuredClone(value);

export class MemoryStatementStore implements StatementStore {
  readonly statements = new Map<string, FrozenStatement>();
  readonly adjustmentItems = new Map<string, { adjustments: ManualAdjustment[]; added: number }>();
  /** Calls, by method: what a test counts as DynamoDB requests. */
  readonly calls: Record<string, number> = {};

  private count(method: string) {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
  }

  async lastClosedMonth(appId: string, affiliateId: string): Promise<string | undefined> {
    this.count('lastClosedMonth');
    return (await this.frozenOf(appId, affiliateId)).at(-1)?.month;
  }

  private async frozenOf(appId: string, affiliateId: string): Promise<FrozenStatement[]> {
    return [...this.statements.entries()]
      .filter(([k]) => k.startsWith(`${appId}#${affiliateId}#`))
      .map(([, s]) => copy(s))
      .sort((a, b) => a.month.localeCompare(b.month));
  }

  async frozen(appId: string, affiliateId: string): Promise<FrozenStatement[]> {
    this.count('frozen');
    return this.frozenOf(appId, affiliateId);
  }

  async get(appId: string, affiliateId: string, month: string): Promise<FrozenStatement | undefined> {
    this.count('get');
    const found = this.statements.get(key(appId, affiliateId, month));
    return found && copy(found);
  }

  async ofMonth(appId: string, month: string, affiliateIds: readonly string[]): Promise<FrozenStatement[]> {
    this.count('ofMonth');
    return affiliateIds
      .map((id) => this.statements.get(key(appId, id, month)))
      .filter((s): s is FrozenStatement => s !== undefined)
      .map(copy)
      .sort((a, b) => a.affiliate_id.localeCompare(b.affiliate_id));
  }

  async adjustments(appId: string, affiliateId: string, month: string): Promise<{ adjustments: ManualAdjustment[]; added: number }> {
    this.count('adjustments');
    return copy(this.adjustmentItems.get(key(appId, affiliateId, month)) ?? { adjustments: [], added: 0 });
  }

  async addAdjustment(appId: string, affiliateId: string, month: string, adjustment: ManualAdjustment, max: number): Promise<'added' | 'closed' | 'full'> {
    this.count('addAdjustment');
    if (this.statements.has(key(appId, affiliateId, month))) return 'closed';
    const held = this.adjustmentItems.get(key(appId, affiliateId, month)) ?? { adjustments: [], added: 0 };
    if (held.added >= max) return 'full';
    this.adjustmentItems.set(key(appId, affiliateId, month), { adjustments: [...held.adjustments, copy(adjustment)], added: held.added + 1 });
    return 'added';
  }

  async approve(
    appId: string,
    statement: FrozenStatement,
    conditions: { added: number; previous?: string },
  ): Promise<'approved' | 'taken' | 'changed' | 'gap'> {
    this.count('approve');
    const k = key(appId, statement.affiliate_id, statement.month);
    if (this.statements.has(k)) return 'taken';
    if ((this.adjustmentItems.get(k)?.added ?? 0) !== conditions.added) return 'changed';
    const ofAffiliate = key(appId, statement.affiliate_id, '');
    const lastApproved = [...this.statements.keys()]
      .filter((held) => held.startsWith(ofAffiliate))
      .map((held) => held.slice(ofAffiliate.length))
      .sort()
      .at(-1);
    if (lastApproved !== conditions.previous) return 'gap';
    this.statements.set(k, copy(statement));
    return 'approved';
  }

  async markPaid(appId: string, affiliateId: string, month: string, payment: StatementPayment): Promise<FrozenStatement | undefined> {
    this.count('markPaid');
    const held = this.statements.get(key(appId, affiliateId, month));
    if (held?.status !== 'approved') return undefined;
    const paid: FrozenStatement = { ...held, status: 'paid', payment: copy(payment) };
    this.statements.set(key(appId, affiliateId, month), paid);
    return copy(paid);
  }
}

export class MemoryPayoutStore implements PayoutStore {
  readonly details = new Map<string, PayoutDetails>();
  /** Affiliates that exist (set() refuses others); empty: every affiliate does. */
  constructor(readonly known: Set<string> = new Set()) {}

  async get(appId: string, affiliateId: string): Promise<PayoutDetails | undefined> {
    const found = this.details.get(`${appId}#${affiliateId}`);
    return found && copy(found);
  }

  async getMany(appId: string, affiliateIds: readonly string[]): Promise<Map<string, PayoutDetails>> {
    return new Map(affiliateIds.flatMap((id) => (this.details.has(`${appId}#${id}`) ? [[id, copy(this.details.get(`${appId}#${id}`)!)] as const] : [])));
  }

  async set(appId: string, affiliateId: string, payout: PayoutDetails): Promise<boolean> {
    if (this.known.size > 0 && !this.known.has(affiliateId)) return false;
    this.details.set(`${appId}#${affiliateId}`, copy(payout));
    return true;
  }
}
