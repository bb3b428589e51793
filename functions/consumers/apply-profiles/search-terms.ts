/**
 * The profile consumer's part in the players' search index: before a
 * profile's conditional write, the index gains the player's new terms and
 * loses those it no longer has. Before, not after: the profile write is what
 * marks the records applied, so a crash in between is repeated identically
 * by the redelivery (puts and deletes of the same keys), and the index never
 * misses a write that took.
 */
import type { Attributes } from '../../domain/attributes';
import { searchChange, termKey, termsOf, type PlayerSearchIndex, type SearchSetting, type SearchTerm } from '../../domain/player-search';
import type { ProfileState, StoredProfile } from '../../domain/profile-state';

export interface SearchIndexing {
  index: PlayerSearchIndex;
  /** The application's search setting: its searchable attributes (else the default), and their last change. */
  setting(appId: string): Promise<SearchSetting>;
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
  const setting = await search.setting(state.appId);
  const was = stored?.exists ? (JSON.parse(stored.attrs) as Attributes) : undefined;
  const after = state.exists ? state.attributes : undefined;
  const change = searchChange(state.profileId, { attributes: was, updatedAt: stored?.updated_at }, after, setting);
  const earlier = putByEarlierAttempts.get(attempt) ?? new Map<string, SearchTerm>();
  const kept = termsOf(state.profileId, after, setting.attributes);
  const deleting = new Set(change.deletes.map(termKey));
  for (const [key, term] of earlier) if (!kept.has(key) && !deleting.has(key)) change.deletes.push(term);
  if (change.puts.length === 0 && change.deletes.length === 0) return;
  await search.index.write(state.appId, state.profileId, change);
  for (const term of change.puts) earlier.set(termKey(term), term);
  putByEarlierAttempts.set(attempt, earlier);
}
