/** A profile's current state, as the consumers left it. */
import type { Attributes } from '../shared/domain/attributes';
import { Forbidden, NotFound, ValidationError } from '../shared/domain/errors';
import { limits } from '../shared/domain/limits';
import { partitionKey } from '../shared/domain/stream-record';
import type { ProfileStore } from '../shared/domain/timeline';
import type { ProfileView } from './schema';

/** The path's profile id, checked like a record's. */
export function profileIdOf(pathParameters: Record<string, string | undefined> | null): string {
  const profileId = pathParameters?.profile_id ?? '';
  if (profileId.length === 0 || [...profileId].length > limits.profileIdLength) {
    throw new ValidationError([`profile_id must be 1 to ${limits.profileIdLength} characters`], 'request is invalid');
  }
  return profileId;
}

export function getProfile(profiles: Pick<ProfileStore, 'get'>) {
  return async (callerAppId: string, appId: string, profileId: string): Promise<ProfileView> => {
    if (appId !== callerAppId) throw new Forbidden();
    // Consistent: a read right after the consumer's write sees it.
    const stored = await profiles.get(partitionKey(appId, profileId), true);
    if (!stored || !stored.exists) throw new NotFound('profile not found');
    return {
      app_id: appId,
      profile_id: profileId,
      attributes: JSON.parse(stored.attrs) as Attributes,
      updated_at: stored.updated_at,
    };
  };
}
