/**
 * Finding a player by id, email, name or phone without a scan: the search
 * index (the `playerSearch` table) holds one item per term of a player,
 * keyed `<app_id>#<field>#<first character>` / `<term>\u0000<profile_id>`, so
 * exact and prefix matches are one bounded Query per field. The profile
 * consumer keeps it: it writes the difference between a player's terms before
 * and after its records, before the profile's own write (docs/api.md,
 * "Finding players").
 */
import { customNameProblem, type Attributes, type AttributeValue } from './attributes';
import { ValidationError } from './errors';

/** Attributes searched when the application never said (the setting `search_attributes`). */
export const defaultSearchAttributes = ['email', 'first_name', 'last_name', 'phone'] as const;

export const searchLimits = {
  /** Searchable attributes an application may name. */
  attributes: 5,
  /** A term (and a query) is cut to this many characters. */
  termLength: 100,
  /** Values of one array attribute that become terms. */
  arrayValues: 10,
  /** Items one Query of a field reads. */
  perQuery: 50,
  /** Players a search answers with. */
  results: 50,
} as const;

/** Where a term comes from: the profile id, the full name, or a searchable attribute. */
export type SearchField = { kind: 'id' } | { kind: 'name' } | { kind: 'attribute'; name: string };

/** The field as a key part: attribute names cannot start with "urm", the other two can't be confused with one. */
export const fieldTag = (field: SearchField): string => (field.kind === 'attribute' ? `a.${field.name}` : `urm.${field.kind}`);

/** NFKC, lower case, trimmed, inner whitespace collapsed, cut to the term length (whole code points). */
export function normaliseTerm(text: string): string {
  const folded = text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
  return [...folded].slice(0, searchLimits.termLength).join('').trimEnd();
}

const phoneLike = /^[\d\s+().-]+$/u;

/** The digits of a phone-like text ("+356 7912-34" → "356791234"), when it has at least three; else undefined. */
export function digitsOf(text: string): string | undefined {
  if (!phoneLike.test(text)) return undefined;
  const digits = text.replace(/\D/gu, '');
  return digits.length >= 3 ? digits : undefined;
}

/** One term of a player, as the index stores it. */
export interface SearchTerm {
  field: SearchField;
  term: string;
}

/** A term as a string, for sets and differences. */
export const termKey = ({ field, term }: SearchTerm): string => `${fieldTag(field)}\u0000${term}`;

function textsOf(value: AttributeValue | null | undefined): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return [String(value)];
  if (Array.isArray(value)) return value.slice(0, searchLimits.arrayValues).flatMap((v) => (typeof v === 'string' || typeof v === 'number' ? [String(v)] : []));
  return [];
}

/**
 * Every term of a player: its profile id; the value of each searchable
 * attribute (phone-like values also as their digits); the full name when
 * first_name and last_name are both searchable and present. None for a
 * player that does not exist.
 */
export function termsOf(profileId: string, attributes: Attributes | undefined, searchable: readonly string[]): Map<string, SearchTerm> {
  const terms = new Map<string, SearchTerm>();
  if (attributes === undefined) return terms;
  const add = (field: SearchField, text: string) => {
    const term = normaliseTerm(text);
    if (term.length > 0) terms.set(termKey({ field, term }), { field, term });
  };
  add({ kind: 'id' }, profileId);
  for (const name of searchable) {
    for (const text of textsOf(attributes[name])) {
      add({ kind: 'attribute', name }, text);
      const digits = digitsOf(text);
      if (digits !== undefined) add({ kind: 'attribute', name }, digits);
    }
  }
  const [first, last] = [attributes.first_name, attributes.last_name];
  if (searchable.includes('first_name') && searchable.includes('last_name') && typeof first === 'string' && typeof last === 'string') {
    if (normaliseTerm(first) && normaliseTerm(last)) add({ kind: 'name' }, `${first} ${last}`);
  }
  return terms;
}

/** What the index must gain and lose for a player's terms to go from `before` to `after`. */
export function termsDiff(before: Map<string, SearchTerm>, after: Map<string, SearchTerm>): { puts: SearchTerm[]; deletes: SearchTerm[] } {
  return {
    puts: [...after].filter(([key]) => !before.has(key)).map(([, term]) => term),
    deletes: [...before].filter(([key]) => !after.has(key)).map(([, term]) => term),
  };
}

/** The index item's keys: the partition spreads an application's writes over fields and first characters. */
export function searchKey(appId: string, field: SearchField, term: string, profileId: string): { pk: string; sk: string } {
  return { pk: searchPartition(appId, field, term), sk: `${term}\u0000${profileId}` };
}

export const searchPartition = (appId: string, field: SearchField, term: string): string => `${appId}#${fieldTag(field)}#${[...term][0] ?? ''}`;

/** One index item a query found. */
export interface SearchHit {
  profileId: string;
  term: string;
}

/** Port: the search index of every application (functions/adapters/dynamo-player-search.ts). */
export interface PlayerSearchIndex {
  /** Puts and deletes the terms of one player; repeating it is harmless. */
  write(appId: string, profileId: string, change: { puts: SearchTerm[]; deletes: SearchTerm[] }): Promise<void>;
  /** Items of the field whose term starts with `prefix`, in term order, at most `limit`. */
  find(appId: string, field: SearchField, prefix: string, limit: number): Promise<SearchHit[]>;
}

/** One Query of a search: a field, the text its terms must start with. */
export interface SearchQuery {
  field: SearchField;
  text: string;
  /** The profiles table's own id order (`by-app`), case as sent: finds players applied before the index was. */
  ids?: true;
}

