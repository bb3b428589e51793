import { describe, expect, test } from '@jest/globals';
import { capacityAt, capacityTable, SECONDS_PER_MONTH } from '../../bench/capacity';
import { awsPrices } from '../../bench/aws-prices';
import { streamFeePerMonth } from '../../bench/cost';
import { streamConsumers } from '../../../functions/manifest/operations';

describe('the capacity table (npm run capacity)', () => {
  test('plans shards at half of 1,000 records/s each, and one mapping per stream consumer per shard', () => {
    const row = capacityAt(10_000, 2);

    expect(row.shards).toBe(20);
    expect(streamConsumers.length).toBeGreaterThan(1);
    expect(row.consumerConcurrency).toBe(20 * streamConsumers.length);
  });

  test("one player is held by its timeline partition at 2 WRU per event, by its shard's per-key limit at 0.3", () => {
    expect(capacityAt(1_000, 2)).toMatchObject({ hotPlayerEventsPerSecond: 500, hotPlayerLimit: 'partition' });
    expect(capacityAt(1_000, 0.3)).toMatchObject({ hotPlayerEventsPerSecond: 1_000, hotPlayerLimit: 'shard' });
  });

  test('the monthly bill is the cost per million times the month, plus the stream fee, and scales with write units', () => {
    const today = capacityAt(1_000, 2);
    const shared = capacityAt(1_000, 0.3);

    expect(today.usdPerMonth).toBeCloseTo((today.usdPerMillion * 1_000 * SECONDS_PER_MONTH) / 1e6 + streamFeePerMonth(), 6);
    expect(today.usdPerMillion - shared.usdPerMillion).toBeCloseTo(1.7 * awsPrices.dynamodb.onDemandPerMillionWriteUnits, 6);
  });

  test('names the table quota as what breaks at 100k events/s and 2 WRU, and nothing at 1k', () => {
    expect(capacityAt(100_000, 2).breaksFirst).toMatch(/40,000\/s table quota/);
    expect(capacityAt(1_000, 2).breaksFirst).toBe('nothing: defaults hold');
    expect(capacityTable([1_000], [2, 0.3]).split('\n')).toHaveLength(4);
  });
});
