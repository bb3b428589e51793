/** The profile id of a read path (`/profiles/{profile_id}…`), shared by the profile read operations. */
import { ValidationError } from './errors';
import { limits } from './limits';
import { identifierPattern, identifierProblem } from './text';

const identifier = new RegExp(identifierPattern, 'u');

/** The path's profile id, checked like a record's. */
export function profileIdOf(pathParameters: Record<string, string | undefined> | null): string {
  const profileId = pathParameters?.profile_id ?? '';
  if (profileId.length === 0 || [...profileId].length > limits.profileIdLength) {
    throw new ValidationError([`profile_id must be 1 to ${limits.profileIdLength} characters`], 'request is invalid');
  }
  if (!identifier.test(profileId)) throw new ValidationError([`profile_id ${identifierProblem}`], 'request is invalid');
  return profileId;
}
