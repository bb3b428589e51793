/** The portal's Payments page and printable statement over in-memory ports: the affiliate's own statements, the payout form, the pages' CSP. */
import { describe, expect, test } from '@jest/globals';
import { portalCsrf } from '../../../functions/domain/sessions';
import { affiliateSession, memoryPortal } from '../../support/affiliate-portal';

async function signedInPortal() {
  const portal = memoryPortal();
  const { sessionId, cookie } = await affiliateSession(portal);
  const csrf = portalCsrf.tokenFor(sessionId);
  return { ...portal, cookie, csrf };
}

describe('the Payments page', () => {
  test('shows the balance, the statements by month and the payout form, with its own stylesheet allowed by hash', async () => {
    const portal = await signedInPortal();

    const response = await portal.browse('GET', '/affiliates/app_1/payments', { cookie: portal.cookie });

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<h1');
    expect(response.body).toContain('Balance');
    expect(response.body).toContain('href="statement?month=2026-11"');
    expect(response.body).toContain('Save payment details');
    const styleSrc = /style-src ([^;]*)/.exec(String(response.headers?.['Content-Security-Policy']))?.[1] ?? '';
    expect(styleSrc.match(/'sha256-/g)).toHaveLength(2);
  });

  test('a refused detail is shown beside its field and nothing is stored; valid details are stored and the answer redirects', async () => {
    const portal = await signedInPortal();

    const refused = await portal.browse('POST', '/affiliates/app_1/payments', {
      cookie: portal.cookie,
      form: { csrf: portal.csrf, payout_method: 'bank_transfer', account_holder: 'Ada', iban: 'DE00 1234' },
    });
    const stored = await portal.payouts.get('app_1', 'aff_1');
    const saved = await portal.browse('POST', '/affiliates/app_1/payments', {
      cookie: portal.cookie,
      form: { csrf: portal.csrf, payout_method: 'e_wallet', provider: 'Skrill', account: 'ada@example.com' },
    });

    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('iban is not a valid IBAN');
    expect(stored).toBeUndefined();
    expect(saved.statusCode).toBe(303);
    expect(saved.headers?.Location).toBe('payments?done=saved');
    expect(await portal.payouts.get('app_1', 'aff_1')).toEqual({
      payout_method: 'e_wallet',
      payout_details: { provider: 'Skrill', account: 'ada@example.com' },
    });
  });

  test('a post without the session’s CSRF token is the 403 page', async () => {
    const portal = await signedInPortal();

    const response = await portal.browse('POST', '/affiliates/app_1/payments', { cookie: portal.cookie, form: { payout_method: 'crypto' } });

    expect(response.statusCode).toBe(403);
  });
});

describe('the printable statement', () => {
  test('opens a month of the affiliate; a malformed month is the not-found page', async () => {
    const portal = await signedInPortal();

    const month = await portal.browse('GET', '/affiliates/app_1/statement?month=2026-11', { cookie: portal.cookie });
    const bad = await portal.browse('GET', '/affiliates/app_1/statement?month=2026-13', { cookie: portal.cookie });

    expect(month.statusCode).toBe(200);
    expect(month.body).toContain('statement for November 2026');
    expect(month.body).toContain('@page { size: A4');
    expect(bad.statusCode).toBe(404);
  });
});
