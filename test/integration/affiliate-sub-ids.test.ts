/**
 * Sub-ids through HTTP on the local stack: clicks on a tracking link with two
 * sub-ids, then the players' registrations and deposits, show as rows by
 * sub-id in the report API and the portal's CSV; and 10,000 distinct sub-ids
 * on one link and day keep the rows bounded (100 and `(other)`), with exact
 * totals. The 10,000 clicks go through the funnel consumer's handler in
 * process, as the stream would deliver them (100 records a batch), against
 * the stack's own tables: the click address counts at most 3 new visitors per
 * link, address and day, so HTTP could never make them.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, jest, test } from '@jest/globals';
import { DynamoAppStore } from '../../functions/adapters/dynamo-app-store';
import { DynamoPostbackSettings } from '../../functions/adapters/dynamo-postback-store';
import { DynamoFunnelStore } from '../../functions/adapters/dynamo-funnel-store';
import { DynamoRejectionLog } from '../../functions/adapters/dynamo-rejection-log';
import { createLink } from '../../functions/back-office/affiliate-links';
import type { BackOffice } from '../../functions/back-office/ports';
import { makeCountFunnelHandler } from '../../functions/consumers/count-funnel/make-handler';
import { tables } from '../../functions/manifest/resources';
import { logger } from '../../functions/runtime/logger';
import { localBackOffice, localClients } from '../../lib/local/stack';
import { moneyEvent, setAffiliate } from '../support/funnel';
import { request } from '../support/http';
import { kinesisEvent, sequenceNumbers } from '../support/kinesis-event';
import { context } from '../support/lambda';
import { testStack, type TestStack } from '../support/local-stack';
import { PortalVisitor, registeredAffiliate } from '../support/portal';
import { send, until } from '../support/profiles';

let stack: TestStack;
let office: BackOffice;
let document: ReturnType<typeof localClients>['document'];
beforeAll(async () => {
  stack = await testStack();
  document = localClients(stack.endpoints).document;
  office = localBackOffice(document);
});

const today = () => new Date().toISOString().slice(0, 10);

const reportOf = (affiliateId: string, groupBy: string) =>
  request(stack.baseUrl, 'GET', `/api/affiliates/${encodeURIComponent(affiliateId)}/report?from=${today()}&to=${today()}&group_by=${groupBy}`, {
    key: stack.dev.server_key,
  });

/** A click as a browser makes it: each a visitor of its own (its own agent), not following the redirect. */
const click = (linkId: string, subId: string) =>
  fetch(`${stack.baseUrl}/t/${linkId}?urm_aff=${subId}`, { redirect: 'manual', headers: { 'User-Agent': `sub-id-test ${randomUUID()}` } });

async function affiliateWithLink(name: string) {
  const affiliate = await registeredAffiliate(stack, stack.dev.app_id, stack.dev.server_key);
  const link = await createLink(office)(stack.dev.app_id, affiliate.affiliate_id, { name, landing_url: `${stack.baseUrl}/?welcome=1` });
  return { affiliate, link };
}

