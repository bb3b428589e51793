/**
 * Badges: a short status in colour and words (the colour never carries the
 * meaning alone). One tone per meaning, so "approved", "consented" and
 * "active" look alike everywhere.
 */
import type { ComponentChildren } from 'preact';

export type Tone = 'neutral' | 'accent' | 'success' | 'warning' | 'danger' | 'info';

export function Badge({ tone = 'neutral', title, children, as = 'span' }: { tone?: Tone; title?: string; children: ComponentChildren; as?: 'span' | 'mark' }) {
  const Tag = as;
  return (
    <Tag class={`badge tone-${tone}`} title={title}>
      {children}
    </Tag>
  );
}

const roleTones: Record<string, Tone> = { admin: 'accent', marketer: 'info', viewer: 'neutral' };
const statusTones: Record<string, Tone> = {
  approved: 'success',
  active: 'success',
  delivered: 'success',
  sent: 'success',
  pending: 'warning',
  suspended: 'danger',
  failed: 'danger',
  rejected: 'danger',
  revoked: 'neutral',
};

/** A console user's role. */
export const RoleBadge = ({ role, as }: { role: string; as?: 'span' | 'mark' }) => (
  <Badge tone={roleTones[role] ?? 'neutral'} as={as}>
    {role}
  </Badge>
);

/** An affiliate's, a key's or a delivery's status. */
export const StatusBadge = ({ status }: { status: string }) => <Badge tone={statusTones[status] ?? 'neutral'}>{status}</Badge>;

/**
 * A player's responsible-gambling status (`urm_rg_status`; absent counts as
 * `none`): anything but none is a reason never to market. A status whose
 * `urm_rg_until` has passed counts as none, and says so.
 */
export function RgBadge({ status, until, ended = false }: { status: string; until?: string; ended?: boolean }) {
  const words = status.replace(/_/g, ' ');
  if (status === 'none') return <Badge tone="success">RG: none</Badge>;
  if (ended) return <Badge title={`Ended ${until}: counts as none`}>{`RG: ${words} (ended)`}</Badge>;
  return (
    <Badge tone="danger" title={until ? `Until ${until}` : 'No end date'}>
      {`RG: ${words}${until ? ` until ${until.slice(0, 10)}` : ''}`}
    </Badge>
  );
}

/** Marketing consent on one channel: given, withdrawn, or never stated (which counts as no consent). */
export function ConsentBadge({ channel, consent }: { channel: string; consent: boolean | undefined }) {
  if (consent === undefined) return <Badge title={`No ${channel} consent is stored: counts as no consent`}>{`${channel}: no consent`}</Badge>;
  return <Badge tone={consent ? 'success' : 'warning'}>{`${channel}: ${consent ? 'opted in' : 'opted out'}`}</Badge>;
}
