/** The API reference's files as the local stack serves them: types, policy, and nothing for other methods. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { docsAssets, docsContentSecurityPolicy } from '../../lib/api-docs/site';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
before(async () => {
  stack = await testStack();
});

const get = (path: string, init: RequestInit = {}) => fetch(`${stack.baseUrl}${path}`, init);

describe('GET /docs', () => {
  for (const path of ['/docs', '/docs/', '/docs/index.html']) {
    test(`${path} is an HTML page under a same-origin-only Content-Security-Policy`, async () => {
      const answer = await get(path);

      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      const policy = answer.headers.get('content-security-policy') ?? '';
      assert.equal(policy, docsContentSecurityPolicy);
      assert.match(policy, /default-src 'none'/);
      assert.match(policy, /script-src 'self'(;|$)/);
      assert.doesNotMatch(policy, /https?:|\*|'unsafe-(inline|eval)'/, 'no remote source, no inline or eval');
      assert.match(await answer.text(), /<div id="api-reference" data-document-url="\/openapi.json" data-try-it-out="true">/);
    });
  }

  test('the page loads only scripts and styles the stack serves', async () => {
    const page = await (await get('/docs')).text();
    const loaded = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);

    assert.ok(loaded.length >= 3);
    for (const url of loaded) assert.match(url, /^\/docs\/[\w.-]+$/, url);
  });
});

describe("the renderer's files", () => {
  for (const asset of docsAssets) {
    test(`/docs/${asset.name} is served as ${asset.contentType}, byte for byte`, async () => {
      const answer = await get(`/docs/${asset.name}`);

      assert.equal(answer.status, 200);
      assert.equal(answer.headers.get('content-type'), asset.contentType);
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      assert.ok(Buffer.from(await answer.arrayBuffer()).equals(readFileSync(asset.file)));
    });
  }

  test('nothing else of swagger-ui-dist is served', async () => {
    for (const path of ['/docs/index.css', '/docs/swagger-initializer.js', '/docs/swagger-ui-bundle.js.map', '/docs/package.json']) {
      assert.equal((await get(path)).status, 404, path);
    }
  });
});

test('/openapi.json is JSON and answers HEAD without a body', async () => {
  const full = await get('/openapi.json');
  const head = await get('/openapi.json', { method: 'HEAD' });

  assert.equal(full.status, 200);
  assert.equal(full.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal((await full.json() as { openapi: string }).openapi.startsWith('3.1'), true);
  assert.equal(head.status, 200);
  assert.equal(await head.text(), '');
});

test('the reference is read-only: POST /openapi.json and POST /docs are not found', async () => {
  assert.equal((await get('/openapi.json', { method: 'POST' })).status, 404);
  assert.equal((await get('/docs', { method: 'POST' })).status, 404);
});
