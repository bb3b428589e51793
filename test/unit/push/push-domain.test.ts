import { describe, expect, test } from '@jest/globals';
import { addedWebTokenProblems, endpointProblem, parseSubscription, pushEndpointPolicy } from '../../../functions/domain/push';

describe('a stored token', () => {
  test('holds a subscription: endpoint and the two keys, nothing else kept', () => {
    const token = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/x', expirationTime: null, keys: { p256dh: 'BNc_-1', auth: 'tB3a' } });

    expect(parseSubscription(token)).toEqual({ endpoint: 'https://fcm.googleapis.com/fcm/send/x', keys: { p256dh: 'BNc_-1', auth: 'tB3a' } });
  });

  test('that is not a subscription says why', () => {
    expect(parseSubscription('apns:abc')).toBe('the token is not JSON');
    expect(parseSubscription('[1]')).toBe('the token is not a JSON object');
    expect(parseSubscription('{"endpoint":"mailto:x@y"}')).toBe('the endpoint is not an http(s) URL');
    expect(parseSubscription('{"endpoint":"https://p.example/x"}')).toBe('the token has no p256dh and auth keys');
    expect(parseSubscription('{"endpoint":"https://p.example/x","keys":{"p256dh":"a b","auth":"c"}}')).toBe('the keys are not base64url');
  });
});

describe('the endpoints the service sends to', () => {
  const browsersOnly = pushEndpointPolicy('');

  test("are the browsers' push services, over HTTPS", () => {
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/x',
      'https://android.googleapis.com/gcm/send/x',
      'https://updates.push.services.mozilla.com/wpush/v2/x',
      'https://eu.push.services.mozilla.com/wpush/v2/x',
      'https://web.push.apple.com/QGx',
      'https://wns2-par02p.notify.windows.com/w/?token=x',
    ]) {
      expect(endpointProblem(endpoint, browsersOnly)).toBe(undefined);
    }
  });

  test('are no other host, however close its name', () => {
    for (const endpoint of [
      'https://push.example.com/x',
      'https://push.apple.com.evil.example/x',
      'https://evilpush.apple.com/x',
      'https://notify.windows.com/x',
      'https://fcm.googleapis.com.evil.example/x',
      'https://169.254.169.254/latest',
      'https://[::1]:9001/2018-06-01/runtime',
      'https://localhost/x',
    ]) {
      expect(endpointProblem(endpoint, browsersOnly)).toBe('endpoint host is not a push service');
    }
  });

  test('are never plain HTTP to a push service, and never carry credentials', () => {
    expect(endpointProblem('http://fcm.googleapis.com/fcm/send/x', browsersOnly)).toBe('endpoint is not HTTPS');
    expect(endpointProblem('https://user:pw@fcm.googleapis.com/fcm/send/x', browsersOnly)).toBe('endpoint carries credentials');
    expect(endpointProblem('not a url', browsersOnly)).toBe('endpoint is not a URL');
  });

  test('include the hosts an operator configures, exactly or by *. suffix', () => {
    const policy = pushEndpointPolicy('push.example.com, *.push.example.net');

    expect(endpointProblem('https://push.example.com/x', policy)).toBe(undefined);
    expect(endpointProblem('https://eu.push.example.net/x', policy)).toBe(undefined);
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/x', policy)).toBe(undefined);
    expect(endpointProblem('https://other.example.com/x', policy)).toBe('endpoint host is not a push service');
    expect(endpointProblem('http://push.example.com/x', policy)).toBe('endpoint is not HTTPS');
  });

  test('include plain HTTP to a loopback host only when it is configured (the local push service)', () => {
    const local = pushEndpointPolicy('localhost,127.0.0.1');

    expect(endpointProblem('http://localhost:8090/notify/abc', local)).toBe(undefined);
    expect(endpointProblem('http://127.0.0.1:8090/notify/abc', local)).toBe(undefined);
    expect(endpointProblem('http://localhost:8090/notify/abc', browsersOnly)).toBe('endpoint host is not a push service');
    expect(endpointProblem('http://10.0.0.5/notify/abc', local)).toBe('endpoint host is not a push service');
  });

  test('are configured as host names: anything else fails at cold start, naming it', () => {
    expect(() => pushEndpointPolicy('https://push.example.com')).toThrow(/"https:\/\/push.example.com" is not a host name or \*\.suffix/);
    expect(() => pushEndpointPolicy('push.example.com:8443')).toThrow(/is not a host name/);
    expect(() => pushEndpointPolicy('*')).toThrow(/is not a host name/);
  });
});

describe('a token a profile record adds', () => {
  const policy = pushEndpointPolicy('');
  const subscription = (endpoint: string) => JSON.stringify({ endpoint, keys: { p256dh: 'BNc', auth: 'tB3' } });

  test('must not be a subscription of another host, wherever it is added, each named by its place', () => {
    const record = {
      urm_web_push_notification_token: [subscription('https://fcm.googleapis.com/fcm/send/x'), subscription('https://evil.example/x')],
      urm_unique_append: { urm_web_push_notification_token: [subscription('http://fcm.googleapis.com/x')] },
      urm_set_if_null: { urm_web_push_notification_token: ['{"endpoint":42}'] },
    };

    expect(addedWebTokenProblems(record, 3, policy)).toEqual([
      '[3].urm_web_push_notification_token[1] endpoint host is not a push service',
      '[3].urm_set_if_null.urm_web_push_notification_token[0] endpoint is not a URL',
      '[3].urm_unique_append.urm_web_push_notification_token[0] endpoint is not HTTPS',
    ]);
  });

  test('may be removed whatever its endpoint, and may be an opaque string (never sent to)', () => {
    const record = {
      urm_remove: { urm_web_push_notification_token: [subscription('https://evil.example/x')] },
      urm_append: { urm_web_push_notification_token: ['device-a'] },
    };

    expect(addedWebTokenProblems(record, 0, policy)).toEqual([]);
  });
});
