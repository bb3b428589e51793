/**
 * Enterprise users in one table with three kinds of item:
 *   `user#<app_id>#<user_id>`    the user, with its role;
 *   `email#<app_id>#<email key>` the claim that makes an email unique per application;
 *   `roster#<app_id>`            how many admins the application has.
 * A sign-up writes all three in one transaction of conditional writes, so two
 * concurrent sign-ups of one email create one user, and of two concurrent
 * first sign-ups one becomes admin. A role change updates the user and the
 * admin count together, so no change leaves the application without an admin.
 * Users are listed through `by-app` (`app_id`, `created_at`), which only user
 * items carry both of. Reads are consistent: a sign-in right after the
 * sign-up finds the user.
 */
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import {
  defaultRole,
  emailKey,
  isRole,
  type EnterpriseUser,
  type EnterpriseUserStore,
  type NewEnterpriseUser,
  type Role,
  type RoleChange,
  type UserPage,
} from '../domain/enterprise';
import { withRetry, type RetryPolicy } from './retry';
import { cancellationCodes as reasonCodes } from './transactions';

const userKey = (appId: string, userId: string) => `user#${appId}#${userId}`;
const claimKey = (appId: string, email: string) => `email#${appId}#${emailKey(email)}`;
const rosterKey = (appId: string) => `roster#${appId}`;
export const USERS_BY_APP = 'by-app';

/** Transactions that collide with another one on the same items: up to 5 attempts, waits of at most 100 ms, 200 ms, … (uncapped). */
export const conflictRetry: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: Infinity };

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

