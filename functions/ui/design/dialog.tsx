/**
 * A confirmation before a destructive action (browser only). The platform's
 * modal `<dialog>` does what a dialog library would: it traps focus, closes
 * on Escape, makes the page behind it inert and returns focus to the button
 * that opened it. The safe choice (Cancel) has the focus first.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export function ConfirmButton({
  label,
  title,
  confirmLabel,
  onConfirm,
  children,
  busy = false,
  disabled = false,
  class: className = 'danger',
  small = false,
  name,
  confirmClass,
}: {
  /** The button's own label, e.g. "Revoke". */
  label: string;
  /** The dialog's question, e.g. "Revoke this key?". */
  title: string;
  /** The dialog's confirming button, e.g. "Revoke key". */
  confirmLabel: string;
  onConfirm: () => void;
  /** What happens, in a sentence or two. */
  children: ComponentChildren;
  busy?: boolean;
  disabled?: boolean;
  class?: string;
  small?: boolean;
  /** The button's accessible name when its label alone is ambiguous (a row's "Revoke" → "Revoke key_1"); it should start with the label. */
  name?: string;
  /** The confirming button's class: by default danger when the button is, else primary. */
  confirmClass?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  const id = `confirm-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${useRef(Math.random().toString(36).slice(2, 8)).current}`;
  return (
    <>
      <button
        type="button"
        class={`${className}${small ? ' small' : ''}`}
        onClick={() => setOpen(true)}
        disabled={disabled || busy}
        aria-busy={busy}
        aria-label={name}
      >
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={`${id}-title`} onClose={() => setOpen(false)}>
        <h2 id={`${id}-title`}>{title}</h2>
        <div>{children}</div>
        <div class="form-actions">
          {/* biome-ignore lint/a11y/noAutofocus: the dialog's safe choice takes the focus when it opens. */}
          <button type="button" autoFocus onClick={() => setOpen(false)}>
            Cancel
          </button>
          <button
            type="button"
            class={confirmClass ?? (className === 'danger' ? 'danger' : 'primary')}
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
