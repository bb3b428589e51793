import { describe, expect, test } from '@jest/globals';
import { chooseLanguage, renderTemplate } from '../../../functions/domain/templates';
import { emailTemplate, sendContext } from '../../support/templates';

const variant = (subject: string) => ({ subject, html: `<p>${subject}</p>` });
const template = emailTemplate({ en: variant('Hello'), pt: variant('Olá'), 'pt-BR': variant('Oi'), fr: variant('Bonjour'), 'zh-Hant': variant('你好') }, 'en');

describe('the variant a player gets, by urm_language', () => {
  test.each([
    ['the same tag', 'pt-BR', 'pt-BR', 'exact'],
    ['the same tag in other letter case', 'pt-br', 'pt-BR', 'exact'],
    ['a primary language with its own variant', 'pt', 'pt', 'exact'],
    ['a region without a variant: its primary language', 'pt-PT', 'pt', 'broader'],
    ['a region of a language without a region variant', 'fr-CA', 'fr', 'broader'],
    ['a script and region without a variant: the script variant', 'zh-Hant-TW', 'zh-Hant', 'broader'],
    ['a script without a variant, and no primary one: the default', 'zh-Hans-CN', 'en', 'default'],
    ['a script variant of its own', 'zh-Hant', 'zh-Hant', 'exact'],
    ['a private-use extension: never cut at its singleton', 'fr-x-casino', 'fr', 'broader'],
    ['a language without a variant: the default', 'de', 'en', 'default'],
    ['a region of a language without a variant: the default', 'de-AT', 'en', 'default'],
    ['no urm_language: the default', undefined, 'en', 'default'],
    ['an empty urm_language: the default', '', 'en', 'default'],
    ['a value that is no language tag: the default', 'not a tag!', 'en', 'default'],
    ['a value that is not text: the default', 42, 'en', 'default'],
  ])('%s (%p → %s)', (_, wanted, language, reason) => {
    expect(chooseLanguage(template, wanted)).toMatchObject({ language, reason });
  });

  test('says why in words', () => {
    expect(chooseLanguage(template, 'pt-PT').why).toBe('urm_language pt-PT has no variant; the broader pt has one');
    expect(chooseLanguage(template, 'de').why).toBe('urm_language de has no variant: the default language en');
    expect(chooseLanguage(template, undefined).why).toBe('the player has no urm_language: the default language en');
  });

  test("a default language written in another case than its variant's key finds the variant", () => {
    const mixed = emailTemplate({ 'pt-BR': variant('Oi') }, 'pt-br');
    expect(chooseLanguage(mixed, 'de')).toMatchObject({ language: 'pt-BR', reason: 'default' });
  });
});

describe('rendering picks the variant', () => {
  test("from the player's urm_language", () => {
    expect(renderTemplate(template, sendContext({ urm_language: 'pt-PT' }))).toMatchObject({ language: 'pt', subject: 'Olá' });
  });

  test('from the language the caller names, over the attribute', () => {
    expect(renderTemplate(template, sendContext({ urm_language: 'pt-PT' }), 'fr')).toMatchObject({ language: 'fr', subject: 'Bonjour' });
  });

  test('the field of a render error names the variant it came from', () => {
    const broken = emailTemplate({ en: variant('Hello'), 'pt-BR': { subject: '{{ x | shout }}', html: 'x' } });
    expect(() => renderTemplate(broken, sendContext({ urm_language: 'pt-BR' }))).toThrow('variants["pt-BR"].subject: unknown filter "shout"');
  });
});
