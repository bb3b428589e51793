/**
 * The back office's audit log (docs/api.md, "Back office API"): one entry per
 * state-changing action, by application, newest first. Who (user id and
 * email as they were), what (an action name such as `user.role_changed`), on
 * what (a target such as `user:usr_…`), when, and the details of the change.
 */

export const auditLimits = {
  /** Entries are kept this long, then swept by TTL. */
  retentionDays: 400,
  pageSize: 50,
  maxPageSize: 200,
} as const;

/** Who acted: an enterprise user through the console, or an operator on the command line. */
export interface AuditActor {
  user_id: string;
  email: string;
}

/** The command line acts as this (it has no enterprise user). */
export const commandLineActor: AuditActor = { user_id: 'cli', email: 'admin command line' };

/** `npm start` acts as this when it sets up the local stack's demo application. */
export const localStackActor: AuditActor = { user_id: 'local-stack', email: 'npm start' };

export interface AuditEntry {
  app_id: string;
  /** Unique within the application, and the order newest-first reads: `<at>#<random>`. */
  entry_id: string;
  at: string;
  actor: AuditActor;
  action: string;
  target: string;
  details?: Record<string, unknown>;
}

export interface AuditPage {
  entries: AuditEntry[];
  cursor?: string;
}

export interface AuditLog {
  append(entry: AuditEntry): Promise<void>;
  /** The application's entries, newest first. */
  page(appId: string, options: { limit: number; cursor?: string }): Promise<AuditPage>;
}
