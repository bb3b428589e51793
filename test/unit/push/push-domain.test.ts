import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { endpointProblem, parseSubscription } from '../../../functions/shared/domain/push';

describe('a stored token', () => {
  test('holds a subscription: endpoint and the two keys, nothing else kept', () => {
    const token = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/x', expirationTime: null, keys: { p256dh: 'BNc_-1', auth: 'tB3a' } });

    assert.deepEqual(parseSubscription(token), { endpoint: 'https://fcm.googleapis.com/fcm/send/x', keys: { p256dh: 'BNc_-1', auth: 'tB3a' } });
  });

  test('that is not a subscription says why', () => {
    assert.equal(parseSubscription('apns:abc'), 'the token is not JSON');
    assert.equal(parseSubscription('[1]'), 'the token is not a JSON object');
    assert.equal(parseSubscription('{"endpoint":"mailto:x@y"}'), 'the endpoint is not an http(s) URL');
    assert.equal(parseSubscription('{"endpoint":"https://p.example/x"}'), 'the token has no p256dh and auth keys');
    assert.equal(parseSubscription('{"endpoint":"https://p.example/x","keys":{"p256dh":"a b","auth":"c"}}'), 'the keys are not base64url');
  });
});

describe('the endpoints the service sends to', () => {
  test('are HTTPS to a named host', () => {
    assert.equal(endpointProblem('https://fcm.googleapis.com/fcm/send/x', false), undefined);
    assert.equal(endpointProblem('https://updates.push.services.mozilla.com/wpush/v2/x', false), undefined);
  });

  test('are never plain HTTP, an IP address, the loopback host, or carry credentials', () => {
    assert.equal(endpointProblem('http://push.example.com/x', false), 'the endpoint is not HTTPS');
    assert.equal(endpointProblem('https://169.254.169.254/latest', false), 'the endpoint is not a named host');
    assert.equal(endpointProblem('https://[::1]:9001/2018-06-01/runtime', false), 'the endpoint is not a named host');
    assert.equal(endpointProblem('https://localhost/x', false), 'the endpoint is not a named host');
    assert.equal(endpointProblem('https://user:pw@push.example.com/x', false), 'the endpoint carries credentials');
  });

  test('include plain HTTP to the loopback host only where configured (the local push service)', () => {
    assert.equal(endpointProblem('http://localhost:8090/notify/abc', true), undefined);
    assert.equal(endpointProblem('http://127.0.0.1:8090/notify/abc', true), undefined);
    assert.equal(endpointProblem('http://localhost:8090/notify/abc', false), 'the endpoint is not HTTPS');
    assert.equal(endpointProblem('http://10.0.0.5/notify/abc', true), 'the endpoint is not HTTPS');
  });
});
