/**
 * A segment's members as people read them: each with its name, email and
 * lifetime money (the console's preview, the command line), and all of them
 * as CSV. Kept apart from segments.ts so the integrator API's functions,
 * which answer ids only, do not bundle the players' reads.
 */
import { defaultCurrency } from '../domain/affiliate-program';
import { ledgerPk } from '../domain/funnel';
import { partitionKey } from '../domain/stream-record';
import { csvRow } from './affiliate-report-csv';
import { playerMoneyOf } from './players';
import { memberIds, requireSegment, segmentLimits, type SegmentPorts } from './segments';

export interface MemberRow {
  profile_id: string;
  entered_at: string;
  /** The `name` attribute, or `first_name` and `last_name`; null when the player has none (or is deleted). */
  name: string | null;
  email: string | null;
  /** Lifetime money in the main currency, exact decimal strings (the funnel's ledger). */
  deposits: string;
  deposit_count: number;
  ngr: string;
  last_deposit: { day: string; amount: string } | null;
}

export interface DetailedMemberPage {
  currency: string;
  members: MemberRow[];
  next_cursor: string | null;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

function nameOf(attributes: Record<string, unknown>): string | null {
  return text(attributes.name) ?? ([text(attributes.first_name), text(attributes.last_name)].filter(Boolean).join(' ') || null);
}

/** Names, emails and money of `profileIds`: one BatchGetItem of profiles and one of ledgers, never a read per member. */
async function detailsOf(
  ports: Pick<SegmentPorts, 'profiles' | 'ledgers'>,
  appId: string,
  members: readonly { profile_id: string; entered_at: string }[],
  currency: string,
) {
  if (members.length === 0) return [];
  const pks = members.map((member) => partitionKey(appId, member.profile_id));
  const [profiles, ledgers] = await Promise.all([
    ports.profiles.getMany(pks, ['pk', 'exists', 'attrs']),
    ports.ledgers.ledgers(members.map((member) => ledgerPk(appId, member.profile_id))),
  ]);
  return members.map((member, i): MemberRow => {
    const profile = profiles.get(pks[i]!);
    const attributes = profile?.exists ? (JSON.parse(profile.attrs) as Record<string, unknown>) : {};
    const money = playerMoneyOf(ledgers.get(ledgerPk(appId, member.profile_id)), currency);
    return {
      profile_id: member.profile_id,
      entered_at: member.entered_at,
      name: nameOf(attributes),
      email: text(attributes.email) ?? null,
      deposits: money.deposits,
      deposit_count: money.deposit_count,
      ngr: money.ngr,
      last_deposit: money.last_deposit,
    };
  });
}

/** A page of members with their name, email and money: the console's preview. */
export function segmentMembers(ports: Pick<SegmentPorts, 'segments' | 'profiles' | 'ledgers' | 'apps'>) {
  return async (appId: string, segmentId: string, options: { limit?: number; cursor?: string } = {}): Promise<DetailedMemberPage> => {
    const segment = await requireSegment(ports, appId, segmentId);
    const limit = Math.min(options.limit ?? segmentLimits.maxDetailedPageSize, segmentLimits.maxDetailedPageSize);
    const [page, app] = await Promise.all([memberIds(ports, segment, limit, options.cursor), ports.apps.get(appId)]);
    const currency = app?.currency ?? defaultCurrency;
    return { currency, members: await detailsOf(ports, appId, page.members, currency), next_cursor: page.next };
  };
}

const csvHeader = ['profile_id', 'name', 'email', 'entered_at', 'deposits', 'deposit_count', 'ngr', 'last_deposit_day', 'last_deposit_amount', 'currency'];

export interface SegmentCsv {
  file_name: string;
  csv: string;
  rows: number;
  /** Where the next file starts (its `cursor`), when the segment has more members than one file holds. */
  next_cursor: string | null;
}

/**
 * The members as CSV (RFC 4180, formula-like cells neutralised as the affiliate report's are), read a page at a time:
 * at most `csvRowsPerFile` rows per file; `next_cursor` starts the next one.
 */
export function segmentCsv(ports: Pick<SegmentPorts, 'segments' | 'profiles' | 'ledgers' | 'apps'>) {
  return async (appId: string, segmentId: string, options: { cursor?: string; rowsPerFile?: number } = {}): Promise<SegmentCsv> => {
    const segment = await requireSegment(ports, appId, segmentId);
    const rowsPerFile = Math.min(options.rowsPerFile ?? segmentLimits.csvRowsPerFile, segmentLimits.csvRowsPerFile);
    const currency = (await ports.apps.get(appId))?.currency ?? defaultCurrency;
    const lines = [csvRow(csvHeader)];
    let cursor = options.cursor;
    let rows = 0;
    let next: string | null = null;
    let first: string | undefined;
    do {
      const page = await memberIds(ports, segment, Math.min(segmentLimits.maxDetailedPageSize, rowsPerFile - rows), cursor);
      for (const member of await detailsOf(ports, appId, page.members, currency)) {
        lines.push(
          csvRow([
            member.profile_id,
            member.name ?? '',
            member.email ?? '',
            member.entered_at,
            member.deposits,
            member.deposit_count,
            member.ngr,
            member.last_deposit?.day ?? '',
            member.last_deposit?.amount ?? '',
            currency,
          ]),
        );
      }
      first ??= page.members[0]?.profile_id;
      rows += page.members.length;
      next = page.next;
      cursor = next ?? undefined;
    } while (next !== null && rows < rowsPerFile);
    // A file of a longer export names the profile id it starts at, so its parts sort and do not overwrite each other.
    const part = options.cursor === undefined && next === null ? '' : `-from-${first ?? 'end'}`;
    return { file_name: `segment-${segmentId}${part}.csv`.replace(/[^A-Za-z0-9._-]/g, '_'), csv: `${lines.join('\r\n')}\r\n`, rows, next_cursor: next };
  };
}
