import { describe, expect, test } from '@jest/globals';
import { profileRecordProblems } from '../../../functions/api/ingest-profiles/core';
import { profilesBodySchema } from '../../../functions/api/ingest-profiles/schema';
import { ValidationError } from '../../../functions/domain/errors';
import { compileValidator } from '../../../functions/domain/validation';

const validate = compileValidator(profilesBodySchema);

const base = { app_id: 'app_1', profile_id: 'player-1', urm_date_time: '2026-11-21T10:00:00Z' };

/** The messages of a rejected body, or [] when it is accepted. */
function problems(body: unknown): string[] {
  try {
    const records = validate(body);
    return records.flatMap(profileRecordProblems);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors;
  }
}

describe('a profiles body is accepted', () => {
  const accepted: [string, unknown][] = [
    ['with only the required fields', [base]],
    ['with an insert id and an IPv4 address', [{ ...base, urm_insert_id: 'abc', urm_ip: '203.0.113.9' }]],
    ['with an IPv6 address', [{ ...base, urm_ip: '2001:db8::1' }]],
    ['with a date-time in an offset time zone', [{ ...base, urm_date_time: '2026-11-21T10:00:00.123+02:00' }]],
    ['with custom attributes of every type', [{ ...base, name: 'Ann', level: 3, vip: true, tags: ['a', 1, false, ['n']] }]],
    [
      'with every directive',
      [
        {
          ...base,
          urm_set: { a: 1 },
          urm_set_if_null: { b: 'x' },
          urm_add: { c: -0.5 },
          urm_append: { d: [1] },
          urm_unique_append: { e: ['y'] },
          urm_remove: { f: [true] },
          urm_unset: ['g'],
          urm_delete: ['h'],
          urm_merge: ['anon-1'],
        },
      ],
    ],
    ['with urm_delete_profile alone', [{ ...base, urm_insert_id: 'd1', urm_delete_profile: 'profile_id' }]],
    ['with the push attributes', [{ ...base, urm_web_push_notification_token: ['{"endpoint":"x"}'], urm_receives_notifications: false }]],
    ['with push tokens appended through a directive', [{ ...base, urm_unique_append: { urm_web_push_notification_token: ['t'] } }]],
    ['with the mobile push tokens cleared', [{ ...base, urm_delete: ['urm_ios_push_notification_token', 'urm_android_push_notification_token'] }]],
    ['with 500 records', Array.from({ length: 500 }, (_, i) => ({ ...base, profile_id: `p${i}` }))],
    ['with a 255-character attribute name', [{ ...base, ['a'.repeat(255)]: 1 }]],
    ['with an attribute named like urm but not starting with it', [{ ...base, my_urm: 1 }]],
  ];
  for (const [name, body] of accepted) {
    test(name, () => expect(problems(body)).toEqual([]));
  }
});

