import { describe, expect, test } from '@jest/globals';
import { validRegistration } from '../../../functions/back-office/affiliate-registration-schema';
import { validSetAffiliate } from '../../../functions/api/set-affiliate/schema';
import { ValidationError } from '../../../functions/domain/errors';
import {
  attribution,
  attributionRules,
  attributionWith,
  describeValue,
  missingTracking,
  registration,
  registrationRules,
  withField,
} from '../../support/affiliates';

const appId = 'app_1';

/** The messages a validator throws, or undefined when it accepts. */
function problems(validate: (input: unknown) => unknown, input: unknown): string[] | undefined {
  try {
    validate(input);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors;
  }
}

describe('register_affiliate rules', () => {
  for (const row of registrationRules) {
    for (const value of row.accepted) {
      test(`${row.field} ${describeValue(value)} is accepted`, () => {
        expect(problems(validRegistration, withField(registration(appId), row.field, value))).toBe(undefined);
      });
    }
    for (const [value, message] of row.rejected) {
      test(`${row.field} ${describeValue(value)} is rejected with "${message}"`, () => {
        expect(problems(validRegistration, withField(registration(appId), row.field, value))).toEqual([message]);
      });
    }
  }

  test('gives one message per broken field, each naming its field', () => {
    const body = { ...registration(appId), password: 'short', email: 'nope', telegram: 'abc', first_name: '' };

    const messages = problems(validRegistration, body);

    expect(new Set(messages)).toEqual(
      new Set([
        'password must be at least 8 characters',
        'email must be a valid email address',
        'telegram must be 5 to 32 characters: letters, digits and underscores',
        'first_name must not be empty',
      ]),
    );
    expect(messages!.length).toBe(4);
  });

  test('gives a field that breaks two rules only its first message', () => {
    expect(problems(validRegistration, { ...registration(appId), phone_number: `+${'x'.repeat(70)}` })).toEqual(['phone_number must be at most 64 characters']);
  });

  for (const body of [[], 'text', 42, null, true]) {
    test(`a body that is ${JSON.stringify(body)} is "body is invalid"`, () => {
      expect(problems(validRegistration, body)).toEqual(['body is invalid']);
    });
  }

  test('returns the registration trimmed, without optional fields that are null or empty, password as given', () => {
    const body = {
      ...registration(appId),
      email: '  Ada@Example.com ',
      username: ' Ada ',
      password: '  padded secret  ',
      first_name: ' Ada ',
      telegram: null,
      facebook: '',
      youtube: '   ',
      website_url: ' https://ada.example.com ',
    };

    const valid = validRegistration(body);

    expect(valid).toEqual({
      app_id: appId,
      password: '  padded secret  ',
      email: 'Ada@Example.com',
      username: 'Ada',
      first_name: 'Ada',
      last_name: 'Lovelace',
      website_url: 'https://ada.example.com',
    });
  });

  test('keeps a "__proto__" field a field, and refuses it', () => {
    const body = JSON.parse(`{"__proto__": {"admin": true}, ${JSON.stringify(registration(appId)).slice(1)}`);

    expect(problems(validRegistration, body)).toEqual(['__proto__ is not allowed']);
  });
});

describe('set_affiliate rules', () => {
  for (const row of attributionRules) {
    for (const value of row.accepted) {
      test(`${row.field} ${describeValue(value)} is accepted`, () => {
        expect(problems(validSetAffiliate, attributionWith(appId, row.field, value))).toBe(undefined);
      });
    }
    for (const [value, message] of row.rejected) {
      test(`${row.field} ${describeValue(value)} is rejected with "${message}"`, () => {
        expect(problems(validSetAffiliate, attributionWith(appId, row.field, value))).toEqual([message]);
      });
    }
  }

  test('any one of the three tracking parameters is enough, and all three are fine', () => {
    for (const body of [
      { app_id: appId, profile_id: 'p', urm_aff_id: 'a' },
      { app_id: appId, profile_id: 'p', urm_aff_link_id: 'l' },
      { app_id: appId, profile_id: 'p', urm_aff: 'x' },
      { app_id: appId, profile_id: 'p', urm_aff_id: 'a', urm_aff_link_id: 'l', urm_aff: 'x' },
    ]) {
      expect(problems(validSetAffiliate, body)).toBe(undefined);
    }
  });

  test('none of the three tracking parameters is rejected with one message naming them', () => {
    expect(problems(validSetAffiliate, { app_id: appId, profile_id: 'p' })).toEqual([missingTracking]);
    expect(missingTracking).toBe('one of urm_aff_id, urm_aff_link_id, urm_aff is required');
  });

  test('schema problems and the missing tracking parameter come in one answer', () => {
    expect(problems(validSetAffiliate, { app_id: appId, profile_id: '' })).toEqual([
      'profile_id must not be empty',
      'one of urm_aff_id, urm_aff_link_id, urm_aff is required',
    ]);
  });

  test('a body that is not an object is rejected', () => {
    expect(problems(validSetAffiliate, [attribution(appId)])).toEqual(['request body must be an object']);
  });

  test('tracking values are kept exactly as given', () => {
    const body = { ...attribution(appId), urm_aff_id: ' spaced ' };

    expect(validSetAffiliate(body).urm_aff_id).toBe(' spaced ');
  });
});