export class DynamoEnterpriseUserStore implements EnterpriseUserStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly retry: RetryPolicy = conflictRetry,
  ) {}

  async get(appId: string, userId: string): Promise<EnterpriseUser | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: userKey(appId, userId) }, ConsistentRead: true }));
    return out.Item ? toUser(out.Item) : undefined;
  }

  async findByEmail(appId: string, email: string): Promise<EnterpriseUser | undefined> {
    const claim = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { pk: claimKey(appId, email) }, ConsistentRead: true }));
    return claim.Item ? this.get(appId, claim.Item.user_id as string) : undefined;
  }

  async create(input: NewEnterpriseUser): Promise<EnterpriseUser | undefined> {
    if (input.role) return created(await this.createAs({ ...input, role: input.role }, false));
    // The first user is admin: claimed by creating the roster, which only one sign-up can do.
    // An application whose users predate roles has users but no roster: its next user is not "first".
    if (!(await this.hasUsers(input.app_id))) {
      const first = await this.createAs({ ...input, role: 'admin' }, true);
      if (first !== 'roster-exists') return first;
    }
    return created(await this.createAs({ ...input, role: defaultRole }, false));
  }

  /** One transaction: the user, its email claim, and the roster (created by the first user, else counted into). */
  private async createAs(user: EnterpriseUser, first: boolean): Promise<EnterpriseUser | undefined | 'roster-exists'> {
    const roster: TransactItem = first
      ? {
          Put: {
            TableName: this.tableName,
            Item: { pk: rosterKey(user.app_id), kind: 'roster', admins: 1 },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        }
      : {
          Update: {
            TableName: this.tableName,
            Key: { pk: rosterKey(user.app_id) },
            UpdateExpression: 'SET kind = :kind, admins = if_not_exists(admins, :zero) + :added',
            ExpressionAttributeValues: { ':kind': 'roster', ':zero': 0, ':added': user.role === 'admin' ? 1 : 0 },
          },
        };
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
        roster,
      ],
    });
    try {
      // p-retry, not the SDK's retry strategy: the SDK does not retry a cancelled transaction.
      await withRetry(
        this.retry,
        (error) => !emailTaken(error) && !rosterTaken(error) && conflictedAny(error),
        () => this.db.send(write),
      );
      return user;
    } catch (error) {
      if (emailTaken(error)) return undefined;
      if (rosterTaken(error)) return 'roster-exists';
      throw error;
    }
  }

  private async hasUsers(appId: string): Promise<boolean> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: USERS_BY_APP,
        KeyConditionExpression: 'app_id = :app',
        ExpressionAttributeValues: { ':app': appId },
        ProjectionExpression: 'pk',
        Limit: 1,
      }),
    );
    return (out.Items ?? []).length > 0;
  }

  /** Oldest first; one item more than asked tells whether a next page exists, so the last page never has a cursor. */
  async list(appId: string, options: { limit: number; cursor?: string }): Promise<UserPage> {
    let start: Record<string, unknown> | undefined;
    if (options.cursor !== undefined) {
      // The cursor is a user id of this application: another application's user is not found under this key.
      const after = await this.get(appId, options.cursor);
      if (!after) return { users: [] };
      start = { pk: userKey(appId, after.user_id), app_id: appId, created_at: after.created_at };
    }
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: USERS_BY_APP,
        KeyConditionExpression: 'app_id = :app',
        ExpressionAttributeValues: { ':app': appId },
        ExclusiveStartKey: start,
        Limit: options.limit + 1,
      }),
    );
    const users = (out.Items ?? []).slice(0, options.limit).map(toUser);
    const more = (out.Items ?? []).length > options.limit;
    return more ? { users, cursor: users[users.length - 1].user_id } : { users };
  }

  async changeRole(appId: string, userId: string, from: Role, to: Role): Promise<RoleChange> {
    const user = await this.get(appId, userId);
    if (!user) return { outcome: 'not-found' };
    if (from === to) return user.role === from ? { outcome: 'changed', user } : { outcome: 'stale' };
    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.tableName,
          Key: { pk: userKey(appId, userId) },
          UpdateExpression: 'SET #role = :to',
          // A user from before roles has none, and is a viewer.
          ConditionExpression:
            from === defaultRole ? 'attribute_exists(pk) AND (#role = :from OR attribute_not_exists(#role))' : 'attribute_exists(pk) AND #role = :from',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':from': from, ':to': to },
        },
      },
    ];
    if (from === 'admin') {
      items.push({
        Update: {
          TableName: this.tableName,
          Key: { pk: rosterKey(appId) },
          UpdateExpression: 'SET admins = admins - :one',
          ConditionExpression: 'admins > :one',
          ExpressionAttributeValues: { ':one': 1 },
        },
      });
    } else if (to === 'admin') {
      items.push({
        Update: {
          TableName: this.tableName,
          Key: { pk: rosterKey(appId) },
          UpdateExpression: 'SET kind = :kind, admins = if_not_exists(admins, :zero) + :one',
          ExpressionAttributeValues: { ':kind': 'roster', ':zero': 0, ':one': 1 },
        },
      });
    }
    try {
      await withRetry(
        this.retry,
        (error) => !failedCondition(error) && conflictedAny(error),
        () => this.db.send(new TransactWriteCommand({ TransactItems: items })),
      );
      return { outcome: 'changed', user: { ...user, role: to } };
    } catch (error) {
      const [userReason, rosterReason] = reasonCodes(error);
      if (userReason === 'ConditionalCheckFailed') return { outcome: 'stale' };
      if (rosterReason === 'ConditionalCheckFailed') return { outcome: 'last-admin' };
      throw error;
    }
  }
}

/** Without a roster condition the roster cannot be "taken". */
const created = (outcome: EnterpriseUser | undefined | 'roster-exists') => (outcome === 'roster-exists' ? undefined : outcome);

/** The codes of the transaction's items, in order. */

/** The email is another user's: the claim exists, the user does not. */
function emailTaken(error: unknown): boolean {
  const [userReason, claimReason] = reasonCodes(error);
  return claimReason === 'ConditionalCheckFailed' && userReason !== 'ConditionalCheckFailed';
}

/** Another sign-up created the roster first: it was the application's first user. */
const rosterTaken = (error: unknown) => reasonCodes(error)[2] === 'ConditionalCheckFailed' && !emailTaken(error);

const conflictedAny = (error: unknown) => reasonCodes(error).includes('TransactionConflict');
const failedCondition = (error: unknown) => reasonCodes(error).includes('ConditionalCheckFailed');

function toUser(item: Record<string, unknown>): EnterpriseUser {
  return {
    app_id: item.app_id as string,
    user_id: item.user_id as string,
    email: item.email as string,
    first_name: item.first_name as string,
    last_name: item.last_name as string,
    created_at: item.created_at as string,
    role: isRole(item.role) ? item.role : defaultRole,
  };
}
