import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ANONYMOUS_PROFILE_PREFIX, lifecycleEvents as serviceLifecycleEvents } from '../../../functions/shared/domain/push';
import { ANONYMOUS_PREFIX, lifecycleEvents } from '../../../web-sdk/src/shared/records';

test('the SDK reports the lifecycle events under the names the service records', () => {
  assert.deepEqual(lifecycleEvents, serviceLifecycleEvents);
});

test('the SDK makes anonymous ids with the prefix the browser key may merge', () => {
  assert.equal(ANONYMOUS_PREFIX, ANONYMOUS_PROFILE_PREFIX);
});
