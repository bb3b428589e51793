import { describe, expect, test } from '@jest/globals';
import type { EventBridgeEvent } from 'aws-lambda';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeEmailEventsHandler } from '../../../functions/consumers/email-events/make-handler';
import { profileTags } from '../../../functions/domain/email-events';
import { trackingEvent, type SendEmailRequestBody, type SesEventBridgeEvent } from '../../../lib/local/ses-simulator';
import { rewriteLinks, sesTracking } from '../../../lib/local/ses-tracking';
import { context } from '../../support/lambda';
import { MemoryStream } from '../../support/memory-stream';

const sentAt = new Date('2026-11-21T10:00:00.000Z');
const campaignTags = { campaign_kind: 'journey', campaign_id: 'welcome', campaign_version: '3', campaign_step: 'mail_1' };
const request = (
  tags: Record<string, string> = campaignTags,
  html = '<p><a href="https://casino.example/bonus?code=X&amp;u=ann@example.com">Claim</a></p>',
): SendEmailRequestBody => ({
  FromEmailAddress: 'news@example.com',
  Destination: { ToAddresses: ['ann@example.com'] },
  EmailTags: Object.entries({ app_id: 'app_1', channel_id: 'ch_news', ...profileTags('player-1'), ...tags }).map(([Name, Value]) => ({ Name, Value })),
  Content: { Simple: { Body: { Html: { Data: html } } } },
});

function fakes() {
  const stream = new MemoryStream();
  const handler = makeEmailEventsHandler({ writer: stream, now: () => new Date('2026-11-21T10:05:00.000Z'), newId: () => 'new-id' });
  return { stream, handle: (event: EventBridgeEvent<string, unknown>) => handler(event, context('EmailEventsFunction')) };
}

