/** The API reference's files as the local stack serves them: types, policy, and nothing for other methods. */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { docsAssets, docsContentSecurityPolicy } from '../../lib/api-docs/site';
import { testStack, type TestStack } from '../support/local-stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await testStack();
});

const get = (path: string, init: RequestInit = {}) => fetch(`${stack.baseUrl}${path}`, init);

describe('GET /docs', () => {
  for (const path of ['/docs', '/docs/', '/docs/index.html']) {
    test(`${path} is an HTML page under a same-origin-only Content-Security-Policy`, async () => {
      const answer = await get(path);

      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      const policy = answer.headers.get('content-security-policy') ?? '';
      expect(policy).toBe(docsContentSecurityPolicy);
      expect(policy).toMatch(/default-src 'none'/);
      expect(policy).toMatch(/script-src 'self'(;|$)/);
      expect(policy).not.toMatch(/https?:|\*|'unsafe-(inline|eval)'/);
      expect(await answer.text()).toMatch(/<div id="api-reference" data-document-url="\/openapi.json" data-try-it-out="true">/);
    });
  }

  test('the page loads only scripts and styles the stack serves', async () => {
    const page = await (await get('/docs')).text();
    const loaded = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);

    expect(loaded.length >= 3).toBeTruthy();
    for (const url of loaded) expect(url).toMatch(/^\/docs\/[\w.-]+$/);
  });
});

describe("the renderer's files", () => {
  for (const asset of docsAssets) {
    test(`/docs/${asset.name} is served as ${asset.contentType}, byte for byte`, async () => {
      const answer = await get(`/docs/${asset.name}`);

      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe(asset.contentType);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await answer.arrayBuffer()).equals(readFileSync(asset.file))).toBeTruthy();
    });
  }

  test('nothing else of swagger-ui-dist is served', async () => {
    for (const path of ['/docs/index.css', '/docs/swagger-initializer.js', '/docs/swagger-ui-bundle.js.map', '/docs/package.json']) {
      expect((await get(path)).status).toBe(404);
    }
  });
});

test('/openapi.json is JSON and answers HEAD without a body', async () => {
  const full = await get('/openapi.json');
  const head = await get('/openapi.json', { method: 'HEAD' });

  expect(full.status).toBe(200);
  expect(full.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(((await full.json()) as { openapi: string }).openapi.startsWith('3.1')).toBe(true);
  expect(head.status).toBe(200);
  expect(await head.text()).toBe('');
});

test('the reference is read-only: POST /openapi.json and POST /docs are not found', async () => {
  expect((await get('/openapi.json', { method: 'POST' })).status).toBe(404);
  expect((await get('/docs', { method: 'POST' })).status).toBe(404);
});
