import { describe, expect, test } from '@jest/globals';
import { tables } from '../../../functions/manifest/resources';
import { createTableInput } from '../../../lib/local/bootstrap';

describe('the local tables', () => {
  test('the profiles table gets the keys-only by-app index the stack deploys', () => {
    const input = createTableInput(tables.profiles);

    expect(input.GlobalSecondaryIndexes).toEqual([
      {
        IndexName: 'by-app',
        KeySchema: [
          { AttributeName: 'app_id', KeyType: 'HASH' },
          { AttributeName: 'profile_id', KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'KEYS_ONLY' },
      },
    ]);
    expect(input.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: 'app_id', AttributeType: 'S' },
        { AttributeName: 'profile_id', AttributeType: 'S' },
      ]),
    );
  });
});
