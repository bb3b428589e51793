/**
 * The settings use cases audit themselves, whoever calls them: the command
 * line (as `cli`) and the console (as the signed-in user) get the same entries.
 */
import { describe, expect, test } from '@jest/globals';
import { updateApp } from '../../../functions/back-office/apps';
import { createChannel, setChannelDomain } from '../../../functions/back-office/channels';
import { setIdentityVerification } from '../../../functions/back-office/identity';
import { issueKey, revokeKey } from '../../../functions/back-office/keys';
import { setMoneySettings } from '../../../functions/back-office/money';
import { commandLineActor } from '../../../functions/domain/audit';
import { MemoryAppStore, MemoryPlanStore } from '../../support/affiliates';
import { MemoryAuditLog } from '../../support/enterprise';
import { assignment, MemoryChannelStore, MemoryKeyStore, MemorySenderStore } from '../../support/settings';

function setUp() {
  const log = new MemoryAuditLog();
  const keys = new MemoryKeyStore();
  const office = {
    apps: new MemoryAppStore([{ app_id: 'app_1', name: 'Casino', created_at: '2026-01-01T00:00:00Z' }]),
    keys,
    channels: new MemoryChannelStore(),
    senders: new MemorySenderStore([assignment('app_1', 'example.com')]),
    plans: new MemoryPlanStore(),
    audit: log,
    now: () => new Date('2026-11-23T10:00:00.000Z'),
  };
  return { office, log, keys };
}

const actions = (log: MemoryAuditLog) =>
  log.entries.map(({ actor, action, target, details }) => ({ actor: actor.user_id, action, target, ...(details ? { details } : {}) }));

describe('keys', () => {
  test("the command line's issue and revoke are audited as cli, by key id, never with the key", async () => {
    const { office, log } = setUp();

    const issued = await issueKey(office, 'app_1', commandLineActor, 'server');
    await revokeKey(office, 'app_1', commandLineActor, issued.summary.key_id);

    expect(actions(log)).toEqual([
      { actor: 'cli', action: 'key.issued', target: `key:${issued.summary.key_id}`, details: { scope: 'server' } },
      { actor: 'cli', action: 'key.revoked', target: `key:${issued.summary.key_id}` },
    ]);
    expect(JSON.stringify(log.entries)).not.toContain(issued.key);
  });

  test('an unknown key id is not found and writes no entry', async () => {
    const { office, log } = setUp();

    await expect(revokeKey(office, 'app_1', commandLineActor, 'key_nope')).rejects.toThrow('application app_1 has no key key_nope');

    expect(log.entries).toEqual([]);
  });
});

describe('the application', () => {
  test('app.updated names each field that changed with its old and new value, and leaves out what stayed', async () => {
    const { office, log } = setUp();

    await updateApp(office, 'app_1', commandLineActor, { name: 'Casino', portalOrigin: 'https://portal.example.com/' });

    expect(actions(log)).toEqual([
      { actor: 'cli', action: 'app.updated', target: 'app:app_1', details: { changes: { portal_origin: { from: null, to: 'https://portal.example.com' } } } },
    ]);
  });

  test('turning identity verification off is audited with from and to; setting what it is writes nothing', async () => {
    const { office, log } = setUp();

    await setIdentityVerification(office, 'app_1', commandLineActor, true);
    await setIdentityVerification(office, 'app_1', commandLineActor, false);

    expect(actions(log)).toEqual([{ actor: 'cli', action: 'app.identity_verification_changed', target: 'app:app_1', details: { from: 'on', to: 'off' } }]);
  });
});

test('the money mapping is audited only when it changes, whatever order its events are given in', async () => {
  const { office, log } = setUp();

  await setMoneySettings(office, 'app_1', commandLineActor, { money_events: { Deposit: 'deposit', Bet: 'bet' } });
  await setMoneySettings(office, 'app_1', commandLineActor, { currency: 'EUR', money_events: { Bet: 'bet', Deposit: 'deposit' } });

  expect(actions(log)).toEqual([
    {
      actor: 'cli',
      action: 'money.updated',
      target: 'app:app_1',
      details: { changes: { money_events: { from: {}, to: { Deposit: 'deposit', Bet: 'bet' } } } },
    },
  ]);
});

test("a channel's domain change is audited with the domain before and after", async () => {
  const { office, log } = setUp();
  const channel = await createChannel(office, commandLineActor, { appId: 'app_1', name: 'News', fromEmail: 'news@example.com', fromName: 'News' });

  await setChannelDomain(office, 'app_1', commandLineActor, channel.channel_id, 'example.com');

  expect(actions(log)).toEqual([
    {
      actor: 'cli',
      action: 'channel.created',
      target: `channel:${channel.channel_id}`,
      details: { name: 'News', from_email: 'news@example.com', from_name: 'News', from_domain: null },
    },
    { actor: 'cli', action: 'channel.domain_changed', target: `channel:${channel.channel_id}`, details: { from: null, to: 'example.com' } },
  ]);
});
