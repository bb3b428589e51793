import { expect, test } from '@jest/globals';
import { LocalStackError } from '../../../lib/local/emulators';
import { loadApiDocs } from '../../../lib/local/api-docs';

test('the local stack serves the document it built for its own base URL', async () => {
  const docs = await loadApiDocs('http://127.0.0.1:3999');

  const document = JSON.parse(docs.documentJson) as { openapi: string; servers: { url: string }[] };
  expect(document.openapi).toMatch(/^3\.1\./);
  expect(document.servers).toEqual([{ url: 'http://127.0.0.1:3999' }]);
});

test('the local stack refuses to start with a document swagger-parser rejects, saying why', async () => {
  const invalid = () => ({ openapi: '3.1.0', info: { title: 'urm' }, paths: {} });

  const loading = loadApiDocs('http://127.0.0.1:3999', invalid);

  await expect(loading).rejects.toThrow(LocalStackError);
  await expect(loading).rejects.toThrow(/API reference .* cannot be served/);
  await expect(loading).rejects.toThrow(/version/);
});
