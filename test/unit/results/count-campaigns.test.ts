import { beforeEach, describe, expect, test } from '@jest/globals';
import type { KinesisStreamBatchResponse, KinesisStreamEvent } from 'aws-lambda';
import { campaignResults, type CampaignResults } from '../../../functions/back-office/campaign-results';
import { makeCountCampaignsHandler } from '../../../functions/consumers/count-campaigns/make-handler';
import type { App } from '../../../functions/domain/apps';
import { MemoryAppStore } from '../../support/affiliates';
import { MemoryCampaignResults } from '../../support/campaign-results';
import { kinesisEvent, sequenceNumbers, type EventRecordInput } from '../../support/kinesis-event';
import { context } from '../../support/lambda';
import { MemoryRejectionLog } from '../../support/players';

const APP = 'app_1';
const JOURNEY = 'journey:welcome';
const app: App = {
  app_id: APP,
  name: 'Test',
  created_at: '2026-11-01T00:00:00Z',
  currency: 'EUR',
  money_events: { Deposit: 'deposit', Bet: 'bet', Win: 'win', Bonus: 'bonus' },
};

let store: MemoryCampaignResults;
let handler: (event: KinesisStreamEvent) => Promise<KinesisStreamBatchResponse>;
let results: () => Promise<CampaignResults>;

beforeEach(() => {
  store = new MemoryCampaignResults();
  const apps = new MemoryAppStore([app]);
  const consume = makeCountCampaignsHandler({ store, apps, rejections: new MemoryRejectionLog() });
  handler = (event) => consume(event, context());
  results = () => campaignResults({ apps, results: store })(APP, 'journey', 'welcome');
});

let sequence = 1n;
let insert = 0;
type Input = Omit<EventRecordInput, 'sequenceNumber'>;
function batchOf(records: Input[]): KinesisStreamEvent {
  const seqs = sequenceNumbers(records.length, sequence);
  sequence += BigInt(records.length);
  return kinesisEvent(records.map((record, i) => ({ ...record, sequenceNumber: seqs[i] })));
}
const event = (profileId: string, name: string, fields: Record<string, unknown> = {}, at = '2026-11-21T10:00:00Z'): Input => ({
  kind: 'event',
  record: { app_id: APP, profile_id: profileId, urm_insert_id: `ev-${++insert}`, urm_date_time: at, event: name, ...fields },
});
const ofStep = (step: string) => ({ campaign: JOURNEY, campaign_version: '1', campaign_step: step });
const sent = (profileId: string, step = 'welcome_mail', at?: string) => event(profileId, 'urm_email_sent', ofStep(step), at);
const money = (profileId: string, name: string, amount: number, at = '2026-11-22T10:00:00Z') => event(profileId, name, { amount, currency: 'EUR' }, at);

describe('counting a campaign per step', () => {
  test('each event naming the campaign counts its figure on its step, suppressions by reason', async () => {
    await handler(
      batchOf([
        event('p1', 'urm_journey_entered', { campaign: JOURNEY, journey_id: 'welcome', journey_version: 1, entry_id: 'e1' }),
        sent('p1'),
        event('p1', 'urm_email_delivered', ofStep('welcome_mail')),
        event('p1', 'urm_email_opened', ofStep('welcome_mail')),
        event('p1', 'urm_email_clicked', { ...ofStep('welcome_mail'), link: 'https://casino.example/bonus' }),
        event('p2', 'urm_message_suppressed', { ...ofStep('welcome_mail'), reason: 'rg_status', channel: 'email' }),
        event('p3', 'urm_message_suppressed', { ...ofStep('welcome_mail'), reason: 'made_up', channel: 'email' }),
        event('p4', 'urm_email_bounced', ofStep('welcome_mail')),
        event('p4', 'urm_message_failed', ofStep('reminder')),
        event('p5', 'urm_email_sent', {}),
      ]),
    );

    const { totals, steps } = await results();

    expect(steps.map((step) => step.step)).toEqual(['-', 'reminder', 'welcome_mail']);
    expect(steps[0]).toMatchObject({ entered: 1, sent: 0 });
    expect(steps[1]).toMatchObject({ failed: 1 });
    expect(steps[2]).toMatchObject({
      sent: 1,
      delivered: 1,
      opened: 1,
      opened_unique: 1,
      clicked: 1,
      clicked_unique: 1,
      bounced: 1,
      suppressed: 1,
      suppressed_by_reason: { rg_status: 1 },
    });
    expect(totals).toMatchObject({ entered: 1, sent: 1, failed: 1, suppressed: 1 });
  });

  test('a redelivered batch counts nothing twice', async () => {
    const batch = batchOf([sent('p1'), event('p1', 'urm_email_opened', ofStep('welcome_mail')), money('p1', 'Deposit', 50)]);

    await handler(batch);
    await handler(batch);

    const { totals, money: figures } = await results();
    expect(totals).toMatchObject({ sent: 1, sent_unique: 1, opened: 1, opened_unique: 1 });
    expect(figures.recipients).toMatchObject({ players: 1, depositors: 1, deposit_count: 1, deposits: '50' });
  });

  test('opens count every open, and each opener once', async () => {
    await handler(batchOf([sent('p1'), sent('p2'), ...['p1', 'p1', 'p1', 'p2'].map((p) => event(p, 'urm_email_opened', ofStep('welcome_mail')))]));

    const { totals } = await results();

    expect(totals).toMatchObject({ opened: 4, opened_unique: 2 });
  });
});

