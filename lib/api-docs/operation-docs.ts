/**
 * What the document says of each operation of functions/manifest/operations.ts, beside what
 * that file says (method, path, id): the function's own request and response
 * schemas, the API-key scopes its handler allows, and examples.
 *
 * Examples: an operation's examples are keyed by name, and a name begins with
 * the status the example gets ("200 …", "400 …"). The parts of one example
 * (path and query values, headers, cookies, body) sit under that name in the
 * parameters' and the request body's `examples`, and what comes back under the
 * same name in the response of that status. A response example whose name no
 * request example has (a 500, a 415) only illustrates. Values standing for
 * what exists only in an installation are placeholders (placeholders.ts).
 */
import { profileViewSchema } from '../../functions/api/get-profile/schema';
import { eventRecordSchema } from '../../functions/api/ingest-events/schema';
import { profileRecordSchema } from '../../functions/api/ingest-profiles/schema';
import { timelineEventViewSchema, timelineViewSchema } from '../../functions/api/list-profile-events/schema';
import { pushTokensSchema, valueSchema } from '../../functions/domain/attributes';
import { writeReceiptSchema } from '../../functions/domain/ingest';
import { errorListBodySchema, invalidRequestBodySchema, messageBodySchema } from '../../functions/http/error-bodies';
import { affiliateDocs } from './operations/affiliates';
import type { OperationDoc } from './operations/doc-types';
import { emailDocs } from './operations/email';
import { enterprisePortalDocs } from './operations/enterprise-portal';
import { ingestionDocs } from './operations/ingestion';
import { journeyDocs } from './operations/journeys';
import { profileReadDocs } from './operations/profile-reads';
import { pushDocs } from './operations/push';
import { segmentDocs } from './operations/segments';
import { trackingLinkDocs } from './operations/tracking-links';

/** Published under `#/components/schemas`: shared schemas, by identity. */
export const namedSchemas = new Map<object, string>([
  [valueSchema, 'AttributeValue'],
  [pushTokensSchema, 'PushTokens'],
  [profileRecordSchema, 'ProfileRecord'],
  [eventRecordSchema, 'EventRecord'],
  [writeReceiptSchema, 'WriteReceipt'],
  [profileViewSchema, 'Profile'],
  [timelineViewSchema, 'Timeline'],
  [timelineEventViewSchema, 'TimelineEvent'],
  [messageBodySchema, 'Message'],
  [invalidRequestBodySchema, 'InvalidRequest'],
  [errorListBodySchema, 'ErrorList'],
]);

/** Every HTTP operation's documentation, by its id in the manifest. */
export const operationDocs: Record<string, OperationDoc> = {
  ...ingestionDocs,
  ...profileReadDocs,
  ...affiliateDocs,
  ...emailDocs,
  ...enterprisePortalDocs,
  ...pushDocs,
  ...trackingLinkDocs,
  ...segmentDocs,
  ...journeyDocs,
};
