/**
 * The links page: the signed-in affiliate's links and the creation of one,
 * through the programme's link use cases (back-office/affiliate-links.ts), so
 * the portal and `npm run admin -- link …` apply the same rules.
 */
import type { LinkRecord } from '../domain/affiliate-program';
import { ValidationError } from '../domain/errors';

export interface LinkFieldErrors {
  name?: string;
  landing_url?: string;
}

/** The use case's refusals, by field, in words for a person rather than an API client. */
export function linkFieldErrors(error: ValidationError): LinkFieldErrors {
  const errors: LinkFieldErrors = {};
  for (const problem of error.errors) {
    if (problem.startsWith('landing_url')) errors.landing_url ??= `The landing page${problem.slice('landing_url'.length)}.`;
    else if (problem.startsWith('name')) errors.name ??= `The name${problem.slice('name'.length)}.`;
  }
  return errors;
}

export type CreateLinkOutcome = { created: true; link: LinkRecord } | { created: false; errors: LinkFieldErrors };

export async function createLinkFor(
  create: (appId: string, affiliateId: string, input: { name: string; landing_url: string }) => Promise<LinkRecord>,
  appId: string,
  affiliateId: string,
  input: { name: string; landing_url: string },
): Promise<CreateLinkOutcome> {
  try {
    return { created: true, link: await create(appId, affiliateId, input) };
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { created: false, errors: linkFieldErrors(error) };
  }
}
