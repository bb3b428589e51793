import { describe, expect, test } from '@jest/globals';
import type { EventBridgeEvent } from 'aws-lambda';
import { eventFunctions, type EventFunction } from '../../../functions/manifest/operations';
import { startAwsEvents } from '../../../lib/local/aws-events';

const definition: EventFunction = eventFunctions.find((candidate) => candidate.id === 'EmailEvents')!;
const event = (detailType: string, id: string, source = 'aws.ses') =>
  ({ source, 'detail-type': detailType, id, detail: {} }) as unknown as EventBridgeEvent<string, unknown>;

describe('the local stack’s EventBridge rules', () => {
  test('hands the function the SES events its rule matches, in the order published, and no other event', async () => {
    const seen: string[] = [];
    const events = startAwsEvents([{ definition, handler: async (e) => seen.push(e.id) }], { log: () => {} });

    events.publish([
      event('Email Delivered', 'delivered'),
      event('Email Complained', 'complained'),
      event('Email Opened', 'opened'),
      event('Email Rendering Failure', 'rendering'),
      event('Email Bounced', 'other', 'acme'),
    ]);
    await events.drained();

    expect(seen).toEqual(['delivered', 'complained', 'opened']);
  });

  test('tries a failed invocation again, then logs and drops it without throwing', async () => {
    const lines: string[] = [];
    let calls = 0;
    const events = startAwsEvents(
      [
        {
          definition,
          handler: async () => {
            calls++;
            throw new Error('the stream refused 1 of 2 records');
          },
        },
      ],
      { log: (line) => lines.push(line), attempts: 3, retryDelayMs: 1 },
    );

    events.publish([event('Email Bounced', 'bounced')]);
    await events.drained();

    expect(calls).toBe(3);
    expect(lines).toEqual([
      'EmailEvents failed on a Email Bounced event (attempt 1 of 3): the stream refused 1 of 2 records',
      'EmailEvents failed on a Email Bounced event (attempt 2 of 3): the stream refused 1 of 2 records',
      'EmailEvents failed on a Email Bounced event (attempt 3 of 3, dropped): the stream refused 1 of 2 records',
    ]);
  });

  test('a retry that succeeds delivers the event once', async () => {
    let calls = 0;
    const delivered: string[] = [];
    const events = startAwsEvents(
      [
        {
          definition,
          handler: async (e) => {
            if (++calls === 1) throw new Error('slow down');
            delivered.push(e.id);
          },
        },
      ],
      { log: () => {}, retryDelayMs: 1 },
    );

    events.publish([event('Email Delivered', 'delivered')]);
    await events.drained();

    expect(delivered).toEqual(['delivered']);
  });
});

test('after stop, a published event reaches no function', async () => {
  const seen: string[] = [];
  const events = startAwsEvents([{ definition, handler: async (e) => seen.push(e.id) }], { log: () => {} });

  await events.stop();
  events.publish([event('Email Delivered', 'late')]);
  await events.drained();

  expect(seen).toEqual([]);
});
