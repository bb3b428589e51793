import { describe, expect, test } from '@jest/globals';
import { endpointProblem, parseSubscription } from '../../../functions/shared/domain/push';

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
  test('are HTTPS to a named host', () => {
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/x', false)).toBe(undefined);
    expect(endpointProblem('https://updates.push.services.mozilla.com/wpush/v2/x', false)).toBe(undefined);
  });

  test('are never plain HTTP, an IP address, the loopback host, or carry credentials', () => {
    expect(endpointProblem('http://push.example.com/x', false)).toBe('the endpoint is not HTTPS');
    expect(endpointProblem('https://169.254.169.254/latest', false)).toBe('the endpoint is not a named host');
    expect(endpointProblem('https://[::1]:9001/2018-06-01/runtime', false)).toBe('the endpoint is not a named host');
    expect(endpointProblem('https://localhost/x', false)).toBe('the endpoint is not a named host');
    expect(endpointProblem('https://user:pw@push.example.com/x', false)).toBe('the endpoint carries credentials');
  });

  test('include plain HTTP to the loopback host only where configured (the local push service)', () => {
    expect(endpointProblem('http://localhost:8090/notify/abc', true)).toBe(undefined);
    expect(endpointProblem('http://127.0.0.1:8090/notify/abc', true)).toBe(undefined);
    expect(endpointProblem('http://localhost:8090/notify/abc', false)).toBe('the endpoint is not HTTPS');
    expect(endpointProblem('http://10.0.0.5/notify/abc', true)).toBe('the endpoint is not HTTPS');
  });
});
