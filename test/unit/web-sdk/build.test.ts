import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { runInNewContext } from 'node:vm';
import {
  budgets,
  buildSdk,
  distDir,
  PAGE_SCRIPT,
  SdkBudgetError,
  sdkIsStale,
  sdkVersion,
  versionedPageScript,
  WORKER_SCRIPT,
  type BuiltScript,
} from '../../../web-sdk/build';

let printed: string[];
let scripts: BuiltScript[];
beforeAll(() => {
  printed = [];
  scripts = buildSdk((line) => printed.push(line));
});

const read = (file: string) => readFileSync(join(distDir, file), 'utf8');

describe('the SDK build', () => {
  test('prints the gzipped size of each script, each within its budget', () => {
    expect(scripts.map((s) => s.file)).toEqual([PAGE_SCRIPT, versionedPageScript(), WORKER_SCRIPT]);
    for (const script of scripts) {
      expect(printed.some((line) => line.includes(script.file) && line.includes(`${(script.gzipBytes / 1024).toFixed(1)} KB gzipped`))).toBeTruthy();
      expect(script.gzipBytes <= script.budgetBytes).toBeTruthy();
    }
    expect(scripts[0].budgetBytes).toBe(budgets.page);
    expect(scripts[2].budgetBytes).toBe(budgets.worker);
  });

  test('writes the versioned copy with its own source map', () => {
    const versioned = read(versionedPageScript());

    expect(versioned.replace(versionedPageScript(), PAGE_SCRIPT)).toBe(read(PAGE_SCRIPT));
    expect(versioned).toMatch(new RegExp(`//# sourceMappingURL=${versionedPageScript().replace(/\./g, '\\.')}\\.map\\s*$`));
    const map = JSON.parse(read(`${versionedPageScript()}.map`)) as { sources: string[]; sourcesContent: string[] };
    expect(map.sources.some((source) => source.endsWith('src/page/client.ts'))).toBeTruthy();
    expect(map.sources.length).toBe(map.sourcesContent.length);
  });

  test('fails, naming the script and its size, when a script is over its budget', () => {
    let failure: unknown;
    try {
      buildSdk(() => undefined, { page: budgets.page, worker: 1024 });
    } catch (error) {
      failure = error;
    }

    expect(failure).toBeInstanceOf(SdkBudgetError);
    expect((failure as Error).message).toMatch(/urmSDKWorker\.js is \d+ bytes gzipped, at most 1024/);
  });

  test('is up to date afterwards: npm start and npm test do not build again', () => {
    expect(sdkIsStale()).toBe(false);
  });
});

describe('the page script', () => {
  test('is one IIFE that exposes window.urmNotification with the methods integrators call', () => {
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

    expect(Object.keys(window.urmNotification).sort()).toEqual([
      'disablePushNotification',
      'disablePushNotificationPermanent',
      'disablePushNotificationPermanentAllDevice',
      'enablePushNotification',
      'initNotification',
      'setProfileId',
      'setPushNotificationToken',
      'version',
    ]);
    expect(window.urmNotification.version).toBe(sdkVersion());
    expect(typeof window.urmChat.setProfileId).toBe('function');
  });

  test('has no dependency at run time: nothing is imported or required', () => {
    for (const file of [PAGE_SCRIPT, WORKER_SCRIPT]) {
      expect(read(file)).not.toMatch(/\brequire\(|\bimport\s*[({'"]/);
    }
  });
});
