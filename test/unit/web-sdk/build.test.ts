import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { budgets, buildSdk, distDir, PAGE_SCRIPT, SdkBudgetError, sdkIsStale, sdkVersion, versionedPageScript, WORKER_SCRIPT, type BuiltScript } from '../../../web-sdk/build';

let printed: string[];
let scripts: BuiltScript[];
before(() => {
  printed = [];
  scripts = buildSdk((line) => printed.push(line));
});

const read = (file: string) => readFileSync(join(distDir, file), 'utf8');

describe('the SDK build', () => {
  test('prints the gzipped size of each script, each within its budget', () => {
    assert.deepEqual(scripts.map((s) => s.file), [PAGE_SCRIPT, versionedPageScript(), WORKER_SCRIPT]);
    for (const script of scripts) {
      assert.ok(printed.some((line) => line.includes(script.file) && line.includes(`${(script.gzipBytes / 1024).toFixed(1)} KB gzipped`)), script.file);
      assert.ok(script.gzipBytes <= script.budgetBytes, `${script.file}: ${script.gzipBytes} > ${script.budgetBytes}`);
    }
    assert.equal(scripts[0].budgetBytes, budgets.page);
    assert.equal(scripts[2].budgetBytes, budgets.worker);
  });

  test('writes the versioned copy with its own source map', () => {
    const versioned = read(versionedPageScript());

    assert.equal(versioned.replace(versionedPageScript(), PAGE_SCRIPT), read(PAGE_SCRIPT));
    assert.match(versioned, new RegExp(`//# sourceMappingURL=${versionedPageScript().replace(/\./g, '\\.')}\\.map\\s*$`));
    const map = JSON.parse(read(`${versionedPageScript()}.map`)) as { sources: string[]; sourcesContent: string[] };
    assert.ok(map.sources.some((source) => source.endsWith('src/page/client.ts')));
    assert.equal(map.sources.length, map.sourcesContent.length);
  });

  test('fails, naming the script and its size, when a script is over its budget', () => {
    assert.throws(
      () => buildSdk(() => undefined, { page: budgets.page, worker: 1024 }),
      (error: Error) => error instanceof SdkBudgetError && /urmSDKWorker\.js is \d+ bytes gzipped, at most 1024/.test(error.message),
    );
  });

  test('is up to date afterwards: npm start and npm test do not build again', () => {
    assert.equal(sdkIsStale(), false);
  });
});

describe('the page script', () => {
  test('is one IIFE that exposes window.urmNotification with the methods of the spec', () => {
    const window: Record<string, any> = {
      document: { currentScript: { src: 'https://cdn.example.com/js/urm-notification.js?date=20261121' } },
      navigator: {},
      localStorage: {},
      isSecureContext: true,
      URL,
      URLSearchParams,
      console,
    };
    window.window = window;

    runInNewContext(read(PAGE_SCRIPT), window);

    assert.deepEqual(Object.keys(window.urmNotification).sort(), [
      'disablePushNotification',
      'disablePushNotificationPermanent',
      'disablePushNotificationPermanentAllDevice',
      'enablePushNotification',
      'initNotification',
      'setProfileId',
      'setPushNotificationToken',
      'version',
    ]);
    assert.equal(window.urmNotification.version, sdkVersion());
    assert.equal(typeof window.urmChat.setProfileId, 'function');
  });

  test('has no dependency at run time: nothing is imported or required', () => {
    for (const file of [PAGE_SCRIPT, WORKER_SCRIPT]) {
      assert.doesNotMatch(read(file), /\brequire\(|\bimport\s*[({'"]/, file);
    }
  });
});
