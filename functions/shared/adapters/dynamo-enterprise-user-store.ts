/**
 * Enterprise users in one table with two kinds of item:
 *   `user#<app_id>#<user_id>`    the user;
 *   `email#<app_id>#<email key>` the claim that makes an email unique per application.
 * Both are written in one transaction of conditional puts, so two concurrent
 * sign-ups of one email create one user. Reads are consistent: a sign-in right
 * after the sign-up finds the user.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { emailKey, type EnterpriseUser, type EnterpriseUserStore } from '../domain/enterprise';
import { withRetry, type RetryPolicy } from './retry';

const userKey = (appId: string, userId: string) => `user#${appId}#${userId}`;
const claimKey = (appId: string, email: string) => `email#${appId}#${emailKey(email)}`;

/** Transactions that collide with another one on the same items: up to 5 attempts, waits of at most 100 ms, 200 ms, … (uncapped). */
export const conflictRetry: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: Infinity };

export class DynamoEnterpriseUserStore implements EnterpriseUserStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly retry: RetryPolicy = conflictRetry,
  ) {}

  async get(appId: string, userId: string): Promise<EnterpriseUser | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: userKey(appId, userId) }, ConsistentRead: true }),
    );
    return out.Item ? toUser(out.Item) : undefined;
  }

  async findByEmail(appId: string, email: string): Promise<EnterpriseUser | undefined> {
    const claim = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: claimKey(appId, email) }, ConsistentRead: true }),
    );
    return claim.Item ? this.get(appId, claim.Item.user_id as string) : undefined;
  }

  async create(user: EnterpriseUser): Promise<boolean> {
    const write = new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: this.tableName,
            Item: { pk: userKey(user.app_id, user.user_id), kind: 'user', ...user },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: this.tableName,
            Item: { pk: claimKey(user.app_id, user.email), kind: 'email', app_id: user.app_id, user_id: user.user_id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    });
    try {
      // p-retry, not the SDK's retry strategy: the SDK does not retry a cancelled transaction.
      await withRetry(this.retry, (error) => !emailTaken(error) && conflicted(error), () => this.db.send(write));
      return true;
    } catch (error) {
      if (emailTaken(error)) return false;
      throw error;
    }
  }
}

/** The codes of the user's put and the claim's, in that order. */
const reasonCodes = (error: unknown) =>
  error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []).map((reason) => reason.Code) : [];

/** The email is another user's: the claim exists, the user does not. */
function emailTaken(error: unknown): boolean {
  const [userReason, claimReason] = reasonCodes(error);
  return claimReason === 'ConditionalCheckFailed' && userReason !== 'ConditionalCheckFailed';
}

const conflicted = (error: unknown) => reasonCodes(error).slice(0, 2).includes('TransactionConflict');

function toUser(item: Record<string, unknown>): EnterpriseUser {
  return {
    app_id: item.app_id as string,
    user_id: item.user_id as string,
    email: item.email as string,
    first_name: item.first_name as string,
    last_name: item.last_name as string,
    created_at: item.created_at as string,
  };
}
