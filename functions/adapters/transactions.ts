/**
 * What a cancelled TransactWriteItems says, read one way by every adapter: its
 * reasons in the order of the items, and whether another transaction in flight
 * on the same items (not a failed condition) cancelled it.
 */
import { TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';

/** The cancellation's reasons, one per item in order; none for any other error. */
export const cancellationReasons = (error: unknown): (CancellationReason | undefined)[] =>
  error instanceof TransactionCanceledException ? (error.CancellationReasons ?? []) : [];

/** The reasons' codes (`None`, `ConditionalCheckFailed`, `TransactionConflict`, …). */
export const cancellationCodes = (error: unknown): (string | undefined)[] => cancellationReasons(error).map((reason) => reason?.Code);

/** Cancelled by another transaction on the same items: worth retrying. */
export const cancelledByConflict = (error: unknown): boolean => cancellationCodes(error).includes('TransactionConflict');
