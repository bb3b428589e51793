import { describe, expect, test } from '@jest/globals';
import { awsPrices } from '../../bench/aws-prices';
import type { BroadcastThroughputResult } from '../../bench/broadcast-throughput';
import { awsLatency, broadcastCostPerMillion, broadcastPlans, journeyCostPerMillion, ownStreamRecordUsd } from '../../bench/campaign-capacity';
import type { JourneyCostResult } from '../../bench/journey-cost';

/** A counted broadcast run: 10 DynamoDB calls and one SendEmail a message, so a message takes 10 × 5 + 40 = 90 ms in AWS. */
function counted(overrides: Partial<BroadcastThroughputResult['counted']> = {}): BroadcastThroughputResult {
  return {
    players: 500,
    rate: 500,
    messagesPerSecond: 10,
    seconds: 50,
    firstMailSeconds: 1,
    mailerAlone: { messages: 500, messagesPerSecond: 200, concurrency: 16 },
    seedSeconds: 10,
    counted: {
      messages: 200,
      dynamo: { callsPerMessage: 10, readUnitsPerMessage: 8, writeUnitsPerMessage: 4, byCommand: {}, meanMsByCommand: {} },
      streamRecordsPerMessage: 1,
      sesCallsPerMessage: 1,
      messagesPerSecond: 10,
      dynamoMsPerMessage: 100,
      msPerMessage: 0,
      ...overrides,
    },
  };
}

describe('a million-player broadcast on paper', () => {
  test("a sandbox account is held by SES's daily quota: 200 a day makes it 5,000 days", () => {
    const [sandbox] = broadcastPlans(counted(), 16);

    expect(sandbox).toMatchObject({ account: 'sandbox', perSecond: 1, days: 5_000 });
    expect(sandbox.hours).toBe(5_000 * 24);
    expect(sandbox.limitedBy).toMatch(/daily quota/);
  });

  test("a warmed account is held by the sender's concurrency: 16 sends of 90 ms each reach 177/s, not SES's 500", () => {
    const warmed = broadcastPlans(counted(), 16)[2];

    expect(awsLatency).toEqual({ dynamoCallMs: 5, sendEmailMs: 40 });
    expect(warmed).toMatchObject({ sesPerSecond: 500, senderPerSecond: 177, perSecond: 177, writeUnitsPerSecond: 177 * 4 });
    expect(warmed.hours).toBeCloseTo(1_000_000 / 177 / 3600, 6);
    expect(warmed.limitedBy).toMatch(/16 sends at once/);
  });

  test('costs SES, the units and the stream record per message at the dated prices', () => {
    const cost = broadcastCostPerMillion(counted());

    expect(cost.ses).toBeCloseTo(1_000 * awsPrices.ses.perThousandEmails, 6);
    expect(cost.dynamodb).toBeCloseTo(8 * awsPrices.dynamodb.onDemandPerMillionReadUnits + 4 * awsPrices.dynamodb.onDemandPerMillionWriteUnits, 6);
    expect(cost.stream).toBeCloseTo(1_000_000 * ownStreamRecordUsd(), 6);
    expect(cost.lambda).toBeCloseTo(0, 6);
    expect(cost.total).toBeCloseTo(cost.ses + cost.dynamodb + cost.stream, 6);
  });
});

describe('a million journey entries', () => {
  test('pay for the emails of those not converted, the counted units, and the consumer batches of entries and goals', () => {
    const journey: JourneyCostResult = {
      entries: 100,
      converted: 50,
      mailed: 50,
      consumerBatchSize: 100,
      perEntry: { dynamoCalls: 10, readUnits: 4, writeUnits: 6, streamRecords: 3, emails: 0.5 },
      byCommand: {},
      consumerMsPerBatch: 0,
      timerMsPerFired: 0,
    };

    const cost = journeyCostPerMillion(journey);

    expect(cost.ses).toBeCloseTo(500 * awsPrices.ses.perThousandEmails, 6);
    expect(cost.dynamodb).toBeCloseTo(4 * awsPrices.dynamodb.onDemandPerMillionReadUnits + 6 * awsPrices.dynamodb.onDemandPerMillionWriteUnits, 6);
    // 1.5 records a player (entries, and half of them a goal) in batches of 100: 15,000 invocations, billed per request at 0 ms.
    expect(cost.lambda).toBeCloseTo(15_001 * (awsPrices.lambda.perMillionRequests / 1_000_000), 9);
    expect(cost.stream).toBeCloseTo(3 * 1_000_000 * ownStreamRecordUsd(), 6);
  });
});
