/**
 * Lookalike identifiers (issue 25, item 11): an identifier that holds a bidi
 * control or an invisible character reads as another one on a screen, so
 * every identifier refuses them with one pattern (functions/domain/text.ts),
 * which the OpenAPI document shows, in a 400 naming the field.
 */
import { describe, expect, test } from '@jest/globals';
import { signInBodySchema } from '../../../functions/api/enterprise-sign-in/schema';
import { eventsBodySchema } from '../../../functions/api/ingest-events/schema';
import { profilesBodySchema } from '../../../functions/api/ingest-profiles/schema';
import { validRegistration } from '../../../functions/back-office/affiliate-registration-schema';
import { sendEmailSchema } from '../../../functions/api/send-email/schema';
import { setAffiliateSchema } from '../../../functions/api/set-affiliate/schema';
import { ValidationError } from '../../../functions/domain/errors';
import { moneySettingsProblems } from '../../../functions/domain/money-settings';
import { profileIdOf } from '../../../functions/domain/profile-id';
import { identifierPattern, identifierProblem, portableIdentifierPattern } from '../../../functions/domain/text';
import { compileValidator } from '../../../functions/domain/validation';
import { buildOpenApiDocument } from '../../../lib/api-docs/document';
import { OpenApiChecker } from '../../support/openapi';

/** Characters that change how an identifier reads without being seen. */
const invisible = [
  ['U+202E right-to-left override', '\u202E'],
  ['U+202A left-to-right embedding', '\u202A'],
  ['U+2066 left-to-right isolate', '\u2066'],
  ['U+2069 pop directional isolate', '\u2069'],
  ['U+200E left-to-right mark', '\u200E'],
  ['U+200F right-to-left mark', '\u200F'],
  ['U+061C Arabic letter mark', '\u061C'],
  ['U+200B zero-width space', '\u200B'],
  ['U+200C zero-width non-joiner', '\u200C'],
  ['U+200D zero-width joiner', '\u200D'],
  ['U+2060 word joiner', '\u2060'],
  ['U+FEFF zero-width no-break space', '\uFEFF'],
  ['U+00AD soft hyphen', '\u00AD'],
  ['U+E0041 tag latin capital letter A', '\u{E0041}'],
  ['U+2028 line separator', '\u2028'],
  ['U+2029 paragraph separator', '\u2029'],
  ['U+3164 Hangul filler', '\u3164'],
  ['U+0085 next line (a C1 control)', '\u0085'],
] as const;

const refusal = (field: string) => `${field} ${identifierProblem}`;

function errorsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  return [];
}

const at = '2026-11-21T10:00:00Z';

