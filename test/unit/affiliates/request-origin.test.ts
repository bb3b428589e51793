import { describe, expect, test } from '@jest/globals';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { requestOrigin } from '../../../functions/http/request-origin';

const event = (headers: Record<string, string>, domainName?: string) =>
  ({ headers, requestContext: { domainName } }) as unknown as Pick<APIGatewayProxyEvent, 'headers' | 'requestContext'>;

describe('the origin a request was sent to', () => {
  test("is API Gateway's domain name, over HTTPS, in AWS", () => {
    expect(requestOrigin(event({ host: 'other.example.com', 'x-forwarded-proto': 'https' }, 'abc.execute-api.eu-west-1.amazonaws.com'))).toBe(
      'https://abc.execute-api.eu-west-1.amazonaws.com',
    );
  });

  test('is the Host header, over plain HTTP, in the local stack', () => {
    expect(requestOrigin(event({ host: '127.0.0.1:3000' }))).toBe('http://127.0.0.1:3000');
    expect(requestOrigin(event({ host: '[::1]:3000' }))).toBe('http://[::1]:3000');
  });

  test('takes no host that is not a host name and port', () => {
    expect(requestOrigin(event({ host: 'evil.example.com/path?x=' }))).toBe('http://localhost');
    expect(requestOrigin(event({ host: 'a b' }, undefined))).toBe('http://localhost');
  });

  test('takes only http or https from X-Forwarded-Proto', () => {
    expect(requestOrigin(event({ host: 'api.example.com', 'x-forwarded-proto': 'https' }))).toBe('https://api.example.com');
    expect(requestOrigin(event({ host: 'api.example.com', 'x-forwarded-proto': 'javascript' }))).toBe('http://api.example.com');
  });
});
