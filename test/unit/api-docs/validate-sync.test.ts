import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidOpenApiDocumentError, validateOpenApiDocumentSync } from '../../../lib/api-docs/validate-sync';
import { buildOpenApiDocument } from '../../../lib/api-docs/document';

test('the document the CDN publishes passes the synchronous validation synthesis runs', () => {
  assert.doesNotThrow(() => validateOpenApiDocumentSync(buildOpenApiDocument({ serverUrl: 'https://api.example.test/prod/' })));
});

test('an invalid document fails the synchronous validation with the validator naming the problem', () => {
  const document = buildOpenApiDocument();
  const broken = { ...document, paths: { '/profiles': { post: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Nowhere' } } } } } } } } };

  assert.throws(() => validateOpenApiDocumentSync(broken), (error: Error) => {
    assert.ok(error instanceof InvalidOpenApiDocumentError);
    assert.match(error.message, /API reference .* cannot be published/);
    assert.match(error.message, /Nowhere/);
    return true;
  });
});
