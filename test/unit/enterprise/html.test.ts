import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cookieOf, escapeHtml } from '../../../functions/shared/http/html';

describe('escapeHtml', () => {
  test('escapes what could open markup or leave a quoted attribute', () => {
    assert.equal(escapeHtml(`<img src=x onerror="a('b')"> & co`), '&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt; &amp; co');
  });

  test('leaves other text, accents included, as it is', () => {
    assert.equal(escapeHtml('Zoë Ñúñez-Østergård'), 'Zoë Ñúñez-Østergård');
  });
});

describe('cookieOf', () => {
  const withCookie = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } });

  test('finds the named cookie among others', () => {
    assert.equal(cookieOf(withCookie('a=1; urm_portal_session=abc; b=2'), 'urm_portal_session'), 'abc');
    assert.equal(cookieOf(withCookie('urm_portal_session=abc'), 'urm_portal_session'), 'abc');
  });

  test('finds nothing without the cookie, with only a longer name, or in an oversized header', () => {
    assert.equal(cookieOf(withCookie(), 'urm_portal_session'), undefined);
    assert.equal(cookieOf(withCookie('x_urm_portal_session=abc; flag'), 'urm_portal_session'), undefined);
    assert.equal(cookieOf(withCookie(`pad=${'x'.repeat(9000)}; urm_portal_session=abc`), 'urm_portal_session'), undefined);
  });
});
