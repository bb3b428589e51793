/**
 * The profile consumer's part in the players' search index: before a
 * profile's conditional write, the index gains the player's new terms and
 * loses those it no longer has. Before, not after: the profile write is what
 * marks the records applied, so a crash in between is repeated identically
 * by the redelivery (puts and deletes of the same keys), and the index never
 * misses a write that took.
 */
import type { Attributes } from '../../domain/attributes';
import { termKey, termsDiff, termsOf, type PlayerSearchIndex, type SearchTerm } from '../../domain/player-search';
import type { ProfileState, StoredProfile } from '../../domain/profile-state';

export interface SearchIndexing {
  index: PlayerSearchIndex;
  /** The application's searchable attributes (its `search_attributes` setting, else the default). */
  searchable(appId: string): Promise<readonly string[]>;
}

// Terms an attempt put whose profile write then lost to another writer: the next attempt's state may not have them.
const putByEarlierAttempts = new WeakMap<object, Map<string, SearchTerm>>();

/**
 * Writes the difference between the player's terms as stored and as `state`
 * leaves them; nothing when they are the same. `attempt` is one object per
 * group of records (its array), so terms put by an attempt that lost a
 * conflict are taken back by the next when they are no longer the player's.
 */
export async function indexSearchTerms(search: SearchIndexing, stored: StoredProfile | undefined, state: ProfileState, attempt: object): Promise<void> {
  const searchable = await search.searchable(state.appId);
  const before = termsOf(state.profileId, stored?.exists ? (JSON.parse(stored.attrs) as Attributes) : undefined, searchable);
  const earlier = putByEarlierAttempts.get(attempt) ?? new Map<string, SearchTerm>();
  for (const [key, term] of earlier) before.set(key, term);
  const after = termsOf(state.profileId, state.exists ? state.attributes : undefined, searchable);
  const change = termsDiff(before, after);
  if (change.puts.length === 0 && change.deletes.length === 0) return;
  await search.index.write(state.appId, state.profileId, change);
  for (const term of change.puts) earlier.set(termKey(term), term);
  putByEarlierAttempts.set(attempt, earlier);
}
