/**
 * The audit log of the back office: every state-changing use case, whoever
 * calls it (the console's operations, the command line), writes one entry
 * through `audit(office)`; admins read them newest first.
 */
import { randomBytes } from 'node:crypto';
import { auditLimits, type AuditActor, type AuditEntry, type AuditPage } from '../domain/audit';
import { nowOf, type BackOffice } from './ports';

export interface AuditInput {
  appId: string;
  actor: AuditActor;
  /** What was done, as `<thing>.<past tense>`: `user.role_changed`, `player.attribute_set`. */
  action: string;
  /** What it was done to, as `<kind>:<id>`: `user:usr_…`, `player:player-42`. */
  target: string;
  details?: Record<string, unknown>;
}

/** Writes one entry; answers it. */
export function audit(office: Pick<BackOffice, 'audit' | 'now'>) {
  return async (input: AuditInput): Promise<AuditEntry> => {
    const at = nowOf(office).toISOString();
    const entry: AuditEntry = {
      app_id: input.appId,
      // Time first: entries sort by it; the random tail keeps two in one millisecond apart.
      entry_id: `${at}#${randomBytes(8).toString('hex')}`,
      at,
      actor: { user_id: input.actor.user_id, email: input.actor.email },
      action: input.action,
      target: input.target,
      ...(input.details ? { details: input.details } : {}),
    };
    await office.audit.append(entry);
    return entry;
  };
}

/** A page of the application's entries, newest first. */
export function readAudit(office: Pick<BackOffice, 'audit'>) {
  return (appId: string, options: { limit?: number; cursor?: string } = {}): Promise<AuditPage> =>
    office.audit.page(appId, { limit: Math.min(options.limit ?? auditLimits.pageSize, auditLimits.maxPageSize), cursor: options.cursor });
}

/** The shape of an entry id, which is also the cursor of the next page. */
export const AUDIT_CURSOR_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z#[0-9a-f]{16}$';
