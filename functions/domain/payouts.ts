/**
 * How an affiliate is paid: a method and its details, set in the portal. The
 * details are personal data: checked and bounded here, never logged, shown
 * only to the affiliate and to the operator who pays.
 */
import { identifierPattern } from './text';

export const payoutMethods = ['bank_transfer', 'crypto', 'e_wallet'] as const;
export type PayoutMethod = (typeof payoutMethods)[number];

export const payoutMethodNames: Record<PayoutMethod, string> = { bank_transfer: 'Bank transfer', crypto: 'Crypto', e_wallet: 'E-wallet' };

/** The fields of each method, in the order a form shows them; `optional` ones may be empty. */
export const payoutFields = {
  bank_transfer: [
    { name: 'account_holder', label: 'Account holder', max: 100 },
    { name: 'iban', label: 'IBAN', max: 42 },
    { name: 'bic', label: 'BIC / SWIFT (optional)', max: 11, optional: true },
  ],
  crypto: [
    { name: 'currency', label: 'Currency', max: 10 },
    { name: 'network', label: 'Network', max: 30 },
    { name: 'wallet_address', label: 'Wallet address', max: 128 },
  ],
  e_wallet: [
    { name: 'provider', label: 'Provider', max: 30 },
    { name: 'account', label: 'Account (email or id)', max: 254 },
  ],
} as const satisfies Record<PayoutMethod, readonly { name: string; label: string; max: number; optional?: boolean }[]>;

export const cryptoCurrencies = ['USDT', 'USDC', 'BTC', 'ETH'] as const;
export const eWalletProviders = ['Skrill', 'Neteller', 'PayPal'] as const;

export interface PayoutDetails {
  payout_method: PayoutMethod;
  payout_details: Record<string, string>;
}

const visibleText = new RegExp(identifierPattern, 'u');

/** ISO 13616: country, check digits, up to 30 letters and digits, mod 97 = 1. */
export function validIban(value: string): boolean {
  const iban = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const digits = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}

const fieldRules: Record<string, (value: string) => string | undefined> = {
  iban: (v) => (validIban(v) ? undefined : 'iban is not a valid IBAN'),
  bic: (v) => (/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(v.toUpperCase()) ? undefined : 'bic must be 8 or 11 letters and digits'),
  currency: (v) => ((cryptoCurrencies as readonly string[]).includes(v) ? undefined : `currency must be one of ${cryptoCurrencies.join(', ')}`),
  network: (v) => (/^[A-Za-z0-9 ()-]{2,30}$/.test(v) ? undefined : 'network must be 2 to 30 letters, digits, spaces or dashes'),
  wallet_address: (v) => (/^[A-Za-z0-9:]{20,128}$/.test(v) ? undefined : 'wallet_address must be 20 to 128 letters and digits'),
  provider: (v) => ((eWalletProviders as readonly string[]).includes(v) ? undefined : `provider must be one of ${eWalletProviders.join(', ')}`),
};

const normalise: Record<string, (value: string) => string> = {
  iban: (v) => v.replace(/\s+/g, '').toUpperCase(),
  bic: (v) => v.toUpperCase(),
};

/** The method and details as given (a form's fields), checked: the stored form, or every problem naming its field. */
export function checkPayoutDetails(input: Record<string, unknown>): { payout?: PayoutDetails; problems: Record<string, string> } {
  const method = input.payout_method;
  if (typeof method !== 'string' || !(payoutMethods as readonly string[]).includes(method)) {
    return { problems: { payout_method: `payout_method must be one of ${payoutMethods.join(', ')}` } };
  }
  const problems: Record<string, string> = {};
  const details: Record<string, string> = {};
  for (const field of payoutFields[method as PayoutMethod]) {
    const raw = input[field.name];
    const value = typeof raw === 'string' ? raw.trim() : '';
    if (value === '') {
      if (!('optional' in field && field.optional)) problems[field.name] = `${field.name} is required`;
      continue;
    }
    if (value.length > field.max) problems[field.name] = `${field.name} must be at most ${field.max} characters`;
    else if (!visibleText.test(value)) problems[field.name] = `${field.name} must not contain control or invisible characters`;
    else {
      const problem = fieldRules[field.name]?.(value);
      if (problem) problems[field.name] = problem;
      else details[field.name] = normalise[field.name]?.(value) ?? value;
    }
  }
  return Object.keys(problems).length > 0 ? { problems } : { payout: { payout_method: method as PayoutMethod, payout_details: details }, problems };
}

/** The details as a person reads them, e.g. "Bank transfer · IBAN DE89…3000". */
export function describePayout(payout: PayoutDetails): string {
  const d = payout.payout_details;
  const mask = (v: string | undefined) => (v && v.length > 8 ? `${v.slice(0, 4)}…${v.slice(-4)}` : (v ?? ''));
  switch (payout.payout_method) {
    case 'bank_transfer':
      return `Bank transfer to ${d.account_holder}, IBAN ${mask(d.iban)}`;
    case 'crypto':
      return `${d.currency} on ${d.network} to ${mask(d.wallet_address)}`;
    case 'e_wallet':
      return `${d.provider}: ${d.account}`;
  }
}

/** The payout fields on the affiliate item: read and written only by the payment use cases. */
export interface PayoutStore {
  get(appId: string, affiliateId: string): Promise<PayoutDetails | undefined>;
  /** Of several affiliates at once, by affiliate id (those without details are absent). */
  getMany(appId: string, affiliateIds: readonly string[]): Promise<Map<string, PayoutDetails>>;
  /** False when there is no such affiliate. */
  set(appId: string, affiliateId: string, payout: PayoutDetails): Promise<boolean>;
}