/**
 * The Queries a search text makes: the profile id, each searchable attribute
 * and the full name by the normalised text; the attributes again by its
 * digits when it looks like a phone number written otherwise ("+356 7912").
 */
export function searchQueries(query: string, searchable: readonly string[]): SearchQuery[] {
  const text = normaliseTerm(query);
  if (text.length === 0) return [];
  const attributes = searchable.map((name): SearchField => ({ kind: 'attribute', name }));
  const withName = searchable.includes('first_name') && searchable.includes('last_name') ? [{ kind: 'name' } as const] : [];
  const queries: SearchQuery[] = [{ kind: 'id' } as const, ...attributes, ...withName].map((field) => ({ field, text }));
  const digits = digitsOf(text);
  if (digits !== undefined && digits !== text) queries.push(...attributes.map((field) => ({ field, text: digits })));
  return queries;
}

/** A player a search found, ranked: exact before prefix, then by the field's place in the search. */
export interface RankedHit {
  profileId: string;
  query: SearchQuery;
  term: string;
  exact: boolean;
  rank: number;
}

/** The hits of each query (in `queries` order), one per player (its best), best first. */
export function rankHits(queries: readonly SearchQuery[], hits: readonly SearchHit[][]): RankedHit[] {
  const best = new Map<string, RankedHit>();
  queries.forEach((query, place) => {
    for (const hit of hits[place] ?? []) {
      const exact = hit.term === query.text;
      const rank = (exact ? 0 : queries.length) + place;
      const found = best.get(hit.profileId);
      if (!found || rank < found.rank) best.set(hit.profileId, { profileId: hit.profileId, query, term: hit.term, exact, rank });
    }
  });
  return [...best.values()].sort((a, b) => a.rank - b.rank || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0) || (a.profileId < b.profileId ? -1 : 1));
}

/**
 * Whether the player still has the term a hit was found by: a term left by a
 * write whose profile write never took, or by an older setting, is no match.
 */
export function stillMatches(hit: RankedHit, profileId: string, attributes: Attributes | undefined, searchable: readonly string[]): boolean {
  if (hit.query.ids) return attributes !== undefined && profileId.startsWith(hit.query.text);
  return termsOf(profileId, attributes, searchable).has(termKey({ field: hit.query.field, term: hit.term }));
}

/** The application's searchable attributes: its setting, else the default. */
export const searchAttributesOf = (app: { search_attributes?: readonly string[] } | undefined): readonly string[] =>
  app?.search_attributes ?? defaultSearchAttributes;

/** What the profile consumer needs of the setting: the attributes, and those before its last change, and when that was. */
export interface SearchSetting {
  attributes: readonly string[];
  /** The attributes before the last change, whose terms a player applied before it may still have. */
  previous?: readonly string[];
  /** When the setting last changed (ISO). */
  changedAt?: string;
}

type SettingSource = { search_attributes?: readonly string[]; search_attributes_previous?: readonly string[]; search_attributes_changed_at?: string };

export const searchSettingOf = (app: SettingSource | undefined): SearchSetting => ({
  attributes: searchAttributesOf(app),
  ...(app?.search_attributes_changed_at
    ? { previous: app.search_attributes_previous ?? defaultSearchAttributes, changedAt: app.search_attributes_changed_at }
    : {}),
});

/**
 * What the index must gain and lose for a player going from `stored` to
 * `after` attributes. A player last applied before the setting changed may
 * have terms of the old attributes and lack those of the new: it loses the
 * old ones it no longer has and is given all of its terms, once (its next
 * write is newer than the change).
 */
export function searchChange(
  profileId: string,
  stored: { attributes: Attributes | undefined; updatedAt?: string },
  after: Attributes | undefined,
  setting: SearchSetting,
): { puts: SearchTerm[]; deletes: SearchTerm[] } {
  const before = termsOf(profileId, stored.attributes, setting.attributes);
  const next = termsOf(profileId, after, setting.attributes);
  const older = stored.attributes !== undefined && setting.changedAt !== undefined && (stored.updatedAt === undefined || stored.updatedAt < setting.changedAt);
  if (!older) return termsDiff(before, next);
  for (const [key, term] of termsOf(profileId, stored.attributes, setting.previous ?? [])) before.set(key, term);
  return { puts: [...next.values()], deletes: termsDiff(before, next).deletes };
}

/**
 * An application's search setting, read at most once a minute per
 * application and process: a changed setting reaches the profile consumer
 * within a minute, and a batch of many players costs one read.
 */
export function cachedSearchSetting(apps: { get(appId: string): Promise<SettingSource | undefined> }, ttlMs = 60_000, now = Date.now) {
  const cache = new Map<string, { at: number; searchable: Promise<SearchSetting> }>();
  return (appId: string): Promise<SearchSetting> => {
    const found = cache.get(appId);
    if (found && now() - found.at < ttlMs) return found.searchable;
    const searchable = apps.get(appId).then(searchSettingOf);
    // A failed read is not remembered: the next profile asks again.
    searchable.catch(() => cache.delete(appId));
    cache.set(appId, { at: now(), searchable });
    return searchable;
  };
}

/** An application's searchable attributes as given (console, command line): at most five custom attribute names, each once. */
export function checkSearchAttributes(names: readonly string[]): string[] {
  const problems: string[] = [];
  if (names.length > searchLimits.attributes) problems.push(`at most ${searchLimits.attributes} searchable attributes`);
  if (new Set(names).size !== names.length) problems.push('each searchable attribute once');
  for (const name of names) {
    const problem = customNameProblem(name);
    if (problem) problems.push(`${name}: ${problem}`);
  }
  if (problems.length > 0) throw new ValidationError(problems, 'searchable attributes are invalid');
  return [...names];
}
