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

/** A player's responsible-gaming status: anything but "none"/"active" is a reason not to market. */
export function RgBadge({ status }: { status: string | undefined }) {
  if (!status) return <Badge title="No responsible-gaming status is stored for this player">RG: unknown</Badge>;
  const clear = status === 'none' || status === 'active';
  return <Badge tone={clear ? 'success' : 'danger'}>RG: {status.replace(/_/g, ' ')}</Badge>;
}

/** Marketing consent on one channel: given, withdrawn or never stated. */
export function ConsentBadge({ channel, consent }: { channel: string; consent: boolean | undefined }) {
  if (consent === undefined) return <Badge title={`No ${channel} consent is stored`}>{channel}: not stated</Badge>;
  return <Badge tone={consent ? 'success' : 'warning'}>{`${channel}: ${consent ? 'opted in' : 'opted out'}`}</Badge>;
}