describe('an identifier with a bidi control or an invisible character', () => {
  const events = compileValidator(eventsBodySchema);
  const profiles = compileValidator(profilesBodySchema);

  test.each(invisible)('%s in a profile_id of POST /events is refused naming the field', (_name, character) => {
    expect(errorsOf(() => events([{ app_id: 'app_1', profile_id: `player${character}1`, event: 'deposit', urm_date_time: at }]))).toEqual([
      refusal('[0].profile_id'),
    ]);
  });

  test.each([
    ['app_id', { app_id: 'app\u202E_1' }],
    ['urm_insert_id', { urm_insert_id: 'id\u200B' }],
    ['event', { event: 'depo\u2066sit' }],
  ])('%s of an event is refused the same way', (field, change) => {
    expect(errorsOf(() => events([{ app_id: 'app_1', profile_id: 'player-1', event: 'deposit', urm_date_time: at, ...change }]))).toEqual([
      refusal(`[0].${field}`),
    ]);
  });

  test('an id in urm_merge is refused the same way', () => {
    expect(errorsOf(() => profiles([{ app_id: 'app_1', profile_id: 'player-1', urm_date_time: at, urm_merge: ['guest\uFEFF'] }]))).toEqual([
      refusal('[0].urm_merge[0]'),
    ]);
  });

  test.each([
    ['set_affiliate urm_aff_id', setAffiliateSchema, { app_id: 'app_1', profile_id: 'p', urm_aff_id: 'aff\u200D' }, 'urm_aff_id'],
    [
      'send_email channel_id',
      sendEmailSchema,
      { app_id: 'app_1', channel_id: 'ch\u202E', profile_id: 'p', to_addresses: [{ email: 'ada@example.com', name: 'Ada' }], subject: 's', text_body: 't' },
      'channel_id',
    ],
    ['sign_in user_id', signInBodySchema, { app_id: 'app_1', user_id: 'usr\u2067' }, 'user_id'],
  ])('%s is refused the same way', (_name, schema, body, field) => {
    expect(errorsOf(() => compileValidator(schema)(body))).toEqual([refusal(field)]);
  });

  test("a read path's profile_id is refused the same way", () => {
    expect(errorsOf(() => profileIdOf({ profile_id: 'player\u202E1' }))).toEqual([refusal('profile_id')]);
  });

  test('an event name in the money settings is refused', () => {
    expect(moneySettingsProblems({ money_events: { 'Depo\u200Bsit': 'deposit' } })).toHaveLength(1);
  });

  test.each(invisible)("%s in an affiliate's username is refused naming username", (_name, character) => {
    const registration = { app_id: 'app_1', password: 'correct horse', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' };

    expect(errorsOf(() => validRegistration({ ...registration, username: `ad${character}min` }))).toEqual([refusal('username')]);
  });
});

describe('what identifiers keep', () => {
  test.each([
    ['a decomposed accent', 'cafe\u0301'],
    ['an emoji with its variation selector', '\u2764\uFE0F'],
    ['an emoji', '😀'],
    ['right-to-left letters', 'שלום'],
    ['a no-break space', 'a\u00A0b'],
    ['an astral letter', '𝒜'],
  ])('%s is taken as sent', (_name, value) => {
    expect(new RegExp(identifierPattern, 'u').test(value)).toBe(true);
  });
});

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument() as Record<string, any>;
  const checker = new OpenApiChecker(document);

  test("shows the identifier pattern on an event's profile_id and register_affiliate's username", () => {
    const eventRecord = document.components.schemas.EventRecord;
    const registration = document.paths['/api/register_affiliate'].post.requestBody.content['application/json'].schema;

    expect(eventRecord.properties.profile_id.pattern).toBe(portableIdentifierPattern);
    expect(registration.properties.username.pattern).toBe(portableIdentifierPattern);
  });

  test('refuses a profile_id with a right-to-left override, as the function does', () => {
    const schema = checker.schemaAt('/paths/~1events/post/requestBody/content/application~1json/schema');

    expect(schema([{ app_id: 'app_1', profile_id: 'player-1', event: 'deposit', urm_date_time: at }])).toBe(true);
    expect(schema([{ app_id: 'app_1', profile_id: 'player\u202E1', event: 'deposit', urm_date_time: at }])).toBe(false);
  });
});

describe('the pattern the OpenAPI document shows', () => {
  test('is the service’s rule at every code point of the Basic Multilingual Plane, read with or without the u flag', () => {
    const exact = new RegExp(identifierPattern, 'u');
    const portable = [new RegExp(portableIdentifierPattern, 'u'), new RegExp(portableIdentifierPattern)];
    const differing: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const text = `a${String.fromCharCode(code)}b`;
      if (portable.some((pattern) => pattern.test(text) !== exact.test(text))) differing.push(code.toString(16));
    }

    expect(differing).toEqual([]);
  });

  test('needs no Unicode property escape, so generators and Swagger UI can compile it', () => {
    expect(portableIdentifierPattern).not.toMatch(/\\p\{/);
    expect(new RegExp(portableIdentifierPattern).test('player-1842')).toBe(true);
  });

  test('is named by every identifier field of the document, never the service’s own', () => {
    const json = JSON.stringify(buildOpenApiDocument());

    expect(json).not.toContain(JSON.stringify(identifierPattern).slice(1, -1));
    expect(json).toContain(JSON.stringify(portableIdentifierPattern).slice(1, -1));
  });
});
