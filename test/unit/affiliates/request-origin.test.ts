import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { requestOrigin } from '../../../functions/shared/http/request-origin';

const event = (headers: Record<string, string>, domainName?: string) =>
  ({ headers, requestContext: { domainName } }) as unknown as Pick<APIGatewayProxyEvent, 'headers' | 'requestContext'>;

describe('the origin a request was sent to', () => {
  test("is API Gateway's domain name, over HTTPS, in AWS", () => {
    assert.equal(
      requestOrigin(event({ host: 'other.example.com', 'x-forwarded-proto': 'https' }, 'abc.execute-api.eu-west-1.amazonaws.com')),
      'https://abc.execute-api.eu-west-1.amazonaws.com',
    );
  });

  test('is the Host header, over plain HTTP, in the local stack', () => {
    assert.equal(requestOrigin(event({ host: '127.0.0.1:3000' })), 'http://127.0.0.1:3000');
    assert.equal(requestOrigin(event({ host: '[::1]:3000' })), 'http://[::1]:3000');
  });

  test('takes no host that is not a host name and port', () => {
    assert.equal(requestOrigin(event({ host: 'evil.example.com/path?x=' })), 'http://localhost');
    assert.equal(requestOrigin(event({ host: 'a b' }, undefined)), 'http://localhost');
  });

  test('takes only http or https from X-Forwarded-Proto', () => {
    assert.equal(requestOrigin(event({ host: 'api.example.com', 'x-forwarded-proto': 'https' })), 'https://api.example.com');
    assert.equal(requestOrigin(event({ host: 'api.example.com', 'x-forwarded-proto': 'javascript' })), 'http://api.example.com');
  });
});
