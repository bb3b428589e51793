/**
 * The frame of one page's content: breadcrumbs on detail pages, the title
 * with its actions, and cards. Server-safe.
 */
import type { ComponentChildren } from 'preact';

export interface Crumb {
  label: ComponentChildren;
  href?: string;
}

/** The trail to this page; the last crumb is the page itself (no link). */
export function Breadcrumbs({ trail }: { trail: readonly Crumb[] }) {
  return (
    <nav class="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        {trail.map((crumb, index) => {
          const last = index === trail.length - 1;
          return (
            <li key={index}>
              {last || !crumb.href ? <span aria-current={last ? 'page' : undefined}>{crumb.label}</span> : <a href={crumb.href}>{crumb.label}</a>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

export function PageHeader({
  title,
  subtitle,
  trail,
  actions,
}: {
  title: ComponentChildren;
  subtitle?: ComponentChildren;
  trail?: readonly Crumb[];
  actions?: ComponentChildren;
}) {
  return (
    <>
      {trail && <Breadcrumbs trail={trail} />}
      <div class="page-header">
        <div>
          <h1>{title}</h1>
          {subtitle && <p class="subtitle">{subtitle}</p>}
        </div>
        {actions && <div class="cluster">{actions}</div>}
      </div>
    </>
  );
}

/** A titled card; its heading labels the region. */
export function Card({ title, actions, children, id }: { title?: string; actions?: ComponentChildren; children: ComponentChildren; id?: string }) {
  const headingId = title ? `card-${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` : undefined;
  return (
    <section class="card" aria-labelledby={headingId}>
      {(title || actions) && (
        <div class="card-header">
          {title && <h2 id={headingId}>{title}</h2>}
          {actions && <div class="cluster">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

/** A message in a coloured box: `role="alert"` for an error, `status` otherwise. */
export function Alert({ tone = 'info', title, children }: { tone?: 'info' | 'success' | 'warning' | 'danger'; title?: string; children?: ComponentChildren }) {
  return (
    <div class={`alert tone-${tone}`} role={tone === 'danger' ? 'alert' : 'status'}>
      {title && <strong>{title}</strong>}
      {children}
    </div>
  );
}

/** What an empty list says, and what to do about it. */
export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="empty">{children}</div>;
}

/**
 * A table's scroll region, the only place a page may scroll sideways: named
 * (the label as given; say "(scrolls)" in it where the reader should know),
 * and focusable, so a keyboard can scroll it. Server-safe.
 */
export function TableRegion({ label, class: className, busy, children }: { label: string; class?: string; busy?: boolean; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region is focusable so that a keyboard can scroll it.
    <section class={className ? `table-wrap ${className}` : 'table-wrap'} aria-label={label} tabIndex={0} aria-busy={busy}>
      {children}
    </section>
  );
}
