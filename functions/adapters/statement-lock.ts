/**
 * The one place the service's StatementLock is made (functions/domain/deals.ts): until approved statements are
 * stored, no month is closed. The statements lane swaps this body for its reader of `stmt#…` items.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { noStatementLock, type StatementLock } from '../domain/deals';

export function statementLockOn(_db: DynamoDBDocumentClient, _affiliatesTable: string): StatementLock {
  return noStatementLock;
}
