/** The formats of the CRM attributes (functions/domain/schema-runtime.ts): what a time zone and a language tag may be. */
import { describe, expect, test } from '@jest/globals';
import { isLanguageTag, isTimeZone } from '../../../functions/domain/schema-runtime';

describe('urm_timezone', () => {
  test.each(['Europe/Malta', 'UTC', 'America/Argentina/Buenos_Aires', 'Etc/GMT+2'])('accepts the IANA name %s', (zone) => {
    expect(isTimeZone(zone)).toBe(true);
  });

  test.each(['', 'Mars/Olympus', '+01:00', 'CET+1', 'Europe/', '../etc/passwd', 'Europe/Malta '])('refuses %j', (zone) => {
    expect(isTimeZone(zone)).toBe(false);
  });
});

describe('urm_language', () => {
  test.each(['en', 'pt-BR', 'zh-Hant-TW', 'mt'])('accepts the BCP 47 tag %s', (tag) => {
    expect(isLanguageTag(tag)).toBe(true);
  });

  test.each(['', 'e', 'english please', 'en_GB', 'en--GB', '123'])('refuses %j', (tag) => {
    expect(isLanguageTag(tag)).toBe(false);
  });
});
