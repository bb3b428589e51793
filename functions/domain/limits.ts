/** Bounds on ingestion input (docs/api.md, "Ingestion", "Records"). */
export const MiB = 1024 * 1024;

export const limits = {
  recordsPerRequest: 500,
  /** A record as written to the stream, partition key included (the Kinesis record limit). */
  recordBytes: MiB,
  /** Sent base64 inside Lambda's 6 MB event (docs/api.md, "Security"): 4 MiB is 5.33 MiB there, room left for the rest. */
  bodyBytes: 4 * MiB,
  appIdLength: 64,
  /** app_id + '#' + profile_id must fit the 256-character Kinesis partition key. */
  profileIdLength: 128,
  insertIdLength: 128,
  eventNameLength: 255,
  attributeNameLength: 255,
  mergeSources: 100,
  /** How deep arrays may nest inside an attribute value. */
  valueDepth: 8,
  pushTokensPerProfile: 100,
  pushTokenLength: 4096,
  /** urm_unsubscribed_topics: how many topics, and how long each name. */
  topicsPerProfile: 50,
  topicLength: 64,
} as const;
