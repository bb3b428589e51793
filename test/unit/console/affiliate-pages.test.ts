/** The console's Affiliates and affiliate pages (functions/console/ui/pages/affiliate*.tsx): what they compute and show without a browser. */
import { describe, expect, test } from '@jest/globals';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { figure, previousOf } from '../../../functions/console/ui/pages/affiliate';
import { errorsOf, FormFailure } from '../../../functions/console/ui/actions';

describe('the previous period the KPI cards compare with', () => {
  test('is the same number of days, ending the day before the period starts', () => {
    expect(previousOf({ from: '2026-10-28', to: '2026-11-26' })).toEqual({ from: '2026-09-28', to: '2026-10-27' });
    expect(previousOf({ from: '2026-03-01', to: '2026-03-01' })).toEqual({ from: '2026-02-28', to: '2026-02-28' });
    expect(previousOf({ from: '2024-03-01', to: '2024-03-31' })).toEqual({ from: '2024-01-30', to: '2024-02-29' });
  });

  test('is none for a period the server would refuse', () => {
    expect(previousOf({ from: '2026-11-26', to: '2026-11-01' })).toBeUndefined();
    expect(previousOf({ from: '', to: '2026-11-01' })).toBeUndefined();
  });
});

describe("the report table's figures", () => {
  test("are formatMoney's, without the currency the caption names once", () => {
    expect(figure('1234.5', 'EUR')).toBe('1,234.50');
    expect(figure('-20', 'EUR')).toBe('\u221220.00');
    expect(figure('1500', 'JPY')).toBe('1,500');
    expect(figure('not money', 'EUR')).toBe('not money');
  });
});

describe("a form's refusal", () => {
  const failure = {
    message: 'plan is invalid',
    errors: ['a plan needs cpa, revshare or both', 'cpa amount must be more than 0', 'name must be 1 to 100 characters, without control characters'],
  };

  test("goes to the fields it names, whichever way the server spells the field's path", () => {
    expect(errorsOf(failure, 'cpa amount', 'cpa.amount')).toEqual(['cpa amount must be more than 0']);
    expect(errorsOf({ message: 'request body is invalid', errors: ['cpa.amount must be string'] }, 'cpa amount', 'cpa.amount')).toEqual([
      'cpa.amount must be string',
    ]);
    expect(errorsOf(undefined, 'name')).toEqual([]);
  });

  test("shows in the form's alert only what no field shows", () => {
    const html = renderToString(h(FormFailure, { failure, fields: ['name', 'cpa', 'revshare'] }));
    expect(html).toContain('role="alert"');
    expect(html).toContain('plan is invalid');
    expect(html).toContain('a plan needs cpa, revshare or both');
    expect(html).not.toContain('cpa amount must be more than 0');
    expect(html).not.toContain('name must be');
  });

  test('says to look at the fields when they show every problem', () => {
    const html = renderToString(
      h(FormFailure, { failure: { message: 'link is invalid', errors: ['landing_url is required'] }, fields: ['name', 'landing_url'] }),
    );
    expect(html).toContain('See the marked fields.');
    expect(renderToString(h(FormFailure, { failure: undefined }))).toBe('');
  });
});
