import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LocalStackError } from '../../../lib/local/emulators';
import { loadApiDocs } from '../../../lib/local/api-docs';

test('the local stack serves the document it built for its own base URL', async () => {
  const docs = await loadApiDocs('http://127.0.0.1:3999');

  const document = JSON.parse(docs.documentJson) as { openapi: string; servers: { url: string }[] };
  assert.match(document.openapi, /^3\.1\./);
  assert.deepEqual(document.servers, [{ url: 'http://127.0.0.1:3999' }]);
});

test('the local stack refuses to start with a document swagger-parser rejects, saying why', async () => {
  const invalid = () => ({ openapi: '3.1.0', info: { title: 'urm' }, paths: {} });

  await assert.rejects(loadApiDocs('http://127.0.0.1:3999', invalid), (error: Error) => {
    assert.ok(error instanceof LocalStackError, 'a start-up error, printed without a stack trace');
    assert.match(error.message, /API reference .* cannot be served/);
    assert.match(error.message, /version/, "the validator's own words: info.version is missing");
    return true;
  });
});
