/**
 * Senders assigned by the operator (functions/back-office/senders.ts): one
 * application per address or domain, audited, and what channels may be made with.
 */
import { describe, expect, test } from '@jest/globals';
import { createChannel } from '../../../functions/back-office/channels';
import { assignSender, listSenders, releaseSender } from '../../../functions/back-office/senders';
import { commandLineActor } from '../../../functions/domain/audit';
import { Conflict, NotFound, ValidationError } from '../../../functions/domain/errors';
import { MemoryAppStore } from '../../support/affiliates';
import { MemoryAuditLog } from '../../support/enterprise';
import { MemoryChannelStore, MemorySenderStore } from '../../support/settings';

function setUp() {
  const office = {
    apps: new MemoryAppStore(['app_1', 'app_2'].map((app_id) => ({ app_id, name: app_id, created_at: '2026-01-01T00:00:00Z' }))),
    channels: new MemoryChannelStore(),
    senders: new MemorySenderStore(),
    audit: new MemoryAuditLog(),
    now: () => new Date('2026-11-23T10:00:00.000Z'),
  };
  return { office, assign: (appId: string, input: { email: string } | { domain: string }) => assignSender(office, commandLineActor, appId, input) };
}

const audited = (log: MemoryAuditLog) =>
  log.entries.map(({ app_id, actor, action, target, details }) => ({ app_id, actor: actor.user_id, action, target, details }));

describe('assigning a sender', () => {
  test('claims the address in lower case for the application and audits it as the command line', async () => {
    const { office, assign } = setUp();

    const assigned = await assign('app_1', { email: ' News@Casino.Example ' });

    expect(assigned).toEqual({ app_id: 'app_1', sender: 'news@casino.example', kind: 'address', assigned_at: '2026-11-23T10:00:00.000Z' });
    expect(await listSenders(office, 'app_1')).toEqual([assigned]);
    expect(audited(office.audit)).toEqual([
      { app_id: 'app_1', actor: 'cli', action: 'sender.assigned', target: 'sender:news@casino.example', details: { kind: 'address' } },
    ]);
  });

  test("refuses another application's address, however it is spelt, naming who holds it, and audits nothing", async () => {
    const { office, assign } = setUp();
    await assign('app_1', { email: 'news@casino.example' });

    const taking = assign('app_2', { email: 'NEWS@casino.example' });

    await expect(taking).rejects.toThrow(Conflict);
    await expect(taking).rejects.toThrow('news@casino.example is assigned to application app_1');
    expect(await listSenders(office, 'app_2')).toEqual([]);
    expect(office.audit.entries).toHaveLength(1);
  });

  test("refuses a domain with another application's address at it, and an address at another application's domain", async () => {
    const { assign } = setUp();
    await assign('app_1', { email: 'news@casino.example' });
    await assign('app_2', { domain: 'bank.example' });

    await expect(assign('app_2', { domain: 'casino.example' })).rejects.toThrow('news@casino.example is assigned to application app_1');
    await expect(assign('app_1', { email: 'ceo@bank.example' })).rejects.toThrow('bank.example is assigned to application app_2');
  });

  test('lets two applications hold different addresses at one domain, and one application an address at its own domain', async () => {
    const { office, assign } = setUp();

    await assign('app_1', { email: 'casino@mail.example' });
    await assign('app_2', { email: 'bank@mail.example' });
    await assign('app_2', { domain: 'bank.example' });
    await assign('app_2', { email: 'ceo@bank.example' });

    expect((await listSenders(office)).map((held) => [held.sender, held.app_id])).toEqual([
      ['bank.example', 'app_2'],
      ['bank@mail.example', 'app_2'],
      ['casino@mail.example', 'app_1'],
      ['ceo@bank.example', 'app_2'],
    ]);
  });

  test('assigning what the application already holds changes nothing and audits nothing', async () => {
    const { office, assign } = setUp();
    const first = await assign('app_1', { domain: 'casino.example' });

    const again = await assign('app_1', { domain: 'Casino.Example' });

    expect(again).toEqual(first);
    expect(office.audit.entries).toHaveLength(1);
  });

  test('refuses what is not an address or a domain, and an unknown application', async () => {
    const { assign } = setUp();

    await expect(assign('app_1', { email: 'not an address' })).rejects.toThrow(ValidationError);
    await expect(assign('app_1', { domain: 'casino example' })).rejects.toMatchObject({
      errors: ['domain must be a domain name such as casino.example, not "casino example"'],
    });
    await expect(assign('app_9', { domain: 'casino.example' })).rejects.toThrow(NotFound);
  });
});

describe('releasing a sender', () => {
  test('takes it from the application, audited, and another application may then be assigned it', async () => {
    const { office, assign } = setUp();
    await assign('app_1', { email: 'news@casino.example' });

    await releaseSender(office, commandLineActor, 'app_1', { email: 'news@casino.example' });
    const reassigned = await assign('app_2', { email: 'news@casino.example' });

    expect(reassigned.app_id).toBe('app_2');
    expect(audited(office.audit).map((entry) => [entry.app_id, entry.action])).toEqual([
      ['app_1', 'sender.assigned'],
      ['app_1', 'sender.released'],
      ['app_2', 'sender.assigned'],
    ]);
  });

  test("is not found for a sender the application does not hold, another application's included", async () => {
    const { office, assign } = setUp();
    await assign('app_1', { domain: 'casino.example' });

    await expect(releaseSender(office, commandLineActor, 'app_2', { domain: 'casino.example' })).rejects.toThrow(NotFound);
    expect((await listSenders(office, 'app_1')).map((held) => held.sender)).toEqual(['casino.example']);
  });
});

describe('channels and the senders the application holds', () => {
  test('the command line refuses a channel whose address the application does not hold, naming from_email', async () => {
    const { office, assign } = setUp();
    await assign('app_2', { email: 'news@casino.example' });

    const creating = createChannel(office, commandLineActor, { appId: 'app_1', name: 'Spoof', fromEmail: 'news@casino.example', fromName: 'News' });

    await expect(creating).rejects.toMatchObject({ errors: [expect.stringMatching(/^from_email must be a sender assigned to the application/)] });
    expect(office.channels.channels).toEqual([]);
  });
});
