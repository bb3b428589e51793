/** The number and date formats the portal and the console share (functions/ui/format.ts). */
import { describe, expect, test } from '@jest/globals';
import { formatCount, formatDay, formatMoney, formatTime, isoDay } from '../../../functions/ui/format';

describe('figures as people read them', () => {
  test('counts are grouped by thousands', () => {
    expect([0, 999, 1000, 1234567].map(formatCount)).toEqual(['0', '999', '1,000', '1,234,567']);
  });

  test('money has two decimals, grouped digits, a real minus and the currency, from the decimal string', () => {
    expect(formatMoney('-1234.5', 'EUR')).toBe('\u22121,234.50 EUR');
    expect(formatMoney('0012.345', 'USD')).toBe('12.34 USD');
    expect(formatMoney('12345678901234567.105', 'EUR')).toBe('12,345,678,901,234,567.10 EUR');
  });

  test("money takes its currency's own minor digits through Intl.NumberFormat, and an unknown code is shown as given", () => {
    expect(formatMoney('1234.9', 'JPY')).toBe('1,234 JPY');
    expect(formatMoney('1.2345', 'BHD')).toBe('1.234 BHD');
    expect(formatMoney('12.5', 'NOT-A-CODE')).toBe('12.5 NOT-A-CODE');
  });

  test('a zero is never negative, and what is no decimal is shown as given', () => {
    expect(formatMoney('-0.00', 'EUR')).toBe('0.00 EUR');
    expect(formatMoney('n/a', 'EUR')).toBe('n/a EUR');
  });

  test('days and times read in UTC words; a time that is no ISO time is shown as given', () => {
    expect(formatDay('2026-11-05')).toBe('5 Nov 2026');
    expect(formatTime('2026-11-05T09:03:07.123Z')).toBe('5 Nov 2026, 09:03:07 UTC');
    expect(formatTime('yesterday')).toBe('yesterday');
    expect(isoDay(new Date('2026-11-05T23:59:59.999Z'))).toBe('2026-11-05');
  });
});
