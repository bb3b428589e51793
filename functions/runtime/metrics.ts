/**
 * The one metrics instance (Powertools Metrics: CloudWatch embedded metric
 * format, a JSON line on stdout that CloudWatch turns into metrics; no API
 * call, no latency). Names, namespace and the one dimension are in
 * manifest/metrics.ts; `service` is POWERTOOLS_SERVICE_NAME, which the stack
 * sets to the function's id. Stored metrics belong to the invocation
 * (Powertools keeps them per invocation context) and are flushed at its end
 * by `flushMetrics()`.
 *
 * The local stack and the tests set POWERTOOLS_METRICS_DISABLED: the counting
 * runs, nothing is printed.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type middy from '@middy/core';
import type { Mailer } from '../domain/email';
import { ValidationError } from '../domain/errors';
import type { WriteReceipt } from '../domain/ingest';
import { metricNames, metricsNamespace, type MetricName } from '../manifest/metrics';

export const metrics = new Metrics({ namespace: metricsNamespace });

export function count(name: MetricName, value: number): void {
  metrics.addMetric(name, MetricUnit.Count, value);
}

/**
 * Publishes what the invocation counted, after the handler or its error.
 * Not Powertools' `logMetrics`: that one warns on every invocation that
 * counted nothing (a 403, a 413), which would be most of the log of an
 * attacked endpoint.
 */
export function flushMetrics(): middy.MiddlewareObj {
  const flush = async () => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: flush, onError: flush };
}

/**
 * For POST /profiles and /events: every record of a body that failed
 * validation is counted as rejected (validation is all or nothing), then
 * the invocation's metrics are flushed. Goes after the jsonApi stack, so its
 * onError sees the error before the error mapping answers it.
 */
export function ingestionMetrics(): middy.MiddlewareObj<{ body: unknown }> {
  const flush = flushMetrics();
  return {
    after: flush.after,
    onError: async (request) => {
      if (request.error instanceof ValidationError && Array.isArray(request.event.body)) count(metricNames.recordsRejected, request.event.body.length);
      await flush.onError!(request as middy.Request);
    },
  };
}

/** What one ingestion request put on the stream. */
export function countIngested(receipt: WriteReceipt): void {
  count(metricNames.recordsIngested, receipt.Records.length - receipt.FailedRecordCount);
  count(metricNames.recordsNotIngested, receipt.FailedRecordCount);
}

/** What a consumer did with one batch (records of profiles that failed are not counted: they come again). */
export function countApplied(counts: { applied: number; duplicates: number; rejected: number; droppedAfterDelete?: number }): void {
  count(metricNames.recordsApplied, counts.applied);
  count(metricNames.duplicatesSkipped, counts.duplicates);
  count(metricNames.recordsRejected, counts.rejected);
  if (counts.droppedAfterDelete !== undefined) count(metricNames.recordsDroppedAfterDelete, counts.droppedAfterDelete);
}

/** A mailer that counts each message SES took or refused. */
export function countedMailer(mailer: Mailer): Mailer {
  return {
    send: async (mail) => {
      try {
        const messageId = await mailer.send(mail);
        count(metricNames.emailsSent, 1);
        return messageId;
      } catch (error) {
        count(metricNames.emailsFailed, 1);
        throw error;
      }
    },
  };
}

/** One send_push call's outcome, per device token. */
export function countPushes(outcome: { sent: number; failed: number; removed: number }): void {
  count(metricNames.pushSent, outcome.sent);
  count(metricNames.pushFailed, outcome.failed);
  count(metricNames.pushExpired, outcome.removed);
}
