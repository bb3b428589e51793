/**
 * Attributes a player to an affiliate: one profile record that sets the
 * tracking parameters where the profile has none yet (first attribution
 * wins, per attribute), and one `urm_affiliate_attributed` event for the
 * timeline, written together in one stream write. Both carry the message id
 * as their `urm_insert_id`: profile records are deduplicated per profile
 * among profile records, timeline entries per profile among events, so the
 * two never collide, and each is stored once however often it is delivered.
 */
import { toStreamEntries, type IngestDeps } from '../../domain/ingest';
import { affiliateAttributedEvent } from '../../domain/money-settings';
import { trackingParameters, type AffiliateSet, type SetAffiliateInput } from './schema';

// The funnel consumer counts registrations from this event (functions/domain/funnel.ts).
export { affiliateAttributedEvent };

/** The stream refused part of the write: the attribution is not complete, and the caller should retry. */
export class AttributionNotWritten extends Error {
  override name = 'AttributionNotWritten';
  constructor(readonly failed: number) {
    super(`the stream refused ${failed} of the attribution's records`);
  }
}

export function setAffiliate(deps: IngestDeps) {
  return async (input: SetAffiliateInput, callerAppId: string): Promise<AffiliateSet> => {
    const messageId = deps.newId();
    const now = deps.now();
    const at = { newId: deps.newId, now: () => now };
    const parameters = Object.fromEntries(trackingParameters.filter((name) => input[name] !== undefined).map((name) => [name, input[name] as string]));
    const common = { app_id: input.app_id, profile_id: input.profile_id, urm_date_time: now.toISOString(), urm_insert_id: messageId };
    const entries = [
      ...toStreamEntries('profile', [{ ...common, urm_set_if_null: parameters }], callerAppId, at),
      ...toStreamEntries('event', [{ ...common, event: affiliateAttributedEvent, ...parameters }], callerAppId, at),
    ];
    const receipt = await deps.writer.write(entries);
    if (receipt.FailedRecordCount > 0) throw new AttributionNotWritten(receipt.FailedRecordCount);
    return { message: 'Affiliate set', message_id: messageId };
  };
}
