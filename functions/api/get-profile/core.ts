/** A profile's current state, as the consumers left it. */
import type { Attributes } from '../../domain/attributes';
import { Forbidden, NotFound } from '../../domain/errors';
import { partitionKey } from '../../domain/stream-record';
import type { ProfileStore } from '../../domain/timeline';
import type { ProfileView } from './schema';

export function getProfile(profiles: Pick<ProfileStore, 'get'>) {
  return async (callerAppId: string, appId: string, profileId: string): Promise<ProfileView> => {
    if (appId !== callerAppId) throw new Forbidden();
    // Consistent: a read right after the consumer's write sees it.
    const stored = await profiles.get(partitionKey(appId, profileId), true);
    if (!stored?.exists) throw new NotFound('profile not found');
    return {
      app_id: appId,
      profile_id: profileId,
      attributes: JSON.parse(stored.attrs) as Attributes,
      updated_at: stored.updated_at,
    };
  };
}
