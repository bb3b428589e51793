/**
 * Invoking a handler as the Lambda runtime does when one execution
 * environment runs several invocations at once (AWS_LAMBDA_MAX_CONCURRENCY):
 * each invocation runs inside its own InvokeStore context, an
 * AsyncLocalStorage. The local stack runs every handler in one process and
 * many requests at once, so without this the Powertools logger, one module
 * shared by all handlers, would stamp a line with whichever invocation set its
 * context last, and a handler that never set it would borrow another's.
 */
import { InvokeStore, InvokeStoreBase } from '@aws/lambda-invoke-store';
import type { Context } from 'aws-lambda';

let store: InvokeStoreBase | undefined;

/**
 * Call once, before the first handler or AWS SDK call of the process: the SDK
 * and Powertools take the process's InvokeStore from the first to ask for it.
 * Returns false (invocations then share state, as before) when something
 * asked earlier and got the runtime's single-invocation store.
 */
export async function scopeInvocations(): Promise<boolean> {
  if (store) return true;
  const previous = process.env.AWS_LAMBDA_MAX_CONCURRENCY;
  process.env.AWS_LAMBDA_MAX_CONCURRENCY ??= '64';
  const candidate = await InvokeStore.getInstanceAsync(true);
  // The multi-invocation store forgets its context when the invocation ends; the single one keeps it.
  const isolated = candidate.run({ probe: true }, () => candidate.get('probe') === true) && !candidate.hasContext();
  if (!isolated) {
    if (previous === undefined) delete process.env.AWS_LAMBDA_MAX_CONCURRENCY;
    return false;
  }
  store = candidate;
  return true;
}

/** Runs one invocation of a handler in its own context (when scopeInvocations() succeeded). */
export function invoke<E, R>(handler: (event: E, context: Context) => Promise<R>, event: E, context: Context): Promise<R> {
  if (!store) return handler(event, context);
  return store.run({ [InvokeStoreBase.PROTECTED_KEYS.REQUEST_ID]: context.awsRequestId }, () => handler(event, context));
}
