import { expect, test } from '@jest/globals';
import { ANONYMOUS_PROFILE_PREFIX, lifecycleEvents as serviceLifecycleEvents } from '../../../functions/domain/push';
import { ANONYMOUS_PREFIX, lifecycleEvents } from '../../../web-sdk/src/shared/records';

test('the SDK reports the lifecycle events under the names the service records', () => {
  expect(lifecycleEvents).toEqual(serviceLifecycleEvents);
});

test('the SDK makes anonymous ids with the prefix the browser key may merge', () => {
  expect(ANONYMOUS_PREFIX).toBe(ANONYMOUS_PROFILE_PREFIX);
});
