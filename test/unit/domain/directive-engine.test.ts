import { describe, expect, test } from '@jest/globals';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import type { AttributeValue, Attributes } from '../../../functions/domain/attributes';
import { pushTokenAttributes } from '../../../functions/domain/attributes';
import { applyProfileRecord, type MergeSources, type ProfileChange } from '../../../functions/domain/directive-engine';

// ---- helpers ---------------------------------------------------------------

/** Applies a record that must apply, and returns the new attributes. */
function applied(current: Attributes, record: ProfileChange, sources?: MergeSources): Attributes {
  const result = applyProfileRecord(current, record, sources);
  if (!('attributes' in result)) throw new Error(`rejected: ${result.rejected}`);
  return result.attributes;
}

/** Applies a record that must be rejected as a whole, and returns the reason. */
function rejection(current: Attributes, record: ProfileChange, sources?: MergeSources): string {
  const result = applyProfileRecord(current, record, sources);
  expect(Object.keys(result)).toEqual(['rejected']);
  const { rejected } = result as { rejected: unknown };
  expect(typeof rejected).toBe('string');
  return rejected as string;
}

function assertNamesDirectiveAndAttribute(reason: string, directive: string, attribute: string): void {
  expect(reason.includes(directive)).toBeTruthy();
  expect(reason.includes(attribute)).toBeTruthy();
}

