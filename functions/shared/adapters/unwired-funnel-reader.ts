/**
 * Stands where the funnel table's reader goes until the funnel consumer's
 * adapter (DynamoFunnelStore, functions/shared/adapters/dynamo-funnel-store.ts)
 * is wired in its place: reading through it fails loudly rather than report
 * zeros that would look true.
 */
import type { FunnelReader } from '../domain/affiliate-program';

const unwired = async (): Promise<never> => {
  throw new Error('the funnel reader is not wired yet (DynamoFunnelStore over the funnel table)');
};

export const unwiredFunnelReader: FunnelReader = { days: unwired, ftds: unwired, registrations: unwired };