describe('a profiles body is rejected', () => {
  const rejected: [string, unknown, string][] = [
    ['when it is an object, not an array', base, 'request body must be an array'],
    ['when it is empty', [], 'request body must hold at least 1 record'],
    ['when it holds 501 records', Array.from({ length: 501 }, () => base), 'request body must hold at most 500 records'],
    ['when a record is not an object', [1], '[0] must be an object'],
    ['when app_id is missing', [{ profile_id: 'p', urm_date_time: base.urm_date_time }], '[0].app_id is required'],
    ['when profile_id is missing', [{ app_id: 'a', urm_date_time: base.urm_date_time }], '[0].profile_id is required'],
    ['when urm_date_time is missing', [{ app_id: 'a', profile_id: 'p' }], '[0].urm_date_time is required'],
    ['when profile_id is empty', [{ ...base, profile_id: '' }], '[0].profile_id must not be empty'],
    ['when profile_id is longer than 128 characters', [{ ...base, profile_id: 'p'.repeat(129) }], '[0].profile_id must be at most 128 characters'],
    ['when urm_date_time is a date without a time', [{ ...base, urm_date_time: '2026-11-21' }], '[0].urm_date_time must be an ISO 8601 date-time'],
    ['when urm_date_time has no time zone', [{ ...base, urm_date_time: '2026-11-21T10:00:00' }], '[0].urm_date_time must be an ISO 8601 date-time'],
    ['when urm_insert_id is empty', [{ ...base, urm_insert_id: '' }], '[0].urm_insert_id must not be empty'],
    ['when urm_insert_id is longer than 128 characters', [{ ...base, urm_insert_id: 'i'.repeat(129) }], '[0].urm_insert_id must be at most 128'],
    ['when urm_ip is not an address', [{ ...base, urm_ip: '999.1.1.1' }], '[0].urm_ip must be an IPv4 or IPv6 address'],
    ['when an attribute starts with URM in capitals', [{ ...base, URM_x: 1 }], '[0].URM_x is not allowed: names starting with "urm" are reserved'],
    ['when an attribute is an unknown urm_ name', [{ ...base, urm_aff_id: 'x' }], '[0].urm_aff_id is not allowed'],
    ['when an attribute is null', [{ ...base, a: null }], '[0].a must be a string, number, boolean or array'],
    ['when an attribute is an object', [{ ...base, a: { b: 1 } }], '[0].a must be a string, number, boolean or array'],
    ['when an array holds an object', [{ ...base, a: [{}] }], '[0].a[0] must be'],
    ['when arrays nest deeper than 8', [{ ...base, a: [[[[[[[[[1]]]]]]]]] }], 'arrays nest too deep'],
    ['when an attribute name is longer than 255 characters', [{ ...base, ['a'.repeat(256)]: 1 }], 'at most 255 characters'],
    ['when an attribute is named __proto__', JSON.parse(`[${JSON.stringify(base).slice(0, -1)},"__proto__":1}]`), 'the name "__proto__" is reserved'],
    ['when urm_set holds a reserved name', [{ ...base, urm_set: { urmx: 1 } }], '[0].urm_set.urmx is not allowed'],
    ['when urm_set holds null', [{ ...base, urm_set: { a: null } }], '[0].urm_set.a must be'],
    ['when urm_add holds a string', [{ ...base, urm_add: { a: '1' } }], '[0].urm_add.a must be a number'],
    [
      'when urm_add targets a system attribute',
      [{ ...base, urm_add: { urm_receives_notifications: 1 } }],
      '[0].urm_add.urm_receives_notifications is not allowed',
    ],
    ['when urm_append holds a non-array', [{ ...base, urm_append: { a: 1 } }], '[0].urm_append.a must be an array'],
    ['when urm_unset is not an array', [{ ...base, urm_unset: 'a' }], '[0].urm_unset must be an array'],
    ['when urm_delete names a reserved attribute', [{ ...base, urm_delete: ['urm_aff'] }], '[0].urm_delete[0] "urm_aff" is not allowed'],
    ['when urm_merge is empty', [{ ...base, urm_merge: [] }], '[0].urm_merge must hold at least 1 item'],
    [
      'when urm_merge names more than 100 profiles',
      [{ ...base, urm_merge: Array.from({ length: 101 }, (_, i) => `p${i}`) }],
      '[0].urm_merge must hold at most 100 items',
    ],
    ['when urm_merge names the profile itself', [{ ...base, urm_merge: ['player-1'] }], '[0].urm_merge must not name the profile itself'],
    ['when urm_delete_profile is not the literal "profile_id"', [{ ...base, urm_delete_profile: 'player-1' }], '[0].urm_delete_profile must be "profile_id"'],
    [
      'when urm_delete_profile comes with an attribute',
      [{ ...base, urm_delete_profile: 'profile_id', a: 1 }],
      '[0].urm_delete_profile cannot be combined with a',
    ],
    ['when urm_delete_profile comes with a directive', [{ ...base, urm_delete_profile: 'profile_id', urm_set: { a: 1 } }], 'cannot be combined with urm_set'],
    [
      'when an attribute is named at the top level and in urm_set',
      [{ ...base, a: 1, urm_set: { a: 2 } }],
      'names the attribute "a" more than once (top level, urm_set)',
    ],
    [
      'when an attribute is named in two directives',
      [{ ...base, urm_unset: ['a'], urm_delete: ['a'] }],
      'names the attribute "a" more than once (urm_unset, urm_delete)',
    ],
    ['when urm_receives_notifications is not a boolean', [{ ...base, urm_receives_notifications: 'yes' }], '[0].urm_receives_notifications must be a boolean'],
    ['when a push token is not a string', [{ ...base, urm_web_push_notification_token: [1] }], '[0].urm_web_push_notification_token[0] must be a string'],
  ];
  for (const [name, body, expected] of rejected) {
    test(name, () => {
      const messages = problems(body);
      expect(messages.some((message) => message.includes(expected))).toBeTruthy();
    });
  }

  test('with every problem of every record, each naming its record', () => {
    const messages = problems([{ ...base, urm_date_time: 'x' }, base, { ...base, URMy: 1 }]);
    expect(messages.map((m) => m.slice(0, 3))).toEqual(['[0]', '[2]']);
  });

  test('with at most 100 messages, the rest counted', () => {
    const messages = problems(Array.from({ length: 150 }, () => ({ ...base, urm_date_time: 'x' })));
    expect(messages.length).toBe(101);
    expect(messages[100]).toBe('… and 50 more errors');
  });
});
