/** The console's timeline sentences for system events (functions/console/ui/events.ts). */
import { describe, expect, test } from '@jest/globals';
import { describeEvent, eventDetails } from '../../../functions/console/ui/events';

describe('system events in words', () => {
  test('a back-office change says who set what to which value', () => {
    const sentence = describeEvent('urm_back_office_action', {
      action: 'set_attribute',
      attribute: 'vip',
      value: true,
      user_id: 'usr_1',
      user_email: 'ada@op.example',
    });

    expect(sentence).toBe('ada@op.example set vip = true');
  });

  test('an unset says who unset which attribute', () => {
    expect(describeEvent('urm_back_office_action', { action: 'unset_attribute', attribute: 'vip', user_email: 'ada@op.example' })).toBe(
      'ada@op.example unset vip',
    );
  });

  test('an email sent names its subject and channel', () => {
    expect(describeEvent('urm_email_sent', { subject: 'Welcome', channel_id: 'ch_1', message_id: 'm' })).toBe('Email sent: “Welcome” (channel ch_1)');
  });

  test("an email sent names its channel by the channel's name when the page knows it, by its id when not", () => {
    const names = { channel: (id: string) => (id === 'ch_1' ? 'News' : undefined) };

    expect(describeEvent('urm_email_sent', { subject: 'Welcome', channel_id: 'ch_1' }, names)).toBe('Email sent: “Welcome” through News');
    expect(describeEvent('urm_email_sent', { subject: 'Welcome', channel_id: 'ch_gone' }, names)).toBe('Email sent: “Welcome” (channel ch_gone)');
  });

  test("SES's word on a mail: a delivery names the channel, a bounce its type and whether the address is now suppressed, a complaint the suppression", () => {
    const names = { channel: (id: string) => (id === 'ch_1' ? 'News' : undefined) };

    expect(describeEvent('urm_email_delivered', { message_id: 'm', channel_id: 'ch_1' }, names)).toBe('Email delivered through News');
    expect(describeEvent('urm_email_bounced', { bounce_type: 'Permanent', bounce_subtype: 'General', channel_id: 'ch_1' }, names)).toBe(
      'Email bounced (Permanent, General): address suppressed',
    );
    expect(describeEvent('urm_email_bounced', { bounce_type: 'Transient', bounce_subtype: 'MailboxFull' }, names)).toBe(
      'Email bounced (Transient, MailboxFull)',
    );
    expect(describeEvent('urm_email_complained', { feedback_type: 'abuse', channel_id: 'ch_1' }, names)).toBe('Email marked as spam: address suppressed');
  });

  test('an affiliate attribution names the affiliate, link and sub-id', () => {
    expect(describeEvent('urm_affiliate_attributed', { urm_aff_id: 'aff_1', urm_aff_link_id: 'lnk_2', urm_aff: 'spring' })).toBe(
      'Attributed to affiliate aff_1 (link lnk_2), sub-id spring',
    );
  });

  test('an unknown system event reads as its name in words', () => {
    expect(describeEvent('urm_something_new', {})).toBe('Something new');
  });

  test("an integrator's own event has no sentence: its attributes are shown instead", () => {
    expect(describeEvent('deposit', { amount: 25.5 })).toBeUndefined();
    expect(eventDetails({ app_id: 'a', profile_id: 'p', amount: 25.5, currency: 'EUR' })).toEqual([
      ['amount', 25.5],
      ['currency', 'EUR'],
    ]);
  });

  test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    "an integrator's event named %s has no sentence, like any other of its events",
    (name) => {
      expect(describeEvent(name, { amount: 1 })).toBeUndefined();
    },
  );
});

describe('money events in words', () => {
  test('a deposit says its amount and currency, and the method when the record names one', () => {
    expect(describeEvent('Deposit', { method: 'card' }, {}, { kind: 'deposit', amount: '25', currency: 'EUR' })).toBe('Deposited 25.00 EUR by card');
    expect(describeEvent('Deposit', { provider: 'Skrill' }, {}, { kind: 'deposit', amount: '0.1', currency: 'GBP' })).toBe('Deposited 0.10 GBP by Skrill');
  });

  test('a withdrawal, a bet, a win and a bonus each read as what happened, in the currency sent', () => {
    expect(describeEvent('Cashout', {}, {}, { kind: 'withdrawal', amount: '10', currency: 'EUR' })).toBe('Withdrew 10.00 EUR');
    expect(describeEvent('Cashout', { payment_method: 'bank' }, {}, { kind: 'withdrawal', amount: '10', currency: 'EUR' })).toBe('Withdrew 10.00 EUR to bank');
    expect(describeEvent('Bet', {}, {}, { kind: 'bet', amount: '1234.5', currency: 'USD' })).toBe('Bet 1,234.50 USD');
    expect(describeEvent('Win', {}, {}, { kind: 'win', amount: '7', currency: 'EUR' })).toBe('Won 7.00 EUR');
    expect(describeEvent('Bonus', {}, {}, { kind: 'bonus', amount: '5', currency: 'EUR' })).toBe('Got a bonus of 5.00 EUR');
  });

  test('a method that is not text, or blank, is left out', () => {
    expect(describeEvent('Deposit', { method: 3, provider: '  ' }, {}, { kind: 'deposit', amount: '25', currency: 'EUR' })).toBe('Deposited 25.00 EUR');
  });

  test('an event the server gave no money (unmapped, or not countable) keeps its properties instead', () => {
    expect(describeEvent('Deposit', { amount: -5, currency: 'EUR' })).toBeUndefined();
  });
});

describe('segment events in words', () => {
  test('entering and leaving name the segment, by its name when the event has it', () => {
    expect(describeEvent('urm_segment_entered', { segment_id: 'seg_1', segment_name: 'VIP' })).toBe('Entered segment “VIP”');
    expect(describeEvent('urm_segment_exited', { segment_id: 'seg_1' })).toBe('Left segment seg_1');
  });
});
