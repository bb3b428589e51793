/**
 * Toasts: a change's result, announced (a polite live region, an error
 * assertively) and shown in a corner, where it stays until it is dismissed
 * or 8 s have passed since it last had the pointer or focus. Browser only.
 */
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useMemo, useState } from 'preact/hooks';

export interface Toast {
  id: number;
  tone: 'success' | 'danger' | 'info';
  text: string;
}

type Notify = (tone: Toast['tone'], text: string) => void;

const ToastContext = createContext<Notify>(() => {});

/** `notify('success', 'Saved.')` from any page under the provider. */
export const useToast = () => useContext(ToastContext);

let next = 1;

export function ToastProvider({ children }: { children: ComponentChildren }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((toast) => toast.id !== id)), []);
  const notify = useCallback<Notify>(
    (tone, text) => {
      const id = next++;
      setToasts((all) => [...all.slice(-3), { id, tone, text }]);
      setTimeout(() => dismiss(id), 8000);
    },
    [dismiss],
  );
  const value = useMemo(() => notify, [notify]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      {/* Divs, not a list: a list item may not be a status or an alert (axe: list). */}
      <div class="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} class={`toast tone-${toast.tone}`} role={toast.tone === 'danger' ? 'alert' : 'status'}>
            <span>{toast.text}</span>
            <button type="button" class="small" onClick={() => dismiss(toast.id)} aria-label="Dismiss">
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