describe('opens and clicks of urm mail', () => {
  test('an open is urm_email_opened with the campaign, its version and step, and no address', async () => {
    const { stream, handle } = fakes();
    const open = trackingEvent(request(), 'ses-msg-1', sentAt, 'eu-west-1', { type: 'Open', at: new Date('2026-11-21T11:00:00Z'), userAgent: 'Mail' });

    expect(await handle(open)).toEqual({ written: 1 });

    expect(stream.envelopes()[0].record).toEqual({
      app_id: 'app_1',
      profile_id: 'player-1',
      urm_date_time: '2026-11-21T11:00:00.000Z',
      urm_insert_id: expect.stringMatching(/^urm-ses-open-ses-msg-1-[0-9a-f]{24}$/),
      event: 'urm_email_opened',
      message_id: 'ses-msg-1',
      channel_id: 'ch_news',
      campaign: 'journey:welcome',
      campaign_version: '3',
      campaign_step: 'mail_1',
    });
  });

  test('a click is urm_email_clicked with the link without its query, which may hold a token or an address', async () => {
    const { stream, handle } = fakes();
    const link = 'https://casino.example/bonus?code=X&u=ann@example.com#top';
    const click = trackingEvent(request(), 'ses-msg-1', sentAt, 'eu-west-1', { type: 'Click', at: new Date('2026-11-21T11:00:00Z'), userAgent: 'Mail', link });

    await handle(click);

    const record = stream.envelopes()[0].record;
    expect(record).toMatchObject({ event: 'urm_email_clicked', link: 'https://casino.example/bonus', campaign: 'journey:welcome' });
    expect(JSON.stringify(record)).not.toContain('ann@example.com');
  });

  test('two opens of one mail are two events; the same open redelivered is one', async () => {
    const { stream, handle } = fakes();
    const first = trackingEvent(request(), 'ses-msg-1', sentAt, 'eu-west-1', { type: 'Open', at: new Date('2026-11-21T11:00:00Z'), userAgent: 'Mail' });
    const second = trackingEvent(request(), 'ses-msg-1', sentAt, 'eu-west-1', { type: 'Open', at: new Date('2026-11-21T12:00:00Z'), userAgent: 'Mail' });

    await handle(first);
    await handle(first);
    await handle(second);

    const ids = stream.envelopes().map((envelope) => envelope.record.urm_insert_id);
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  test('campaign tags that are not a campaign urm writes are left off', async () => {
    const { stream, handle } = fakes();
    const open = trackingEvent(request({ campaign_kind: 'segment', campaign_id: 'x' }), 'ses-msg-1', sentAt, 'eu-west-1', {
      type: 'Open',
      at: sentAt,
      userAgent: '',
    });

    await handle(open);

    expect(stream.envelopes()[0].record).not.toHaveProperty('campaign');
  });
});

describe('the local SES tracking', () => {
  test('rewrites http(s) links, leaving mailto, anchors and ses:no-track links as written', () => {
    const html = '<a href="https://a.example/x">A</a><a href="mailto:x@y">M</a><a href="#top">T</a><a ses:no-track href="https://b.example/">B</a>';

    const { html: rewritten, links } = rewriteLinks(html, (index) => `https://t/${index}`);

    expect(links).toEqual(['https://a.example/x']);
    expect(rewritten).toBe('<a href="https://t/0">A</a><a href="mailto:x@y">M</a><a href="#top">T</a><a ses:no-track href="https://b.example/">B</a>');
  });

  async function serving() {
    const published: SesEventBridgeEvent[] = [];
    let base = '';
    const tracking = sesTracking({ baseUrl: '', region: 'eu-west-1', publish: (event) => published.push(event) });
    const server: Server = createServer((req, res) => {
      if (!tracking.serve(req, res)) res.writeHead(418).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (body: SendEmailRequestBody) => {
      const prepared = tracking.prepare(Buffer.from(JSON.stringify(body)));
      prepared.accepted('ses-msg-1', sentAt);
      return (JSON.parse(prepared.body.toString()) as SendEmailRequestBody).Content!.Simple!.Body!.Html!.Data!;
    };
    return { published, base: () => base, send, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  test("a campaign's mail gets a pixel and tracked links; fetching them publishes SES's Open and Click, and the click goes to the mail's link", async () => {
    const local = await serving();
    try {
      const html = local.send(request());
      const click = /href="([^"]+)"/.exec(html)![1];
      const pixel = /<img src="([^"]+)"/.exec(html)![1];

      const clicked = await fetch(`${local.base()}${click}`, { redirect: 'manual' });
      const opened = await fetch(`${local.base()}${pixel}`);

      expect(clicked.status).toBe(302);
      expect(clicked.headers.get('location')).toBe('https://casino.example/bonus?code=X&u=ann@example.com');
      expect(opened.headers.get('content-type')).toBe('image/gif');
      expect(local.published.map((event) => [event['detail-type'], event.detail.mail.messageId])).toEqual([
        ['Email Clicked', 'ses-msg-1'],
        ['Email Opened', 'ses-msg-1'],
      ]);
    } finally {
      await local.close();
    }
  });

  test('is no open redirect: an unknown token, a link index the mail lacks, or a URL in the request is a 404', async () => {
    const local = await serving();
    try {
      const html = local.send(request());
      const click = /href="([^"]+)"/.exec(html)![1];
      const token = click.split('/')[3];

      for (const path of [
        `/track/click/${token}/1`,
        `/track/click/${'A'.repeat(22)}/0`,
        `/track/click/${token}/0/https:%2F%2Fevil.example`,
        `/track/click/x?u=https://evil.example`,
      ]) {
        const answer = await fetch(`${local.base()}${path}`, { redirect: 'manual' });
        expect([path, answer.status]).toEqual([path, 404]);
      }
      expect(local.published).toEqual([]);
    } finally {
      await local.close();
    }
  });

  test('mail that is not a campaign’s keeps its links and gets no pixel', async () => {
    const local = await serving();
    try {
      const original = request({});
      expect(local.send(original)).toBe(original.Content!.Simple!.Body!.Html!.Data);
    } finally {
      await local.close();
    }
  });
});
