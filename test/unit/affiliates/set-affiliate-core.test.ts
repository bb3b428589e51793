import { describe, expect, test } from '@jest/globals';
import { AttributionNotWritten, affiliateAttributedEvent, setAffiliate } from '../../../functions/api/set-affiliate/core';
import { Forbidden } from '../../../functions/domain/errors';
import type { RecordWriter } from '../../../functions/domain/ingest';
import { decodeEnvelope } from '../../../functions/domain/stream-record';
import { MemoryStream } from '../../support/memory-stream';

const messageId = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';
const now = new Date('2026-11-21T10:00:00.000Z');
const deps = (writer: RecordWriter) => ({ writer, newId: () => messageId, now: () => now });
const input = { app_id: 'app_1', profile_id: 'player-1', urm_aff_id: 'aff-7', urm_aff: 'summer' };

describe('set_affiliate', () => {
  test('writes a profile record and then an event, in one write, under the profile partition key', async () => {
    const stream = new MemoryStream();

    await setAffiliate(deps(stream))(input, 'app_1');

    expect(stream.writes.length).toBe(1);
    const [profile, event] = stream.writes[0];
    expect(profile.partitionKey).toBe('app_1#player-1');
    expect(event.partitionKey).toBe('app_1#player-1');
    expect(stream.writes[0].map((entry) => decodeEnvelope(entry.data).kind)).toEqual(['profile', 'event']);
  });

  test('the profile record sets only the given tracking parameters, where the profile has none yet', async () => {
    const stream = new MemoryStream();

    await setAffiliate(deps(stream))(input, 'app_1');

    expect(decodeEnvelope(stream.writes[0][0].data).record).toEqual({
      app_id: 'app_1',
      profile_id: 'player-1',
      urm_date_time: '2026-11-21T10:00:00.000Z',
      urm_insert_id: messageId,
      urm_set_if_null: { urm_aff_id: 'aff-7', urm_aff: 'summer' },
    });
  });

  test('the event is urm_affiliate_attributed with the tracking parameters as attributes', async () => {
    const stream = new MemoryStream();

    await setAffiliate(deps(stream))(input, 'app_1');

    const envelope = decodeEnvelope(stream.writes[0][1].data);
    expect(envelope.received_at).toBe('2026-11-21T10:00:00.000Z');
    expect(envelope.record).toEqual({
      app_id: 'app_1',
      profile_id: 'player-1',
      event: affiliateAttributedEvent,
      urm_date_time: '2026-11-21T10:00:00.000Z',
      urm_insert_id: messageId,
      urm_aff_id: 'aff-7',
      urm_aff: 'summer',
    });
    expect(affiliateAttributedEvent).toBe('urm_affiliate_attributed');
  });

  test('answers "Affiliate set" with the message id both records carry', async () => {
    const answer = await setAffiliate(deps(new MemoryStream()))(input, 'app_1');

    expect(answer).toEqual({ message: 'Affiliate set', message_id: messageId });
  });

  for (const refused of [[0], [1], [0, 1]]) {
    test(`does not claim success when the stream refuses record(s) ${refused.join(' and ')}`, async () => {
      const attempt = setAffiliate(deps(new MemoryStream(refused)))(input, 'app_1');

      await expect(attempt).rejects.toThrow(AttributionNotWritten);
      await expect(attempt).rejects.toMatchObject({ failed: refused.length });
    });
  }

  test("refuses another application's profile and writes nothing", async () => {
    const stream = new MemoryStream();

    await expect(setAffiliate(deps(stream))(input, 'app_2')).rejects.toThrow(Forbidden);
    expect(stream.writes.length).toBe(0);
  });
});
