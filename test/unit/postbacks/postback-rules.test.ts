import { describe, expect, test } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { identitySecretName } from '../../../functions/domain/identity';
import {
  expandPostbackUrl,
  isPublicAddress,
  postbackEventId,
  postbackSecretName,
  postbackSecretPattern,
  postbackSignature,
  postbackUrlProblems,
  postbackValues,
  retryDelayMs,
  type DuePostback,
} from '../../../functions/domain/postbacks';

const ftdRow: DuePostback = {
  pk: 'a#app-1#aff-1',
  sk: 'f#2026-11-23#player-1',
  app_id: 'app-1',
  affiliate_id: 'aff-1',
  profile_id: 'player-1',
  link_id: 'link-1',
  sub_id: 'camp a&b=c/d',
  day: '2026-11-23',
  urm_date_time: '2026-11-23T10:00:00Z',
  amount: '50.5',
  postback_due: '2026-11-23T10:00:01Z',
};

describe('postback URL templates', () => {
  test('placeholders are replaced by URL-encoded values', () => {
    const values = postbackValues(ftdRow, 'EUR');

    const url = expandPostbackUrl(
      'https://t.example/pb?e={event}&s={sub_id}&l={link_id}&a={affiliate_id}&m={amount}&c={currency}&id={event_id}&d={date}',
      values,
    );

    expect(url).toBe(
      `https://t.example/pb?e=ftd&s=camp%20a%26b%3Dc%2Fd&l=link-1&a=aff-1&m=50.5&c=EUR&id=${postbackEventId(ftdRow.pk, ftdRow.sk)}&d=2026-11-23T10%3A00%3A00Z`,
    );
  });

  test('a registration has no amount or currency, and never the profile id', () => {
    const values = postbackValues({ ...ftdRow, sk: 'r#2026-11-23#player-1', amount: undefined }, 'EUR');

    expect(values).toMatchObject({ event: 'registration', amount: '', currency: '' });
    expect(Object.values(values)).not.toContain('player-1');
  });

  test('the event id is the same for the same row and differs between rows', () => {
    expect(postbackEventId('a#x#y', 'r#d#p')).toBe(postbackEventId('a#x#y', 'r#d#p'));
    expect(postbackEventId('a#x#y', 'r#d#p')).not.toBe(postbackEventId('a#x#y', 'f#d#p'));
  });

  test('an https URL with the documented placeholders is accepted', () => {
    expect(postbackUrlProblems('https://tracker.example.com/pb?cid={sub_id}&ev={event}&id={event_id}', [])).toEqual([]);
  });

  test.each([
    ['http://tracker.example.com/pb', 'url must be https'],
    ['https://tracker.example.com:8443/pb', 'url must use the https port 443'],
    ['https://user:pw@tracker.example.com/pb', 'url must not carry a user name or password'],
    ['https://{sub_id}.example.com/pb', 'url must not have a placeholder in its host'],
    ['https://tracker.example.com/pb?x={profile_id}', 'url has an unknown placeholder {profile_id}'],
    [`https://tracker.example.com/${'a'.repeat(1000)}`, 'url must be at most 1000 characters'],
    ['https://localhost/pb', 'url must name a public host (localhost)'],
    ['ftp://tracker.example.com/pb', 'url must be https'],
  ])('%s is refused', (url, problem) => {
    expect(postbackUrlProblems(url, [])).toContain(problem);
  });

  test.each([
    'https://169.254.169.254/latest/meta-data',
    'https://10.0.0.1/pb',
    'https://127.0.0.1/pb',
    'https://2130706433/pb', // 127.0.0.1 in decimal
    'https://0x7f.1/pb', // 127.0.0.1 in hex shorthand
    'https://017700000001/pb', // 127.0.0.1 in octal
    'https://0251.0376.0251.0376/pb', // 169.254.169.254 in octal
    'https://[::ffff:169.254.169.254]/pb',
    'https://[::1]/pb',
    'https://[fd00::1]/pb',
  ])('%s points at private space and is refused', (url) => {
    expect(postbackUrlProblems(url, []).some((problem) => problem.startsWith('url must not point at a private or reserved address'))).toBe(true);
  });

  test.each([
    ['https:{sub_id}.{amount}/pb', 'url must not have a placeholder in its host'],
    ['https:/{sub_id}.example.com/pb', 'url must not have a placeholder in its host'],
    ['https:\\\\{sub_id}.example.com/pb', 'url must not have a placeholder in its host'],
    ['HTTPS:{affiliate_id}/pb', 'url must not have a placeholder in its host'],
    ['https://tracker.example.com{sub_id}/pb', 'url must not have a placeholder in its host'],
    ['https:@{sub_id}/pb', 'url must not have a placeholder in its host'],
    ['{event}://tracker.example.com/pb', 'url must not have a placeholder in its scheme'],
    ['http{sub_id}://tracker.example.com/pb', 'url must not have a placeholder in its scheme'],
    ['https://tracker.example.com:{amount}/pb', 'url must not have a placeholder in its port'],
    ['https://tracker.example.com:44{amount}/pb', 'url must not have a placeholder in its port'],
    ['https://{sub_id}@tracker.example.com/pb', 'url must not have a placeholder in its user name or password'],
    ['https:{sub_id}:x@tracker.example.com/pb', 'url must not have a placeholder in its user name or password'],
  ])('%s lets a placeholder decide where urm connects, and is refused', (url, problem) => {
    expect(postbackUrlProblems(url, [])).toContain(problem);
  });

  test('a placeholder in the path, query or fragment is accepted, however the scheme is written', () => {
    expect(postbackUrlProblems('https://tracker.example.com/{sub_id}/pb?a={amount}#{event}', [])).toEqual([]);
  });

  test("a placeholder may not choose the host of a development host's template either", () => {
    expect(postbackUrlProblems('http:{sub_id}:4567/pb', ['127.0.0.1'])).toContain('url must not have a placeholder in its host');
  });

  test("a host on the operator's development list may be plain http on any port", () => {
    expect(postbackUrlProblems('http://127.0.0.1:4567/pb?e={event}', ['127.0.0.1'])).toEqual([]);
  });
});

describe('public addresses', () => {
  test.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '2002:0a00:0001::1',
    '2001:db8::1',
    'not an address',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('signature and retries', () => {
  test('the signature is hex HMAC-SHA256 of timestamp, a dot and the URL', () => {
    const expected = createHmac('sha256', 'secret').update('1700000000.https://t.example/pb?x=1').digest('hex');

    expect(postbackSignature('secret', '1700000000', 'https://t.example/pb?x=1')).toBe(`sha256=${expected}`);
  });

  test('retries wait 1, 2, 4 … minutes, at most an hour, and stop after 10 attempts', () => {
    const minutes = Array.from({ length: 10 }, (_, i) => retryDelayMs(i + 1)).map((ms) => (ms === undefined ? undefined : ms / 60_000));

    expect(minutes).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60, undefined]);
  });
});

describe('the postback secret names', () => {
  // The portal's function may write only names matching the pattern (its IAM grant in AWS): the names must match it.
  const matches = (name: string) =>
    new RegExp(
      `^${postbackSecretPattern
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*')}$`,
    ).test(name);

  test('every postback secret name matches the pattern its writer is granted, and no other kind of secret does', () => {
    expect(matches(postbackSecretName('app_1a2b', 'aff_3c4d'))).toBe(true);
    expect(matches(identitySecretName('app_1a2b'))).toBe(false);
    expect(matches(`${postbackSecretName('app_1a2b', 'aff_3c4d')}/../../identity`)).toBe(false);
  });
});
