import { expect, test } from '@jest/globals';
import { InvalidOpenApiDocumentError, validateOpenApiDocumentSync } from '../../../lib/api-docs/validate-sync';
import { buildOpenApiDocument } from '../../../lib/api-docs/document';

test('the document the CDN publishes passes the synchronous validation synthesis runs', () => {
  expect(() => validateOpenApiDocumentSync(buildOpenApiDocument({ serverUrl: 'https://api.example.test/prod/' }))).not.toThrow();
});

test('an invalid document fails the synchronous validation with the validator naming the problem', () => {
  const document = buildOpenApiDocument();
  const broken = {
    ...document,
    paths: {
      '/profiles': {
        post: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Nowhere' } } } } } },
      },
    },
  };

  const validate = () => validateOpenApiDocumentSync(broken);

  expect(validate).toThrow(InvalidOpenApiDocumentError);
  expect(validate).toThrow(/API reference .* cannot be published/);
  expect(validate).toThrow(/Nowhere/);
});
