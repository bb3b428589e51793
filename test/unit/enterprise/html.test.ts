import { describe, expect, test } from '@jest/globals';
import { cookieOf, escapeHtml } from '../../../functions/http/html';

describe('escapeHtml', () => {
  test('escapes what could open markup or leave a quoted attribute', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')"> & co`)).toBe('&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt; &amp; co');
  });

  test('leaves other text, accents included, as it is', () => {
    expect(escapeHtml('Zoë Ñúñez-Østergård')).toBe('Zoë Ñúñez-Østergård');
  });
});

describe('cookieOf', () => {
  const withCookie = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } });

  test('finds the named cookie among others', () => {
    expect(cookieOf(withCookie('a=1; urm_portal_session=abc; b=2'), 'urm_portal_session')).toBe('abc');
    expect(cookieOf(withCookie('urm_portal_session=abc'), 'urm_portal_session')).toBe('abc');
  });

  test('finds nothing without the cookie, with only a longer name, or in an oversized header', () => {
    expect(cookieOf(withCookie(), 'urm_portal_session')).toBe(undefined);
    expect(cookieOf(withCookie('x_urm_portal_session=abc; flag'), 'urm_portal_session')).toBe(undefined);
    expect(cookieOf(withCookie(`pad=${'x'.repeat(9000)}; urm_portal_session=abc`), 'urm_portal_session')).toBe(undefined);
  });

  test('takes the first of a cookie sent twice', () => {
    expect(cookieOf(withCookie('urm_portal_session=first; urm_portal_session=second'), 'urm_portal_session')).toBe('first');
    expect(cookieOf(withCookie('urm_portal_session=; urm_portal_session=second'), 'urm_portal_session')).toBe('');
  });

  test('skips a pair without a value, and takes a value as sent: spaces around it dropped, nothing decoded', () => {
    expect(cookieOf(withCookie('flag; urm_portal_session=abc'), 'urm_portal_session')).toBe('abc');
    expect(cookieOf(withCookie('a=1;urm_portal_session =  a%20b=c ;b=2'), 'urm_portal_session')).toBe('a%20b=c');
  });
});
