/**
 * The service's own metrics (CloudWatch embedded metric format, written by
 * functions/runtime/metrics.ts): one namespace, and `service` (the function's
 * id in operations.ts) as the only dimension. Never an application, profile
 * or key id: every distinct dimension value is a metric of its own, billed.
 * The dashboard (lib/aws/constructs/dashboard.ts) reads the same names.
 */
export const metricsNamespace = 'urm';

export const metricNames = {
  /** POST /profiles, POST /events: records on the stream (receipt entries with a sequence number). */
  recordsIngested: 'RecordsIngested',
  /** Records Kinesis still refused after the retries (the receipt's FailedRecordCount): the client re-sends them. */
  recordsNotIngested: 'RecordsNotIngested',
  /** Refused by ingestion validation (every record of a 400 body), or rejected at apply time by a consumer. */
  recordsRejected: 'RecordsRejected',
  /** Consumers: records applied to a profile or put on a timeline. */
  recordsApplied: 'RecordsApplied',
  /** Consumers: records already applied (a redelivered batch, a client's re-send), skipped. */
  duplicatesSkipped: 'DuplicatesSkipped',
  /** Event consumer: events older than their profile's last delete (a late redelivery), dropped. */
  recordsDroppedAfterDelete: 'RecordsDroppedAfterDelete',
  emailsSent: 'EmailsSent',
  /** SES refused or failed the message (the request answered 4xx or 5xx). */
  emailsFailed: 'EmailsFailed',
  /** Push messages a push service accepted, one per device token. */
  pushSent: 'PushSent',
  pushFailed: 'PushFailed',
  /** Tokens the push service no longer knows (404/410), removed from the profile. */
  pushExpired: 'PushExpired',
} as const;

export type MetricName = (typeof metricNames)[keyof typeof metricNames];

/** Which function (`service`) emits which metrics: what the dashboard graphs. */
export const metricsByService = {
  IngestProfiles: [metricNames.recordsIngested, metricNames.recordsNotIngested, metricNames.recordsRejected],
  IngestEvents: [metricNames.recordsIngested, metricNames.recordsNotIngested, metricNames.recordsRejected],
  ApplyProfiles: [metricNames.recordsApplied, metricNames.duplicatesSkipped, metricNames.recordsRejected],
  RecordEvents: [metricNames.recordsApplied, metricNames.duplicatesSkipped, metricNames.recordsRejected, metricNames.recordsDroppedAfterDelete],
  SendEmail: [metricNames.emailsSent, metricNames.emailsFailed],
  SendPush: [metricNames.pushSent, metricNames.pushFailed, metricNames.pushExpired],
  SendTemplate: [metricNames.emailsSent, metricNames.emailsFailed],
} as const satisfies Record<string, readonly MetricName[]>;
