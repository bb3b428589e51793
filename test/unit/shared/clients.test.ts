import { describe, expect, test } from '@jest/globals';
import { NodeHttp2Handler, NodeHttpHandler } from '@smithy/node-http-handler';
import { kinesis } from '../../../functions/adapters/clients/kinesis';

describe('the Kinesis client', () => {
  test('speaks HTTP/1.1, which kinesalite (the local Kinesis) needs, where the SDK would pick HTTP/2', () => {
    expect(kinesis.config.requestHandler).toBeInstanceOf(NodeHttpHandler);
    expect(kinesis.config.requestHandler).not.toBeInstanceOf(NodeHttp2Handler);
  });
});
