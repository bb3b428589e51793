/**
 * The body bounds (functions/manifest/body-limits.ts) sit apart from
 * the manifest so that bundles carry only them; they must still name the
 * manifest's operations, and fit in what Lambda accepts once base64 has made
 * a body a third larger (docs/api.md, "Why 4 MiB for ingestion").
 */
import { describe, expect, test } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultMaxBodyBytes, maxBodyBytes, maxBodyBytesOf } from '../../../functions/manifest/body-limits';
import { httpOperations, httpRoutes } from '../../../functions/manifest/operations';
import { repoRoot } from '../../../lib/aws/constructs/function-defaults';

const lambdaEventBytes = 6_291_456;
const base64Bytes = (bytes: number) => Math.ceil(bytes / 3) * 4;

describe('body bounds', () => {
  test('name only POST operations of the manifest', () => {
    const posts = new Set(httpOperations.filter((operation) => operation.method === 'POST').map((operation) => operation.id));

    expect(Object.keys(maxBodyBytes).filter((id) => !posts.has(id))).toEqual([]);
  });

  test("are asked for by each handler under its own operation's id, never another's or a misspelt one (which would get the default)", () => {
    // An operation's stack is built in the make-handler.ts beside its handler.ts, when it has one.
    const sources = (entry: string) =>
      [entry, join(dirname(entry), 'make-handler.ts')]
        .filter((file) => existsSync(join(repoRoot, file)))
        .map((file) => readFileSync(join(repoRoot, file), 'utf8'));
    const asked = httpOperations.flatMap((operation) =>
      sources(operation.entry).flatMap((source) =>
        [...source.matchAll(/maxBodyBytesOf\('(\w+)'\)/g)].map((match) => ({
          operation: operation.id,
          asks: match[1],
        })),
      ),
    );

    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter(({ operation, asks }) => operation !== asks)).toEqual([]);
  });

  test('leave room in a Lambda event for the headers once base64 has encoded the body, a route’s own bound too', () => {
    const bounds = [defaultMaxBodyBytes, ...Object.values(maxBodyBytes), ...httpRoutes().flatMap((route) => route.maxBodyBytes ?? [])];

    expect(bounds.filter((bytes) => base64Bytes(bytes) > lambdaEventBytes - 512 * 1024)).toEqual([]);
  });

  test('give an operation that declares none the default, and one that does its own', () => {
    expect(maxBodyBytesOf('GetProfile')).toBe(defaultMaxBodyBytes);
    expect(maxBodyBytesOf('SendEmail')).toBe(1024 * 1024);
    expect(maxBodyBytesOf('IngestEvents')).toBe(4 * 1024 * 1024);
  });
});