describe('money against the holdout', () => {
  test('recipients who deposit within 7 days count, with their deposits and NGR, exactly', async () => {
    await handler(
      batchOf([
        sent('p1', 'welcome_mail', '2026-11-21T10:00:00Z'),
        money('p1', 'Deposit', 0.1, '2026-11-22T10:00:00Z'),
        money('p1', 'Deposit', 0.2, '2026-11-23T10:00:00Z'),
        money('p1', 'Bet', 30.3, '2026-11-23T11:00:00Z'),
        money('p1', 'Win', 10.1, '2026-11-23T12:00:00Z'),
        money('p1', 'Bonus', 5, '2026-11-23T12:00:00Z'),
        // Eight days after the send: outside the window.
        money('p1', 'Deposit', 1000, '2026-11-29T10:00:01Z'),
        sent('p2', 'welcome_mail', '2026-11-21T10:00:00Z'),
      ]),
    );

    const { money: figures } = await results();

    expect(figures.currency).toBe('EUR');
    expect(figures.window_days).toBe(7);
    expect(figures.recipients).toEqual({
      players: 2,
      depositors: 1,
      deposit_count: 2,
      deposits: '0.3',
      ngr: '15.2',
      per_1000: { depositors: '500.00', deposits: '150.00', ngr: '7600.00' },
    });
  });

  test('money before the send, or of a player the campaign never reached, does not count', async () => {
    await handler(
      batchOf([money('p1', 'Deposit', 10, '2026-11-20T10:00:00Z'), sent('p1', 'welcome_mail', '2026-11-21T10:00:00Z'), money('p9', 'Deposit', 10)]),
    );

    const { money: figures } = await results();

    expect(figures.recipients).toMatchObject({ players: 1, depositors: 0, deposits: '0' });
  });

  test('the holdout is compared per 1,000 players, and the uplift is the difference', async () => {
    const holdout = (profileId: string) => event(profileId, 'urm_campaign_holdout', { campaign: JOURNEY, campaign_step: 'split' });
    await handler(
      batchOf([
        sent('p1'),
        sent('p2'),
        sent('p3'),
        sent('p4'),
        money('p1', 'Deposit', 100),
        money('p2', 'Deposit', 20),
        holdout('h1'),
        holdout('h2'),
        money('h1', 'Deposit', 40),
      ]),
    );

    const { money: figures, totals } = await results();

    expect(totals.holdout).toBe(2);
    expect(figures.recipients.per_1000).toEqual({ depositors: '500.00', deposits: '30000.00', ngr: '0.00' });
    expect(figures.holdout).toMatchObject({ players: 2, depositors: 1, deposits: '40', per_1000: { depositors: '500.00', deposits: '20000.00' } });
    expect(figures.uplift).toEqual({ depositors: '0.00', deposits: '10000.00', ngr: '0.00' });
  });

  test('no uplift without a holdout', async () => {
    await handler(batchOf([sent('p1'), money('p1', 'Deposit', 100)]));

    expect((await results()).money.uplift).toBeUndefined();
  });
});

describe('reading results', () => {
  test('the daily series fills the days between with zeros', async () => {
    await handler(batchOf([sent('p1', 'welcome_mail', '2026-11-20T10:00:00Z'), sent('p2', 'welcome_mail', '2026-11-22T10:00:00Z')]));

    const { days } = await results();

    expect(days).toEqual([
      { day: '2026-11-20', sent: 1, delivered: 0, opened: 0, clicked: 0 },
      { day: '2026-11-21', sent: 0, delivered: 0, opened: 0, clicked: 0 },
      { day: '2026-11-22', sent: 1, delivered: 0, opened: 0, clicked: 0 },
    ]);
  });

  test('a kind or id that names no campaign is a 400 with each problem', async () => {
    const read = campaignResults({ apps: new MemoryAppStore([app]), results: store });

    await expect(read(APP, 'segment', 'a:b')).rejects.toMatchObject({
      errors: ['kind must be one of journey, broadcast', 'id must be 1 to 128 letters, digits, _ or -'],
    });
  });
});