function deepFreeze<T>(value: T): T {
  if (value instanceof Map) {
    for (const inner of value.values()) deepFreeze(inner);
    return Object.freeze(value);
  }
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const sourcesOf = (entries: Record<string, Attributes>): MergeSources => new Map(Object.entries(entries));

// ---- 1. the directive table (docs/api.md), cell by cell -------------------

type State = 'missing' | 'null' | 'expected type' | 'another type';

interface Cell {
  name: string;
  directive: string;
  attribute: string;
  state: State;
  current: Attributes;
  record: ProfileChange;
  /** The exact resulting attributes, or 'rejected'. */
  expected: Attributes | 'rejected';
}

/** Every cell starts from a profile that also holds an unrelated attribute, which must survive untouched. */
const kept = { other: 'kept' } as const;

const table: Cell[] = [
  // urm_set: creates it | replaces | replaces | replaces
  {
    name: 'urm_set creates a missing attribute',
    directive: 'urm_set',
    attribute: 'nickname',
    state: 'missing',
    current: { ...kept },
    record: { urm_set: { nickname: 'Ann' } },
    expected: { ...kept, nickname: 'Ann' },
  },
  {
    name: 'urm_set replaces a null attribute',
    directive: 'urm_set',
    attribute: 'nickname',
    state: 'null',
    current: { ...kept, nickname: null },
    record: { urm_set: { nickname: 'Ann' } },
    expected: { ...kept, nickname: 'Ann' },
  },
  {
    name: 'urm_set replaces a value of the same type',
    directive: 'urm_set',
    attribute: 'nickname',
    state: 'expected type',
    current: { ...kept, nickname: 'Bob' },
    record: { urm_set: { nickname: 'Ann' } },
    expected: { ...kept, nickname: 'Ann' },
  },
  {
    name: 'urm_set replaces a value of another type',
    directive: 'urm_set',
    attribute: 'nickname',
    state: 'another type',
    current: { ...kept, nickname: 42 },
    record: { urm_set: { nickname: 'Ann' } },
    expected: { ...kept, nickname: 'Ann' },
  },
  // urm_set_if_null: creates it | replaces | leaves it | leaves it
  {
    name: 'urm_set_if_null creates a missing attribute',
    directive: 'urm_set_if_null',
    attribute: 'nickname',
    state: 'missing',
    current: { ...kept },
    record: { urm_set_if_null: { nickname: 'Ann' } },
    expected: { ...kept, nickname: 'Ann' },
  },
  {
    name: 'urm_set_if_null replaces a null attribute',
    directive: 'urm_set_if_null',
    attribute: 'nickname',
    state: 'null',
    current: { ...kept, nickname: null },
    record: { urm_set_if_null: { nickname: 'Ann' } },
    expected: { ...kept, nickname: 'Ann' },
  },
  {
    name: 'urm_set_if_null leaves a value of the same type',
    directive: 'urm_set_if_null',
    attribute: 'nickname',
    state: 'expected type',
    current: { ...kept, nickname: 'Bob' },
    record: { urm_set_if_null: { nickname: 'Ann' } },
    expected: { ...kept, nickname: 'Bob' },
  },
  {
    name: 'urm_set_if_null leaves a value of another type',
    directive: 'urm_set_if_null',
    attribute: 'nickname',
    state: 'another type',
    current: { ...kept, nickname: 42 },
    record: { urm_set_if_null: { nickname: 'Ann' } },
    expected: { ...kept, nickname: 42 },
  },
  // urm_add (number): starts from 0 | starts from 0 | adds | record rejected
  {
    name: 'urm_add starts from 0 on a missing attribute',
    directive: 'urm_add',
    attribute: 'score',
    state: 'missing',
    current: { ...kept },
    record: { urm_add: { score: 5 } },
    expected: { ...kept, score: 5 },
  },
  {
    name: 'urm_add starts from 0 on a null attribute',
    directive: 'urm_add',
    attribute: 'score',
    state: 'null',
    current: { ...kept, score: null },
    record: { urm_add: { score: 5 } },
    expected: { ...kept, score: 5 },
  },
  {
    name: 'urm_add adds to a number',
    directive: 'urm_add',
    attribute: 'score',
    state: 'expected type',
    current: { ...kept, score: 10 },
    record: { urm_add: { score: 5 } },
    expected: { ...kept, score: 15 },
  },
  {
    name: 'urm_add rejects the record when the attribute is a string',
    directive: 'urm_add',
    attribute: 'score',
    state: 'another type',
    current: { ...kept, score: 'ten' },
    record: { urm_add: { score: 5 } },
    expected: 'rejected',
  },
  // urm_append (array): creates the array | creates the array | appends | record rejected
  {
    name: 'urm_append creates the array on a missing attribute',
    directive: 'urm_append',
    attribute: 'tags',
    state: 'missing',
    current: { ...kept },
    record: { urm_append: { tags: ['a', 'b'] } },
    expected: { ...kept, tags: ['a', 'b'] },
  },
  {
    name: 'urm_append creates the array on a null attribute',
    directive: 'urm_append',
    attribute: 'tags',
    state: 'null',
    current: { ...kept, tags: null },
    record: { urm_append: { tags: ['a', 'b'] } },
    expected: { ...kept, tags: ['a', 'b'] },
  },
  {
    name: 'urm_append appends to an array',
    directive: 'urm_append',
    attribute: 'tags',
    state: 'expected type',
    current: { ...kept, tags: ['x', 'a'] },
    record: { urm_append: { tags: ['a', 'b'] } },
    expected: { ...kept, tags: ['x', 'a', 'a', 'b'] },
  },
  {
    name: 'urm_append rejects the record when the attribute is a string',
    directive: 'urm_append',
    attribute: 'tags',
    state: 'another type',
    current: { ...kept, tags: 'x' },
    record: { urm_append: { tags: ['a'] } },
    expected: 'rejected',
  },
  // urm_unique_append (array): creates the array | creates the array | appends | record rejected
  {
    name: 'urm_unique_append creates the array on a missing attribute',
    directive: 'urm_unique_append',
    attribute: 'tags',
    state: 'missing',
    current: { ...kept },
    record: { urm_unique_append: { tags: ['a', 'b'] } },
    expected: { ...kept, tags: ['a', 'b'] },
  },
  {
    name: 'urm_unique_append creates the array on a null attribute',
    directive: 'urm_unique_append',
    attribute: 'tags',
    state: 'null',
    current: { ...kept, tags: null },
    record: { urm_unique_append: { tags: ['a', 'b'] } },
    expected: { ...kept, tags: ['a', 'b'] },
  },
  {
    name: 'urm_unique_append appends only the values an array does not hold yet',
    directive: 'urm_unique_append',
    attribute: 'tags',
    state: 'expected type',
    current: { ...kept, tags: ['x', 'a'] },
    record: { urm_unique_append: { tags: ['a', 'b'] } },
    expected: { ...kept, tags: ['x', 'a', 'b'] },
  },
  {
    name: 'urm_unique_append rejects the record when the attribute is a number',
    directive: 'urm_unique_append',
    attribute: 'tags',
    state: 'another type',
    current: { ...kept, tags: 7 },
    record: { urm_unique_append: { tags: ['a'] } },
    expected: 'rejected',
  },
  // urm_remove (array): no-op | no-op | removes the values | record rejected
  {
    name: 'urm_remove leaves a missing attribute missing',
    directive: 'urm_remove',
    attribute: 'tags',
    state: 'missing',
    current: { ...kept },
    record: { urm_remove: { tags: ['a'] } },
    expected: { ...kept },
  },
  {
    name: 'urm_remove leaves a null attribute null',
    directive: 'urm_remove',
    attribute: 'tags',
    state: 'null',
    current: { ...kept, tags: null },
    record: { urm_remove: { tags: ['a'] } },
    expected: { ...kept, tags: null },
  },
  {
    name: 'urm_remove removes every occurrence of the values from an array',
    directive: 'urm_remove',
    attribute: 'tags',
    state: 'expected type',
    current: { ...kept, tags: ['a', 'b', 'a', 'c', 'd'] },
    record: { urm_remove: { tags: ['a', 'c', 'absent'] } },
    expected: { ...kept, tags: ['b', 'd'] },
  },
  {
    name: 'urm_remove rejects the record when the attribute is a string',
    directive: 'urm_remove',
    attribute: 'tags',
    state: 'another type',
    current: { ...kept, tags: 'a' },
    record: { urm_remove: { tags: ['a'] } },
    expected: 'rejected',
  },
  // urm_unset: creates it as null | stays null | sets null | sets null
  {
    name: 'urm_unset creates a missing attribute as null',
    directive: 'urm_unset',
    attribute: 'nickname',
    state: 'missing',
    current: { ...kept },
    record: { urm_unset: ['nickname'] },
    expected: { ...kept, nickname: null },
  },
  {
    name: 'urm_unset leaves a null attribute null',
    directive: 'urm_unset',
    attribute: 'nickname',
    state: 'null',
    current: { ...kept, nickname: null },
    record: { urm_unset: ['nickname'] },
    expected: { ...kept, nickname: null },
  },
  {
    name: 'urm_unset sets a string attribute to null',
    directive: 'urm_unset',
    attribute: 'nickname',
    state: 'expected type',
    current: { ...kept, nickname: 'Bob' },
    record: { urm_unset: ['nickname'] },
    expected: { ...kept, nickname: null },
  },
  {
    name: 'urm_unset sets an array attribute to null',
    directive: 'urm_unset',
    attribute: 'nickname',
    state: 'another type',
    current: { ...kept, nickname: ['Bob'] },
    record: { urm_unset: ['nickname'] },
    expected: { ...kept, nickname: null },
  },
  // urm_delete: no-op | removes it | removes it | removes it
  {
    name: 'urm_delete of a missing attribute changes nothing',
    directive: 'urm_delete',
    attribute: 'nickname',
    state: 'missing',
    current: { ...kept },
    record: { urm_delete: ['nickname'] },
    expected: { ...kept },
  },
  {
    name: 'urm_delete removes a null attribute',
    directive: 'urm_delete',
    attribute: 'nickname',
    state: 'null',
    current: { ...kept, nickname: null },
    record: { urm_delete: ['nickname'] },
    expected: { ...kept },
  },
  {
    name: 'urm_delete removes a string attribute',
    directive: 'urm_delete',
    attribute: 'nickname',
    state: 'expected type',
    current: { ...kept, nickname: 'Bob' },
    record: { urm_delete: ['nickname'] },
    expected: { ...kept },
  },
  {
    name: 'urm_delete removes a number attribute',
    directive: 'urm_delete',
    attribute: 'nickname',
    state: 'another type',
    current: { ...kept, nickname: 42 },
    record: { urm_delete: ['nickname'] },
    expected: { ...kept },
  },
];

describe('directive engine: the directive table of docs/api.md', () => {
  for (const directive of ['urm_set', 'urm_set_if_null', 'urm_add', 'urm_append', 'urm_unique_append', 'urm_remove', 'urm_unset', 'urm_delete']) {
    describe(directive, () => {
      const cells = table.filter((cell) => cell.directive === directive);
      test('has a test for each of the four states of the attribute', () => {
        expect(cells.map((cell) => cell.state)).toEqual(['missing', 'null', 'expected type', 'another type']);
      });
      for (const cell of cells) {
        test(cell.name, () => {
          const current = deepFreeze(structuredClone(cell.current));

          if (cell.expected === 'rejected') {
            const reason = rejection(current, cell.record);
            assertNamesDirectiveAndAttribute(reason, cell.directive, cell.attribute);
          } else {
            expect(applied(current, cell.record)).toEqual(cell.expected);
          }
        });
      }
    });
  }

  describe('other types that the typed directives reject', () => {
    const cases: [string, Attributes, ProfileChange, string, string][] = [
      ['urm_add rejects the record when the attribute is a boolean', { score: true }, { urm_add: { score: 1 } }, 'urm_add', 'score'],
      ['urm_add rejects the record when the attribute is an array', { score: [1] }, { urm_add: { score: 1 } }, 'urm_add', 'score'],
      ['urm_append rejects the record when the attribute is a boolean', { tags: false }, { urm_append: { tags: [1] } }, 'urm_append', 'tags'],
      [
        'urm_unique_append rejects the record when the attribute is a string',
        { tags: 'a' },
        { urm_unique_append: { tags: ['a'] } },
        'urm_unique_append',
        'tags',
      ],
      ['urm_remove rejects the record when the attribute is a number', { tags: 0 }, { urm_remove: { tags: [0] } }, 'urm_remove', 'tags'],
    ];
    for (const [name, current, record, directive, attribute] of cases) {
      test(name, () => {
        const reason = rejection(current, record);

        assertNamesDirectiveAndAttribute(reason, directive, attribute);
      });
    }
  });
});

// ---- 2. top-level attributes and the order of application -------------------------

describe('directive engine: top-level attributes', () => {
  const cases: [string, Attributes, Attributes][] = [
    ['a top-level attribute creates a missing attribute', {}, { plan: 'gold' }],
    ['a top-level attribute replaces a null attribute', { plan: null }, { plan: 'gold' }],
    ['a top-level attribute replaces a value of the same type', { plan: 'silver' }, { plan: 'gold' }],
    ['a top-level attribute replaces a value of another type', { plan: [1, 2] }, { plan: 'gold' }],
  ];
  for (const [name, current, expected] of cases) {
    test(name, () => {
      expect(applied(current, { plan: 'gold' })).toEqual(expected);
    });
  }

  test('the record fields app_id, profile_id, urm_date_time, urm_insert_id, urm_ip and urm_delete_profile are not attributes', () => {
    const record: ProfileChange = {
      app_id: 'app',
      profile_id: 'p1',
      urm_date_time: '2024-05-01T10:00:00Z',
      urm_insert_id: 'i-1',
      urm_ip: '192.0.2.1',
      urm_delete_profile: 'profile_id',
      plan: 'gold',
    };

    expect(applied({}, record)).toEqual({ plan: 'gold' });
  });

  test('a top-level attribute holding an array is set as that array', () => {
    expect(applied({ tags: ['old'] }, { tags: ['a', ['b']] })).toEqual({ tags: ['a', ['b']] });
  });
});

describe('directive engine: order within one record', () => {
  test('urm_set runs after the top-level attributes', () => {
    expect(applied({}, { plan: 'silver', urm_set: { plan: 'gold' } })).toEqual({ plan: 'gold' });
  });

  test('urm_set_if_null leaves a value the same record sets at the top level', () => {
    expect(applied({}, { plan: 'gold', urm_set_if_null: { plan: 'free' } })).toEqual({ plan: 'gold' });
  });

  test('urm_set_if_null leaves a value the same record sets with urm_set', () => {
    expect(applied({ plan: null }, { urm_set: { plan: 'gold' }, urm_set_if_null: { plan: 'free' } })).toEqual({ plan: 'gold' });
  });

  test('urm_add adds to the value urm_set_if_null just created', () => {
    expect(applied({}, { urm_add: { score: 1 }, urm_set_if_null: { score: 10 } })).toEqual({ score: 11 });
  });

  test('urm_append runs after urm_add, so it is the append that finds a number and is rejected', () => {
    const reason = rejection({ x: null }, { urm_append: { x: [1] }, urm_add: { x: 1 } });

    assertNamesDirectiveAndAttribute(reason, 'urm_append', 'x');
  });

  test('urm_unique_append runs after urm_append and does not add what urm_append just added', () => {
    expect(applied({}, { urm_unique_append: { tags: ['a', 'b'] }, urm_append: { tags: ['a', 'a'] } })).toEqual({
      tags: ['a', 'a', 'b'],
    });
  });

  test('urm_remove runs after urm_unique_append and removes what it just added', () => {
    expect(applied({ tags: ['x'] }, { urm_remove: { tags: ['a'] }, urm_unique_append: { tags: ['a'] } })).toEqual({ tags: ['x'] });
  });

  test('urm_unset runs after urm_remove, so urm_remove still finds the string and rejects the record', () => {
    const reason = rejection({ tags: 'a' }, { urm_unset: ['tags'], urm_remove: { tags: ['a'] } });

    assertNamesDirectiveAndAttribute(reason, 'urm_remove', 'tags');
  });

  test('urm_unset runs after urm_add and leaves null', () => {
    expect(applied({ score: 1 }, { urm_unset: ['score'], urm_add: { score: 1 } })).toEqual({ score: null });
  });

  test('urm_delete runs after urm_unset and leaves the attribute missing', () => {
    expect(applied({ a: 1, b: 2 }, { urm_delete: ['a'], urm_unset: ['a'] })).toEqual({ b: 2 });
  });

  test('urm_delete of an attribute, then urm_merge copies it from the source since the target no longer has it', () => {
    const sources = sourcesOf({ visitor: { plan: 'from visitor' } });

    expect(applied({ plan: 'mine' }, { urm_merge: ['visitor'], urm_delete: ['plan'] }, sources)).toEqual({ plan: 'from visitor' });
  });

  test("urm_unset of an attribute, then urm_merge leaves it null since a null is the target's own", () => {
    const sources = sourcesOf({ visitor: { plan: 'from visitor' } });

    expect(applied({ plan: 'mine' }, { urm_merge: ['visitor'], urm_unset: ['plan'] }, sources)).toEqual({ plan: null });
  });

  test('urm_remove runs before urm_merge, so a merged array keeps the values the record removes', () => {
    const sources = sourcesOf({ visitor: { tags: ['a', 'b'] } });

    expect(applied({}, { urm_merge: ['visitor'], urm_remove: { tags: ['a'] } }, sources)).toEqual({ tags: ['a', 'b'] });
  });
});

// ---- 3. exact decimal arithmetic ------------------------------------------------

describe('directive engine: urm_add is exact decimal arithmetic', () => {
  test('urm_add of 0.1 then 0.2 gives 0.3', () => {
    const afterFirst = applied({}, { urm_add: { balance: 0.1 } });

    const afterSecond = applied(afterFirst, { urm_add: { balance: 0.2 } });

    expect(afterSecond).toEqual({ balance: 0.3 });
  });

  test('urm_add of 0.2 to a stored 0.1 gives 0.3', () => {
    expect(applied({ balance: 0.1 }, { urm_add: { balance: 0.2 } })).toEqual({ balance: 0.3 });
  });

  test('urm_add of a negative amount subtracts', () => {
    expect(applied({ balance: 10 }, { urm_add: { balance: -2.5 } })).toEqual({ balance: 7.5 });
  });

  test('urm_add of -0.1 to 0.3 gives exactly 0.2', () => {
    expect(applied({ balance: 0.3 }, { urm_add: { balance: -0.1 } })).toEqual({ balance: 0.2 });
  });

  test('urm_add may take a number below zero', () => {
    expect(applied({ balance: 1 }, { urm_add: { balance: -3 } })).toEqual({ balance: -2 });
  });

  test('urm_add of a negative amount on a missing attribute starts from 0', () => {
    expect(applied({}, { urm_add: { balance: -0.7 } })).toEqual({ balance: -0.7 });
  });

  test('urm_add of 1e-7 to 2e-7 gives 3e-7', () => {
    expect(applied({ tiny: 2e-7 }, { urm_add: { tiny: 1e-7 } })).toEqual({ tiny: 3e-7 });
  });

  test('urm_add of 1e21 to 1e21 gives 2e21', () => {
    expect(applied({ big: 1e21 }, { urm_add: { big: 1e21 } })).toEqual({ big: 2e21 });
  });

  test('urm_add of 1 to 1e21 gives the nearest number, 1e21', () => {
    expect(applied({ big: 1e21 }, { urm_add: { big: 1 } })).toEqual({ big: 1e21 });
  });

  test('urm_add of 1.5e21 to -1e21 gives 5e20', () => {
    expect(applied({ big: -1e21 }, { urm_add: { big: 1.5e21 } })).toEqual({ big: 5e20 });
  });

  test('urm_add of 1 to 9007199254740990 gives 9007199254740991', () => {
    expect(applied({ count: 9007199254740990 }, { urm_add: { count: 1 } })).toEqual({ count: 9007199254740991 });
  });

  test('urm_add of 0.000001 to 123456789.123456 gives 123456789.123457', () => {
    expect(applied({ amount: 123456789.123456 }, { urm_add: { amount: 0.000001 } })).toEqual({ amount: 123456789.123457 });
  });

  // Attribute values are finite numbers (attributes.ts) and are stored as JSON
  // (profile-state.ts), where Infinity becomes null: an overflowing sum must not be stored.
  test('urm_add rejects a sum beyond the range of a number instead of storing Infinity', () => {
    const result = applyProfileRecord({ big: 1e308 }, { urm_add: { big: 1e308 } });

    expect(result).toEqual({ rejected: expect.stringMatching(/urm_add .*big/) });
  });

  test('urm_add rounds the exact sum once, even past 17 significant digits', () => {
    const result = applyProfileRecord({ n: 9007199254740992 }, { urm_add: { n: 1.0000000000000002 } });

    expect(result).toEqual({ attributes: { n: 9007199254740994 } });
  });
});

// ---- 4. deep equality in urm_unique_append and urm_remove ---------------------------

describe('directive engine: urm_unique_append and urm_remove compare by deep equality', () => {
  test('urm_unique_append does not add a nested array the attribute already holds', () => {
    expect(applied({ v: [[1, [2, 'x']], 3] }, { urm_unique_append: { v: [[1, [2, 'x']]] } })).toEqual({ v: [[1, [2, 'x']], 3] });
  });

  test('urm_unique_append adds a nested array that differs only deep inside', () => {
    expect(applied({ v: [[1, [2]]] }, { urm_unique_append: { v: [[1, [3]]] } })).toEqual({
      v: [
        [1, [2]],
        [1, [3]],
      ],
    });
  });

  test('urm_unique_append treats the number 1 and the string "1" as distinct', () => {
    expect(applied({ v: [1] }, { urm_unique_append: { v: ['1', 1] } })).toEqual({ v: [1, '1'] });
  });

  test('urm_unique_append treats true and "true" as distinct', () => {
    expect(applied({ v: [true] }, { urm_unique_append: { v: ['true', true] } })).toEqual({ v: [true, 'true'] });
  });

  test('urm_unique_append does not add duplicates present in the appended list itself', () => {
    expect(applied({}, { urm_unique_append: { v: ['a', 'a', ['b'], ['b'], 1, 1] } })).toEqual({ v: ['a', ['b'], 1] });
  });

  test('urm_unique_append keeps duplicates the attribute already held', () => {
    expect(applied({ v: ['a', 'a'] }, { urm_unique_append: { v: ['b'] } })).toEqual({ v: ['a', 'a', 'b'] });
  });

  test('urm_append keeps duplicates, in the appended list and with the attribute', () => {
    expect(applied({ v: ['a'] }, { urm_append: { v: ['a', 'a'] } })).toEqual({ v: ['a', 'a', 'a'] });
  });

  test('urm_remove removes a nested array by deep equality', () => {
    expect(applied({ v: [[1, 2], [1, [2]], 3] }, { urm_remove: { v: [[1, [2]]] } })).toEqual({ v: [[1, 2], 3] });
  });

  test('urm_remove of the string "1" leaves the number 1', () => {
    expect(applied({ v: [1, '1', 2] }, { urm_remove: { v: ['1'] } })).toEqual({ v: [1, 2] });
  });

  test('urm_remove of the number 1 leaves the string "1"', () => {
    expect(applied({ v: [1, '1', 2] }, { urm_remove: { v: [1] } })).toEqual({ v: ['1', 2] });
  });

  test('urm_remove treats arrays with the same items in another order as distinct', () => {
    expect(
      applied(
        {
          v: [
            [1, 2],
            [2, 1],
          ],
        },
        { urm_remove: { v: [[2, 1]] } },
      ),
    ).toEqual({ v: [[1, 2]] });
  });

  test('urm_remove of every value leaves an empty array', () => {
    expect(applied({ v: ['a', 'b'] }, { urm_remove: { v: ['b', 'a'] } })).toEqual({ v: [] });
  });
});

// ---- 5. a rejected record changes nothing; inputs are never mutated ---------------------

describe('directive engine: a record applies whole or not at all', () => {
  const everyDirective = (): ProfileChange => ({
    plan: 'gold',
    urm_set: { name: 'Ann', list: ['n'] },
    urm_set_if_null: { city: 'Oslo' },
    urm_add: { score: 2.5 },
    urm_append: { tags: ['b'] },
    urm_unique_append: { seen: [['x'], 'y'] },
    urm_remove: { drop: ['gone'] },
    urm_unset: ['nickname'],
    urm_delete: ['old'],
    urm_merge: ['visitor', 'ghost'],
  });
  const profile = (): Attributes => ({
    score: 1,
    tags: ['a'],
    seen: [['x']],
    drop: ['gone', 'stays'],
    nickname: 'Bo',
    old: true,
    urm_web_push_notification_token: ['t1'],
  });
  const visitor = (): MergeSources => sourcesOf({ visitor: { visits: 3, tags: ['v'], urm_web_push_notification_token: ['t2'] } });

  test('applying a record with every directive does not mutate the profile, the record or the sources', () => {
    const current = profile();
    const record = everyDirective();
    const sources = visitor();
    const before = structuredClone({ current, record, sources });
    deepFreeze(current);
    deepFreeze(record);
    deepFreeze(sources);

    const attributes = applied(current, record, sources);

    expect({ current, record, sources }).toEqual(before);
    expect(attributes).toEqual({
      score: 3.5,
      tags: ['a', 'b'],
      seen: [['x'], 'y'],
      drop: ['stays'],
      nickname: null,
      urm_web_push_notification_token: ['t1', 't2'],
      plan: 'gold',
      name: 'Ann',
      list: ['n'],
      city: 'Oslo',
      visits: 3,
    });
  });

  test('applying a record returns a new object even when nothing changes', () => {
    const current = deepFreeze({ a: 1 });

    const attributes = applied(current, {});

    expect(attributes).not.toBe(current);
    expect(attributes).toEqual({ a: 1 });
  });

  test('a rejected record does not mutate the profile, the record or the sources', () => {
    const current: Attributes = { ...profile(), score: 'not a number' };
    const record = everyDirective();
    const sources = visitor();
    const before = structuredClone({ current, record, sources });
    deepFreeze(current);
    deepFreeze(record);
    deepFreeze(sources);

    rejection(current, record, sources);

    expect({ current, record, sources }).toEqual(before);
  });

  test('a record whose urm_add is rejected returns only the reason, none of its valid directives', () => {
    const current: Attributes = { ...profile(), score: 'not a number' };

    const result = applyProfileRecord(current, everyDirective(), visitor());

    expect(Object.keys(result)).toEqual(['rejected']);
    assertNamesDirectiveAndAttribute((result as { rejected: string }).rejected, 'urm_add', 'score');
  });

  test('a record whose last typed directive, urm_remove, is rejected returns only the reason after earlier directives ran', () => {
    const current: Attributes = { ...profile(), drop: 'a string' };

    const result = applyProfileRecord(current, everyDirective(), visitor());

    expect(Object.keys(result)).toEqual(['rejected']);
    assertNamesDirectiveAndAttribute((result as { rejected: string }).rejected, 'urm_remove', 'drop');
  });

  test('after a rejection the same profile still applies a valid record as if nothing had happened', () => {
    const current = deepFreeze<Attributes>({ score: 'x', tags: ['a'] });
    rejection(current, { urm_append: { tags: ['b'] }, urm_add: { score: 1 } });

    const attributes = applied(current, { urm_append: { tags: ['b'] } });

    expect(attributes).toEqual({ score: 'x', tags: ['a', 'b'] });
  });
});

// ---- 6. urm_merge ------------------------------------------------------------------

describe('directive engine: urm_merge', () => {
  test('urm_merge copies only the attributes the target does not have', () => {
    const sources = sourcesOf({ s1: { plan: 'theirs', city: 'Oslo' } });

    expect(applied({ plan: 'mine' }, { urm_merge: ['s1'] }, sources)).toEqual({ plan: 'mine', city: 'Oslo' });
  });

  test("urm_merge keeps a null the target holds, since it is the target's own", () => {
    const sources = sourcesOf({ s1: { plan: 'theirs' } });

    expect(applied({ plan: null }, { urm_merge: ['s1'] }, sources)).toEqual({ plan: null });
  });

  test('urm_merge copies a null the source holds when the target lacks the attribute', () => {
    const sources = sourcesOf({ s1: { plan: null } });

    expect(applied({}, { urm_merge: ['s1'] }, sources)).toEqual({ plan: null });
  });

  test("urm_merge keeps the target's value even when the source holds another type", () => {
    const sources = sourcesOf({ s1: { score: 'high', tags: 'a' } });

    expect(applied({ score: 3, tags: ['b'] }, { urm_merge: ['s1'] }, sources)).toEqual({ score: 3, tags: ['b'] });
  });

  test('urm_merge takes sources in the order the record gives them, so the first source wins', () => {
    // The map's order is the opposite of the record's: the record's order must count.
    const sources = sourcesOf({ s2: { plan: 'second', b: 2 }, s1: { plan: 'first', a: 1 } });

    expect(applied({}, { urm_merge: ['s1', 's2'] }, sources)).toEqual({ plan: 'first', a: 1, b: 2 });
  });

  test('urm_merge with the sources in the other order lets the other source win', () => {
    const sources = sourcesOf({ s2: { plan: 'second', b: 2 }, s1: { plan: 'first', a: 1 } });

    expect(applied({}, { urm_merge: ['s2', 's1'] }, sources)).toEqual({ plan: 'second', a: 1, b: 2 });
  });

  test('urm_merge skips a source that is missing', () => {
    const sources = sourcesOf({ s1: { city: 'Oslo' } });

    expect(applied({ a: 1 }, { urm_merge: ['ghost', 's1'] }, sources)).toEqual({ a: 1, city: 'Oslo' });
  });

  test('urm_merge of only missing sources changes nothing', () => {
    expect(applied({ a: 1 }, { urm_merge: ['ghost'] })).toEqual({ a: 1 });
  });

  test('urm_merge of an empty source changes nothing', () => {
    expect(applied({ a: 1 }, { urm_merge: ['s1'] }, sourcesOf({ s1: {} }))).toEqual({ a: 1 });
  });

  for (const token of pushTokenAttributes) {
    test(`urm_merge unions ${token} without duplicates`, () => {
      const sources = sourcesOf({ s1: { [token]: ['t2', 't3'] } });

      expect(applied({ [token]: ['t1', 't2'] }, { urm_merge: ['s1'] }, sources)).toEqual({ [token]: ['t1', 't2', 't3'] });
    });
  }

  test("urm_merge gives the target the source's push tokens when it has none", () => {
    const sources = sourcesOf({ s1: { urm_ios_push_notification_token: ['t1'] } });

    expect(applied({ a: 1 }, { urm_merge: ['s1'] }, sources)).toEqual({ a: 1, urm_ios_push_notification_token: ['t1'] });
  });

  test('urm_merge unions push tokens across several sources in order, without duplicates', () => {
    const sources = sourcesOf({
      s1: { urm_web_push_notification_token: ['t2', 't2'] },
      s2: { urm_web_push_notification_token: ['t1', 't3', 't2'] },
    });

    const attributes = applied({ urm_web_push_notification_token: ['t1'] }, { urm_merge: ['s1', 's2'] }, sources);

    expect(attributes).toEqual({ urm_web_push_notification_token: ['t1', 't2', 't3'] });
  });

  test('urm_merge unions each kind of push token separately', () => {
    const sources = sourcesOf({
      s1: { urm_web_push_notification_token: ['w2'], urm_android_push_notification_token: ['a1'] },
    });

    const attributes = applied({ urm_web_push_notification_token: ['w1'], urm_ios_push_notification_token: ['i1'] }, { urm_merge: ['s1'] }, sources);

    expect(attributes).toEqual({
      urm_web_push_notification_token: ['w1', 'w2'],
      urm_ios_push_notification_token: ['i1'],
      urm_android_push_notification_token: ['a1'],
    });
  });

  test('urm_merge does not union other array attributes', () => {
    const sources = sourcesOf({ s1: { tags: ['b'] } });

    expect(applied({ tags: ['a'] }, { urm_merge: ['s1'] }, sources)).toEqual({ tags: ['a'] });
  });
});

// ---- 7. each directive combined with urm_merge; prototype safety -------------------------

describe('directive engine: each directive with urm_merge', () => {
  const sources = () => sourcesOf({ visitor: { x: 'from visitor', tags: ['v'], score: 100, visits: 3 } });

  test("a top-level attribute and urm_merge: the record's value wins and the rest is copied", () => {
    expect(applied({}, { x: 'mine', urm_merge: ['visitor'] }, sources())).toEqual({ x: 'mine', tags: ['v'], score: 100, visits: 3 });
  });

  test('urm_set and urm_merge: the set value wins and the rest is copied', () => {
    expect(applied({}, { urm_set: { x: 'mine' }, urm_merge: ['visitor'] }, sources())).toEqual({
      x: 'mine',
      tags: ['v'],
      score: 100,
      visits: 3,
    });
  });

  test('urm_set_if_null and urm_merge: the value created by urm_set_if_null wins and the rest is copied', () => {
    expect(applied({ x: null }, { urm_set_if_null: { x: 'mine' }, urm_merge: ['visitor'] }, sources())).toEqual({
      x: 'mine',
      tags: ['v'],
      score: 100,
      visits: 3,
    });
  });

  test("urm_add and urm_merge: the sum wins over the source's number and the rest is copied", () => {
    expect(applied({}, { urm_add: { score: 5 }, urm_merge: ['visitor'] }, sources())).toEqual({
      score: 5,
      x: 'from visitor',
      tags: ['v'],
      visits: 3,
    });
  });

  test("urm_append and urm_merge: the appended array wins over the source's array and the rest is copied", () => {
    expect(applied({ tags: ['a'] }, { urm_append: { tags: ['a'] }, urm_merge: ['visitor'] }, sources())).toEqual({
      tags: ['a', 'a'],
      x: 'from visitor',
      score: 100,
      visits: 3,
    });
  });

  test("urm_unique_append and urm_merge: the appended array wins over the source's array and the rest is copied", () => {
    expect(applied({ tags: ['a'] }, { urm_unique_append: { tags: ['a', 'b'] }, urm_merge: ['visitor'] }, sources())).toEqual({
      tags: ['a', 'b'],
      x: 'from visitor',
      score: 100,
      visits: 3,
    });
  });

  test('urm_remove and urm_merge: the array the values were removed from wins and the rest is copied', () => {
    expect(applied({ tags: ['a', 'b'] }, { urm_remove: { tags: ['a'] }, urm_merge: ['visitor'] }, sources())).toEqual({
      tags: ['b'],
      x: 'from visitor',
      score: 100,
      visits: 3,
    });
  });

  test('urm_unset and urm_merge: the null wins and the rest is copied', () => {
    expect(applied({ x: 'mine' }, { urm_unset: ['x'], urm_merge: ['visitor'] }, sources())).toEqual({
      x: null,
      tags: ['v'],
      score: 100,
      visits: 3,
    });
  });

  test('urm_delete and urm_merge: a deleted attribute the source lacks is gone, one it has is copied', () => {
    expect(applied({ x: 'mine', gone: true }, { urm_delete: ['x', 'gone'], urm_merge: ['visitor'] }, sources())).toEqual({
      x: 'from visitor',
      tags: ['v'],
      score: 100,
      visits: 3,
    });
  });

  test("urm_set of a push token and urm_merge: the set tokens and the source's tokens are unioned", () => {
    const tokens = sourcesOf({ visitor: { urm_web_push_notification_token: ['t2', 't1'] } });

    const attributes = applied({}, { urm_set: { urm_web_push_notification_token: ['t1'] }, urm_merge: ['visitor'] }, tokens);

    expect(attributes).toEqual({ urm_web_push_notification_token: ['t1', 't2'] });
  });
});

describe('directive engine: attribute names that exist on Object.prototype are just attributes', () => {
  test('urm_set of "constructor" and "toString" sets plain attributes', () => {
    const attributes = applied({}, { urm_set: { constructor: 'c', toString: 't' } });

    expect(attributes).toEqual({ constructor: 'c', toString: 't' });
    expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
  });

  test('a top-level "constructor" is set like any attribute', () => {
    expect(applied({}, { constructor: 'c' })).toEqual({ constructor: 'c' });
  });

  test('urm_set_if_null creates a missing "constructor"', () => {
    expect(applied({}, { urm_set_if_null: { constructor: 'c' } })).toEqual({ constructor: 'c' });
  });

  test('urm_add starts from 0 on a missing "constructor"', () => {
    expect(applied({}, { urm_add: { constructor: 2 } })).toEqual({ constructor: 2 });
  });

  test('urm_add starts from 0 on a missing "toString"', () => {
    expect(applied({}, { urm_add: { toString: 2 } })).toEqual({ toString: 2 });
  });

  test('urm_append creates the array on a missing "toString"', () => {
    expect(applied({}, { urm_append: { toString: ['a'] } })).toEqual({ toString: ['a'] });
  });

  test('urm_unique_append creates the array on a missing "valueOf"', () => {
    expect(applied({}, { urm_unique_append: { valueOf: ['a', 'a'] } })).toEqual({ valueOf: ['a'] });
  });

  test('urm_remove on a missing "toString" leaves it missing', () => {
    const attributes = applied({}, { urm_remove: { toString: ['a'] } });

    expect(attributes).toEqual({});
    expect(Object.hasOwn(attributes, 'toString')).toBe(false);
  });

  test('urm_unset creates a missing "constructor" as null', () => {
    expect(applied({}, { urm_unset: ['constructor'] })).toEqual({ constructor: null });
  });

  test('urm_delete removes a stored "toString" and leaves Object.prototype alone', () => {
    const attributes = applied({ toString: 't', a: 1 }, { urm_delete: ['toString'] });

    expect(attributes).toEqual({ a: 1 });
    expect(typeof Object.prototype.toString).toBe('function');
  });

  test('urm_merge copies "constructor" and "toString" the target lacks', () => {
    const sources = sourcesOf({ s1: { constructor: 'c', toString: ['t'] } });

    expect(applied({}, { urm_merge: ['s1'] }, sources)).toEqual({ constructor: 'c', toString: ['t'] });
  });

  test('a "__proto__" key parsed from JSON becomes an own attribute and does not change any prototype', () => {
    const record = JSON.parse('{"urm_set":{"__proto__":"x"}}') as ProfileChange;

    const attributes = applied({}, record);

    expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
    expect(Object.hasOwn(attributes, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(attributes, '__proto__')?.value).toBe('x');
    expect(({} as Record<string, unknown>).x).toBe(undefined);
  });
});

// ---- 8. properties ---------------------------------------------------------------

const names = fc.oneof(fc.constantFrom('a', 'b', 'c', 'constructor', 'toString', 'valueOf'), fc.string({ minLength: 1, maxLength: 3 }));
const scalar: fc.Arbitrary<AttributeValue> = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -100, max: 100 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
);
const value: fc.Arbitrary<AttributeValue> = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.array(fc.array(scalar, { maxLength: 2 }), { maxLength: 2 }),
);
const nullable = fc.option(value, { nil: null, freq: 4 });
const attributesArb = fc.dictionary(names, nullable, { maxKeys: 6, noNullPrototype: true });
const dictOf = <T>(arb: fc.Arbitrary<T>) => fc.dictionary(names, arb, { maxKeys: 3, noNullPrototype: true });
const sourceIds = ['s0', 's1', 's2', 'ghost'];
const sourcesArb = fc.array(attributesArb, { maxLength: 3 }).map((list): MergeSources => new Map(list.map((attributes, i) => [`s${i}`, attributes])));
const recordArb: fc.Arbitrary<ProfileChange> = fc
  .tuple(
    dictOf(value),
    fc.record(
      {
        urm_set: dictOf(value),
        urm_set_if_null: dictOf(value),
        urm_add: dictOf(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })),
        urm_append: dictOf(fc.array(value, { maxLength: 3 })),
        urm_unique_append: dictOf(fc.array(value, { maxLength: 3 })),
        urm_remove: dictOf(fc.array(value, { maxLength: 3 })),
        urm_unset: fc.array(names, { maxLength: 3 }),
        urm_delete: fc.array(names, { maxLength: 3 }),
        urm_merge: fc.array(fc.constantFrom(...sourceIds), { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: [] },
    ),
  )
  .map(([topLevel, directives]) => ({ ...topLevel, ...directives }));

