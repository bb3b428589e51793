/**
 * Stored templates: the template as checkTemplate accepted it, with the
 * bookkeeping a shared editor needs (a version for optimistic writes, who
 * changed it last, whether it is archived). A campaign names a template by id
 * and renders what is stored at send time.
 */
import type { MessageTemplate } from './templates';

export interface StoredTemplate {
  app_id: string;
  template: MessageTemplate;
  /** Moves by one on each change: a write names the version it read. */
  version: number;
  archived: boolean;
  created_at: string;
  updated_at: string;
  /** The user (console) or `cli` that made the last change. */
  updated_by?: string;
}

/** An application keeps at most this many templates (archived ones count): a list is one bounded read. */
export const TEMPLATES_PER_APP = 500;

export interface TemplateStore {
  /** The application's templates, newest change first; archived ones only when asked. */
  list(appId: string, options?: { archived?: boolean }): Promise<StoredTemplate[]>;
  get(appId: string, templateId: string): Promise<StoredTemplate | undefined>;
  /** How many the application has (archived ones too), for the bound. */
  count(appId: string): Promise<number>;
  /** False when the id is taken. */
  create(stored: StoredTemplate): Promise<boolean>;
  /** Writes when the stored version is still `expectedVersion`; false otherwise (someone else changed it). */
  put(stored: StoredTemplate, expectedVersion: number): Promise<boolean>;
}
