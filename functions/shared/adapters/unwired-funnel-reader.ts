/**
 * Stands where the funnel table's reader goes until the funnel consumer's
 * adapter (DynamoFunnelStore, functions/shared/adapters/dynamo-funnel-store.ts)
 * is wired in its place. Nothing writes the funnel yet where this is used, so
 * it reads what there is: nothing.
 */
import type { FunnelReader } from '../domain/affiliate-program';

export const unwiredFunnelReader: FunnelReader = {
  days: async () => [],
  ftds: async () => [],
  registrations: async () => [],
};
