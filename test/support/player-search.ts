/**
 * The players' search index in memory, with the DynamoDB adapter's contract
 * (functions/adapters/dynamo-player-search.ts): items by key, a prefix query
 * in key order within one partition, bounded. It records each write it was
 * asked for, and lets a test fail one.
 */
import { searchKey, searchPartition, type PlayerSearchIndex, type SearchField, type SearchHit, type SearchTerm } from '../../functions/domain/player-search';

export class MemoryPlayerSearch implements PlayerSearchIndex {
  /** `pk\u0001sk` of every item. */
  readonly items = new Set<string>();
  readonly writes: { appId: string; profileId: string; puts: SearchTerm[]; deletes: SearchTerm[] }[] = [];
  /** Runs before a write is applied: a test's way to fail it. */
  beforeWrite?: () => void;

  async write(appId: string, profileId: string, change: { puts: SearchTerm[]; deletes: SearchTerm[] }): Promise<void> {
    this.beforeWrite?.();
    this.writes.push({ appId, profileId, ...structuredClone(change) });
    for (const { field, term } of change.puts) this.items.add(itemKey(searchKey(appId, field, term, profileId)));
    for (const { field, term } of change.deletes) this.items.delete(itemKey(searchKey(appId, field, term, profileId)));
  }

  async find(appId: string, field: SearchField, prefix: string, limit: number): Promise<SearchHit[]> {
    const pk = searchPartition(appId, field, prefix);
    return [...this.items]
      .map((key) => key.split('\u0001') as [string, string])
      .filter(([itemPk, sk]) => itemPk === pk && sk.startsWith(prefix))
      .map(([, sk]) => sk)
      .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
      .slice(0, limit)
      .map((sk) => {
        const cut = sk.indexOf('\u0000');
        return { term: sk.slice(0, cut), profileId: sk.slice(cut + 1) };
      });
  }

  /** The index's terms of one player, as `<field tag> <term>` strings, sorted. */
  termsOf(appId: string, profileId: string): string[] {
    return [...this.items]
      .map((key) => key.split('\u0001') as [string, string])
      .filter(([pk, sk]) => pk.startsWith(`${appId}#`) && sk.endsWith(`\u0000${profileId}`))
      .map(([pk, sk]) => `${pk.slice(appId.length + 1, pk.lastIndexOf('#'))} ${sk.slice(0, sk.indexOf('\u0000'))}`)
      .sort();
  }
}

const itemKey = ({ pk, sk }: { pk: string; sk: string }) => `${pk}\u0001${sk}`;
