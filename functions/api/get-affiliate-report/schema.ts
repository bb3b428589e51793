/** GET /api/affiliates/{affiliate_id}/report?from=YYYY-MM-DD&to=YYYY-MM-DD&group_by=day|link|sub_id (docs/api.md, "Affiliate reports"). */
import { appIdSchema } from '../../domain/attributes';
import { compileValidator, type FromRequestSchema } from '../../domain/validation';

const date = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'a date YYYY-MM-DD' } as const;

export const reportQuerySchema = {
  type: 'object',
  required: ['from', 'to'],
  properties: {
    app_id: { ...appIdSchema, description: "Optional: the key's own application." },
    from: date,
    to: date,
    group_by: { type: 'string', enum: ['day', 'link', 'sub_id'], description: 'The rows of the answer; default day.' },
  },
  additionalProperties: false,
} as const;

export type ReportQuery = FromRequestSchema<typeof reportQuerySchema>;

export const affiliatePathSchema = { type: 'string', minLength: 1, maxLength: 128 } as const;

const moneyString = (description: string) => ({ type: 'string', pattern: '^-?[0-9]+\\.[0-9]{2}$', description }) as const;
const count = { type: 'integer', minimum: 0 } as const;
const rate = (description: string) => ({ type: ['string', 'null'], pattern: '^[0-9]+\\.[0-9]{4}$', description }) as const;

const figureProperties = {
  clicks: count,
  registrations: { ...count, description: 'Players attributed to the affiliate (set_affiliate).' },
  ftds: { ...count, description: 'First deposits of attributed players.' },
  qualified_ftds: { ...count, description: "First deposits of at least the plan's CPA minimum." },
  deposits: moneyString('Sum of deposits, in the report currency.'),
  withdrawals: moneyString('Sum of withdrawals.'),
  ngr: moneyString('Net gaming revenue: bets − wins − bonuses.'),
  cpa: moneyString('qualified_ftds × the plan’s CPA amount.'),
  revshare: moneyString('The plan’s percent of NGR, rounded to the cent per row; negative when players won.'),
  commission: moneyString('cpa + revshare on rows; on totals, cpa + the RevShare months’ payable.'),
  registration_rate: rate('Registrations per click, 4 decimal places (half up); null without clicks.'),
  ftd_rate: rate('FTDs per registration, 4 decimal places (half up); null without registrations.'),
} as const;
const figureNames = Object.keys(figureProperties) as (keyof typeof figureProperties)[];

export const funnelFiguresSchema = { type: 'object', required: figureNames, additionalProperties: false, properties: figureProperties } as const;

export const affiliateReportSchema = {
  type: 'object',
  required: ['affiliate_id', 'currency', 'from', 'to', 'totals', 'months'],
  additionalProperties: false,
  properties: {
    affiliate_id: { type: 'string' },
    currency: { type: 'string', description: "The application's main currency (ISO 4217); every amount is in it." },
    from: date,
    to: date,
    plan_id: { type: 'string', description: "The plan of the deal in force on the range's last day. Absent: no deal then." },
    deals: {
      type: 'array',
      description: 'The deals in force within the range, clipped to it, oldest first: each day row earns under its day’s (docs/api.md, "Deals").',
      items: {
        type: 'object',
        required: ['plan_id', 'plan_version', 'name', 'description', 'from', 'to'],
        additionalProperties: false,
        properties: {
          plan_id: { type: 'string' },
          plan_version: { type: 'integer', minimum: 1 },
          name: { type: 'string' },
          description: { type: 'string', description: 'The version’s terms in words.' },
          from: date,
          to: date,
        },
      },
    },
    days: {
      type: 'array',
      description: 'With group_by=day (the default): one row per day of the range, oldest first, zeros included.',
      items: {
        type: 'object',
        required: ['date', ...figureNames],
        additionalProperties: false,
        properties: { date, ...figureProperties },
      },
    },
    links: {
      type: 'array',
      description: 'With group_by=day or link: the range by tracking link (`-`: attributions that named no link).',
      items: {
        type: 'object',
        required: ['link_id', ...figureNames],
        additionalProperties: false,
        properties: { link_id: { type: 'string' }, name: { type: 'string' }, ...figureProperties },
      },
    },
    sub_ids: {
      type: 'array',
      description:
        'With group_by=sub_id: the range by link and sub-id (`urm_aff`), by link, then sub-id; at most 100 sub-ids per link and UTC day have ' +
        'their own row, the rest count under `(other)`; `(none)`: what the link counted without a sub-id. They add up to the link rows.',
      items: {
        type: 'object',
        required: ['link_id', 'sub_id', ...figureNames],
        additionalProperties: false,
        properties: { link_id: { type: 'string' }, name: { type: 'string' }, sub_id: { type: 'string' }, ...figureProperties },
      },
    },
    totals: { ...funnelFiguresSchema, description: 'Counts and CPA/RevShare are the sums of the day rows; commission is cpa + the months’ payable.' },
    months: {
      type: 'array',
      description: 'The RevShare settlement by calendar month (empty without RevShare).',
      items: {
        type: 'object',
        required: ['month', 'from', 'to', 'revshare', 'carried_in', 'payable', 'carried_out'],
        additionalProperties: false,
        properties: {
          month: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}$' },
          from: date,
          to: date,
          revshare: moneyString('The sum of the month’s day rows within the range.'),
          carried_in: moneyString('Zero or negative: what the months before carried over.'),
          payable: moneyString('max(0, revshare + carried_in).'),
          carried_out: moneyString('With carry-over: min(0, revshare + carried_in); else zero.'),
        },
      },
    },
  },
} as const;

/** Checks the query string (functions/domain/validation.ts); precompiled in the bundle. */
export const validReportQuery = compileValidator(reportQuerySchema, 'query string');
