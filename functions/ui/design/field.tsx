/**
 * A form field: its label, the control, a hint, and the server's 400
 * `errors` that name it, shown under it (the control is `aria-invalid` and
 * described by them). The server's messages start with the field's path
 * (`from_email must be …`, `money_events[2].kind must be …`), so a field
 * takes the messages that begin with its name. Server-safe.
 */
import type { ComponentChildren } from 'preact';

/** The messages of `errors` about `field`: those starting with its path. */
export function errorsFor(errors: readonly string[] | undefined, field: string): string[] {
  if (!errors) return [];
  return errors.filter((message) => message === field || message.startsWith(`${field} `) || message.startsWith(`${field}.`) || message.startsWith(`${field}[`));
}

/** The messages of `errors` that no field of `fields` shows: for the form's own alert. */
export function otherErrors(errors: readonly string[] | undefined, fields: readonly string[]): string[] {
  if (!errors) return [];
  return errors.filter((message) => !fields.some((field) => errorsFor([message], field).length > 0));
}

export function Field({
  id,
  label,
  hint,
  errors,
  children,
}: {
  /** The control's id (the label's `for`). */
  id: string;
  label: ComponentChildren;
  hint?: ComponentChildren;
  /** The messages about this field (errorsFor). */
  errors?: readonly string[];
  /** The control; give it `id`, and `aria-invalid`/`aria-describedby` from fieldProps. */
  children: ComponentChildren;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <small class="hint" id={`${id}-hint`}>
          {hint}
        </small>
      )}
      {errors && errors.length > 0 && (
        <p class="field-error" id={`${id}-error`}>
          {errors.join(' ')}
        </p>
      )}
    </div>
  );
}

/** The control's accessibility attributes for a Field. */
export function fieldProps(id: string, errors: readonly string[] | undefined, hint = false) {
  const invalid = !!errors && errors.length > 0;
  const describedBy = [hint ? `${id}-hint` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ');
  return { id, 'aria-invalid': invalid ? ('true' as const) : undefined, 'aria-describedby': describedBy || undefined };
}