describe('sub-ids through HTTP', () => {
  test('clicks with two sub-ids, then registrations and deposits, show as rows by sub-id in the report API and the CSV', async () => {
    const run = randomUUID().slice(0, 8);
    const { affiliate, link } = await affiliateWithLink('Spring banner');
    // Three clicks: the click address counts at most 3 new visitors per link and address a day.
    for (const subId of ['spring', 'spring', 'autumn']) expect((await click(link.link_id, subId)).status).toBe(302);
    const players = [
      { id: `spring-${run}`, subId: 'spring', deposit: 100 },
      { id: `autumn-${run}`, subId: 'autumn', deposit: 10.5 },
    ];
    for (const player of players) {
      await setAffiliate(stack, { profile_id: player.id, urm_aff_id: affiliate.affiliate_id, urm_aff_link_id: link.link_id, urm_aff: player.subId });
    }
    await send(
      stack,
      '/events',
      players.map((player, i) => ({ ...moneyEvent(stack, player.id, 'Deposit', player.deposit), urm_insert_id: `${run}-${i}` })),
    );

    const answered = await until(
      () => reportOf(affiliate.affiliate_id, 'sub_id'),
      // The link's day row is written before its sub-id rows: until those follow, the rest shows as "(none)".
      (r) =>
        r.status === 200 &&
        r.body.totals.clicks === 3 &&
        r.body.totals.ftds === 2 &&
        r.body.sub_ids.reduce((sum: number, row: { sub_id: string; ftds: number }) => sum + (row.sub_id === '(none)' ? 0 : row.ftds), 0) === 2,
      'the report to show the clicks and first deposits, by sub-id',
      60_000,
    );

    const rows = answered.body.sub_ids.map((row: Record<string, unknown>) => [
      row.sub_id,
      row.name,
      row.clicks,
      row.registrations,
      row.ftds,
      row.deposits,
      row.cpa,
      row.registration_rate,
      row.ftd_rate,
    ]);
    // The demo plan pays CPA 50.00 for a first deposit of at least 20.00.
    expect(rows).toEqual([
      ['autumn', 'Spring banner', 1, 1, 1, '10.50', '0.00', '1.0000', '1.0000'],
      ['spring', 'Spring banner', 2, 1, 1, '100.00', '50.00', '0.5000', '1.0000'],
    ]);
    expect(answered.body.totals).toMatchObject({ clicks: 3, registrations: 2, ftds: 2, registration_rate: '0.6667', ftd_rate: '1.0000' });
    expect(answered.body.days).toBeUndefined();

    const portal = new PortalVisitor(stack.baseUrl, stack.dev.app_id);
    expect((await portal.signIn(affiliate.username, affiliate.password)).status).toBe(303);
    const csv = await portal.get(`report.csv?from=${today()}&to=${today()}`);
    expect(csv.status).toBe(200);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0].split(',').slice(-3)).toEqual(['sub_id', 'registration_rate', 'ftd_rate']);
    expect(lines.filter((line) => line.startsWith('sub_id,'))).toEqual([
      `sub_id,,${link.link_id},Spring banner,1,1,1,0,10.50,0.00,0.00,0.00,0.00,0.00,EUR,autumn,1.0000,1.0000`,
      `sub_id,,${link.link_id},Spring banner,2,1,1,1,100.00,0.00,0.00,50.00,0.00,50.00,EUR,spring,0.5000,1.0000`,
    ]);
  });

  test('10,000 distinct sub-ids on one link and day keep the rows bounded: 100 and (other), and the totals exact', async () => {
    jest.spyOn(logger, 'info').mockImplementation(() => {});
    const { affiliate, link } = await affiliateWithLink('Flood');
    const count = jest.fn();
    const handle = makeCountFunnelHandler({
      store: new DynamoFunnelStore(document, tables.funnel.localName),
      apps: new DynamoAppStore(document, tables.apps.localName),
      rejections: new DynamoRejectionLog(document, tables.rejections.localName),
      postbackSettings: new DynamoPostbackSettings(document, tables.affiliates.localName),
      now: () => new Date(),
    });
    const total = 10_000;
    const perBatch = 100;
    const seqs = sequenceNumbers(total, BigInt(Date.now()) * 1_000_000n);
    const at = new Date().toISOString();
    for (let batch = 0; batch < total / perBatch; batch++) {
      const records = Array.from({ length: perBatch }, (_, i) => {
        const n = batch * perBatch + i;
        return {
          kind: 'click' as const,
          shardId: `shardId-sub-ids-${affiliate.affiliate_id}`,
          sequenceNumber: seqs[n],
          record: {
            app_id: stack.dev.app_id,
            profile_id: `urm-visitor-${n}`,
            urm_insert_id: randomUUID(),
            urm_date_time: at,
            affiliate_id: affiliate.affiliate_id,
            link_id: link.link_id,
            sub_id: `src-${String(n).padStart(5, '0')}`,
          },
        };
      });
      const response = await handle(kinesisEvent(records), context());
      count(response);
    }
    expect(count.mock.calls.every(([response]) => JSON.stringify(response) === JSON.stringify({ batchItemFailures: [] }))).toBe(true);

    const answered = await reportOf(affiliate.affiliate_id, 'sub_id');

    expect(answered.status).toBe(200);
    const rows: { sub_id: string; clicks: number }[] = answered.body.sub_ids;
    expect(rows).toHaveLength(101);
    expect(rows.slice(0, 100).map((row) => row.sub_id)).toEqual(Array.from({ length: 100 }, (_, n) => `src-${String(n).padStart(5, '0')}`));
    expect(rows[100]).toMatchObject({ sub_id: '(other)', clicks: total - 100 });
    expect(rows.reduce((n, row) => n + row.clicks, 0)).toBe(total);
    expect(answered.body.totals).toMatchObject({ clicks: total, registration_rate: '0.0000', ftd_rate: null });
  }, 120_000);
});
