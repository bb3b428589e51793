import { describe, expect, test } from '@jest/globals';
import {
  cachedSearchSetting,
  checkSearchAttributes,
  defaultSearchAttributes,
  digitsOf,
  normaliseTerm,
  rankHits,
  searchKey,
  searchQueries,
  termsDiff,
  termsOf,
  type SearchTerm,
} from '../../../functions/domain/player-search';
import { ValidationError } from '../../../functions/domain/errors';

const shown = (terms: Map<string, SearchTerm>) =>
  [...terms.values()].map(({ field, term }) => `${field.kind === 'attribute' ? field.name : field.kind}: ${term}`).sort();

describe('normalising a term', () => {
  test('folds compatibility forms and case, trims and collapses inner whitespace', () => {
    expect(normaliseTerm('  Ｌｉａｍ \t  BORG\n')).toBe('liam borg');
  });

  test('is cut to 100 characters, whole code points', () => {
    expect([...normaliseTerm('😀'.repeat(150))]).toHaveLength(100);
  });
});

describe('digits of a phone number', () => {
  test('are the digits of a phone-like text of at least three', () => {
    expect(digitsOf('+356 (79) 12-34.56')).toBe('35679123456');
    expect(digitsOf('12')).toBeUndefined();
  });

  test('are none for a text with letters', () => {
    expect(digitsOf('room 101')).toBeUndefined();
  });
});

describe("a player's terms", () => {
  const liam = { first_name: 'Liam', last_name: 'Borg', email: 'Liam@Example.com', phone: '+356 7912', country: 'MT' };

  test('are the id, each searchable attribute, phone digits and the full name', () => {
    expect(shown(termsOf('P-1', liam, defaultSearchAttributes))).toEqual([
      'email: liam@example.com',
      'first_name: liam',
      'id: p-1',
      'last_name: borg',
      'name: liam borg',
      'phone: +356 7912',
      'phone: 3567912',
    ]);
  });

  test('leave out attributes that are not searchable, and the full name unless both halves are', () => {
    expect(shown(termsOf('p-1', liam, ['first_name', 'country']))).toEqual(['country: mt', 'first_name: liam', 'id: p-1']);
  });

  test('take numbers as text, the first ten values of an array, and skip empty values and other types', () => {
    const terms = termsOf('p-1', { email: ['a@x', 'b@x'], phone: 35679, first_name: '   ', last_name: true }, defaultSearchAttributes);
    expect(shown(terms)).toEqual(['email: a@x', 'email: b@x', 'id: p-1', 'phone: 35679']);
  });

  test('are none for a player that does not exist', () => {
    expect(termsOf('p-1', undefined, defaultSearchAttributes).size).toBe(0);
  });
});

describe('the difference of two sets of terms', () => {
  test('puts what is new and deletes what is gone, and is empty when nothing changed', () => {
    const before = termsOf('p-1', { email: 'old@x', first_name: 'Liam' }, defaultSearchAttributes);
    const after = termsOf('p-1', { email: 'new@x', first_name: 'Liam' }, defaultSearchAttributes);

    expect(termsDiff(before, after)).toEqual({
      puts: [{ field: { kind: 'attribute', name: 'email' }, term: 'new@x' }],
      deletes: [{ field: { kind: 'attribute', name: 'email' }, term: 'old@x' }],
    });
    expect(termsDiff(after, after)).toEqual({ puts: [], deletes: [] });
  });
});

describe('index keys', () => {
  test("spread an application's writes by field and first character, and sort by term then profile id", () => {
    expect(searchKey('app_1', { kind: 'attribute', name: 'email' }, 'liam@x', 'p-1')).toEqual({ pk: 'app_1#a.email#l', sk: 'liam@x\u0000p-1' });
    expect(searchKey('app_1', { kind: 'id' }, 'p-1', 'p-1').pk).toBe('app_1#urm.id#p');
  });
});

describe('the queries of a search', () => {
  test('ask the id, the full name and each searchable attribute, by the normalised text', () => {
    expect(searchQueries(' LIAM  B ', defaultSearchAttributes).map((q) => `${q.field.kind === 'attribute' ? q.field.name : q.field.kind}=${q.text}`)).toEqual([
      'id=liam b',
      'email=liam b',
      'first_name=liam b',
      'last_name=liam b',
      'phone=liam b',
      'name=liam b',
    ]);
  });

  test('ask the attributes again by the digits of a phone number written with spaces or signs', () => {
    const digits = searchQueries('+356 7912', ['phone']).filter((q) => q.text === '3567912');
    expect(digits).toEqual([{ field: { kind: 'attribute', name: 'phone' }, text: '3567912' }]);
  });

  test('are none for a blank text', () => {
    expect(searchQueries('   ', defaultSearchAttributes)).toEqual([]);
  });
});

describe('ranking hits', () => {
  test('keeps each player once, exact matches before prefixes, then by the place of the field', () => {
    const queries = searchQueries('liam', defaultSearchAttributes);
    const hits = queries.map(() => [] as { profileId: string; term: string }[]);
    hits[5] = [{ profileId: 'p-1', term: 'liam borg' }];
    hits[2] = [
      { profileId: 'p-1', term: 'liam' },
      { profileId: 'p-2', term: 'liamson' },
    ];
    hits[1] = [{ profileId: 'p-3', term: 'liam@x' }];

    const ranked = rankHits(queries, hits);

    expect(ranked.map((h) => [h.profileId, h.exact])).toEqual([
      ['p-1', true],
      ['p-3', false],
      ['p-2', false],
    ]);
  });
});

describe('the searchable attributes setting', () => {
  test('takes up to five custom attribute names, each once', () => {
    expect(checkSearchAttributes(['email', 'nickname'])).toEqual(['email', 'nickname']);
    expect(() => checkSearchAttributes(['a', 'b', 'c', 'd', 'e', 'f'])).toThrow(ValidationError);
    expect(() => checkSearchAttributes(['email', 'email'])).toThrow(ValidationError);
    expect(() => checkSearchAttributes(['urm_rg_status'])).toThrow(ValidationError);
  });

  test('is read once a minute per application, the default when the application never said', async () => {
    let reads = 0;
    let now = 0;
    const searchable = cachedSearchSetting(
      {
        get: async () => {
          reads++;
          return reads === 1 ? {} : { search_attributes: ['nickname'] };
        },
      },
      60_000,
      () => now,
    );

    expect(await searchable('app_1')).toEqual({ attributes: defaultSearchAttributes });
    now = 59_999;
    expect(await searchable('app_1')).toEqual({ attributes: defaultSearchAttributes });
    now = 60_000;
    expect((await searchable('app_1')).attributes).toEqual(['nickname']);
    expect(reads).toBe(2);
  });
});
