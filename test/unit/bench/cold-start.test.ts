/** Figure 4 of `npm run bench` measures every function that deploys, read from the manifest. */
import { expect, test } from '@jest/globals';
import { eventFunctions, httpOperations, routedFunctions, scheduledFunctions, streamConsumers } from '../../../functions/manifest/operations';
import { deployedFunctions } from '../../bench/support';

test("every handler module of the manifest is measured once: HTTP operations, the UIs' routed functions, stream consumers, scheduled and event functions", () => {
  const entries = deployedFunctions().map((definition) => definition.entry);

  expect(new Set(entries).size).toBe(entries.length);
  expect(new Set(entries)).toEqual(
    new Set([...httpOperations, ...routedFunctions, ...streamConsumers, ...scheduledFunctions, ...eventFunctions].map((definition) => definition.entry)),
  );
});
