/**
 * Senders: the addresses and domains an application may send email as,
 * assigned by the operator (the admin command line only; the console reads
 * them) and audited. Each is claimed by one application only
 * (functions/domain/channels.ts `SenderStore`): channels are made only with
 * the application's senders, and every send checks the claim again
 * (functions/messaging/email.ts).
 */
import type { AuditActor } from '../domain/audit';
import { senderKey, type SenderAssignment } from '../domain/channels';
import { emailAddressSchema } from '../domain/email';
import { Conflict, NotFound, ValidationError } from '../domain/errors';
import { compileValidator } from '../domain/validation';
import { requireApp } from './apps';
import { audit } from './audit';
import { nowOf, type BackOffice } from './ports';

type SenderPorts = Pick<BackOffice, 'apps' | 'senders' | 'audit' | 'now'>;

/** One address, or every address at a domain: what the command line's `--email` or `--domain` names. */
export type SenderInput = { email: string; domain?: undefined } | { domain: string; email?: undefined };

const checkAddress = compileValidator(emailAddressSchema, 'email');

/** The sender as it is claimed (lower case), after the rules of a channel's own from email: a sender is always one a channel may have. */
export function parseSender(input: SenderInput): Pick<SenderAssignment, 'sender' | 'kind'> {
  if (input.email !== undefined) return { sender: senderKey(checkAddress(input.email.trim())), kind: 'address' };
  const domain = senderKey(input.domain);
  try {
    checkAddress(`postmaster@${domain}`);
  } catch {
    throw new ValidationError([`domain must be a domain name such as casino.example, not "${input.domain}"`], 'domain is invalid');
  }
  return { sender: domain, kind: 'domain' };
}

/**
 * Assigns a sender to an application, or refuses it (409) while another
 * application holds it, holds its domain, or (for a domain) holds an address
 * at it. Assigning what the application already holds changes nothing.
 * Audited as `sender.assigned` in the application's log.
 */
export async function assignSender(office: SenderPorts, actor: AuditActor, appId: string, input: SenderInput): Promise<SenderAssignment> {
  await requireApp(office, appId);
  const wanted: SenderAssignment = { app_id: appId, ...parseSender(input), assigned_at: nowOf(office).toISOString() };
  const claim = await office.senders.claim(wanted);
  if (claim.outcome === 'taken') {
    const release = claim.by.kind === 'address' ? `--email ${claim.by.sender}` : `--domain ${claim.by.sender}`;
    throw new Conflict(
      `${claim.by.sender} is assigned to application ${claim.by.app_id}: release it there first (sender release --app ${claim.by.app_id} ${release})`,
    );
  }
  if (claim.outcome === 'assigned') {
    await audit(office)({ appId, actor, action: 'sender.assigned', target: `sender:${wanted.sender}`, details: { kind: wanted.kind } });
  }
  return claim.assignment;
}

/**
 * Takes a sender from an application (404 when it does not hold it). Its
 * channels stop sending from the next request: every send checks the claim.
 * Audited as `sender.released`.
 */
export async function releaseSender(office: SenderPorts, actor: AuditActor, appId: string, input: SenderInput): Promise<void> {
  await requireApp(office, appId);
  const { sender, kind } = parseSender(input);
  if (!(await office.senders.release(appId, sender))) throw new NotFound(`application ${appId} has no sender ${sender}`);
  await audit(office)({ appId, actor, action: 'sender.released', target: `sender:${sender}`, details: { kind } });
}

/** The application's senders; without an application, every application's (the operator's view). */
export async function listSenders(office: Pick<BackOffice, 'apps' | 'senders'>, appId?: string): Promise<SenderAssignment[]> {
  if (appId === undefined) return office.senders.list();
  await requireApp(office, appId);
  return office.senders.listByApp(appId);
}