/** A decimal with at most 6 fraction digits and at most 15 significant digits, so a double holds it exactly. */
const decimal = fc
  .integer({ min: 0, max: 6 })
  .chain((scale) => fc.integer({ min: -(10 ** (8 + scale)) + 1, max: 10 ** (8 + scale) - 1 }).map((n) => new Decimal(n).div(10 ** scale).toNumber()));

describe('directive engine: properties', () => {
  test('urm_merge never changes an attribute the target already has', () => {
    fc.assert(
      fc.property(attributesArb, sourcesArb, fc.array(fc.constantFrom(...sourceIds), { minLength: 1, maxLength: 4 }), (target, sources, ids) => {
        const attributes = applied(target, { urm_merge: ids }, sources);

        for (const name of Object.keys(target)) expect(attributes[name]).toEqual(target[name]);
      }),
      { numRuns: 200 },
    );
  });

  test('applying a record never mutates the profile, the record or the sources', () => {
    fc.assert(
      fc.property(attributesArb, recordArb, sourcesArb, (current, record, sources) => {
        const before = structuredClone({ current, record, sources });

        applyProfileRecord(current, record, sources);

        expect({ current, record, sources }).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });

  test('urm_unique_append applied twice gives the same attributes as applied once', () => {
    const arrayProfile = fc.dictionary(names, fc.option(fc.array(value, { maxLength: 4 }), { nil: null }), {
      maxKeys: 4,
      noNullPrototype: true,
    });
    fc.assert(
      fc.property(arrayProfile, dictOf(fc.array(value, { maxLength: 4 })), (current, items) => {
        const record = { urm_unique_append: items };
        const once = applied(current, record);

        const twice = applied(once, record);

        expect(twice).toEqual(once);
      }),
      { numRuns: 200 },
    );
  });

  test('urm_set then urm_unset leaves the attribute null and the others as they were', () => {
    fc.assert(
      fc.property(attributesArb, names, value, (current, name, newValue) => {
        const afterSet = applied(current, { urm_set: { [name]: newValue } });

        const afterUnset = applied(afterSet, { urm_unset: [name] });

        expect(Object.hasOwn(afterUnset, name)).toBe(true);
        expect(afterUnset[name]).toBe(null);
        const { [name]: _unset, ...others } = afterUnset;
        const { [name]: _before, ...othersBefore } = current;
        expect(others).toEqual(othersBefore);
      }),
      { numRuns: 200 },
    );
  });

  test('urm_add of a then b equals urm_add of a + b, and the decimal.js sum', () => {
    fc.assert(
      fc.property(fc.option(decimal, { nil: undefined }), decimal, decimal, (start, a, b) => {
        const current: Attributes = start === undefined ? {} : { n: start };

        const stepwise = applied(applied(current, { urm_add: { n: a } }), { urm_add: { n: b } });
        const atOnce = applied(current, { urm_add: { n: new Decimal(a).plus(b).toNumber() } });

        const expected = new Decimal(start ?? 0).plus(a).plus(b).toNumber();
        expect(stepwise).toEqual({ n: expected });
        expect(atOnce).toEqual({ n: expected });
      }),
      { numRuns: 200 },
    );
  });
});
