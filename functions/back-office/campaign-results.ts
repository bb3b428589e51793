/**
 * A journey's or a broadcast's results (docs/api.md, "Campaign results"):
 * per step and in total, the money of its recipients against its holdout, and
 * a daily series for the chart. One Query of what the count-campaigns
 * consumer kept; nothing is scanned at read time.
 */
import { daysBetween } from '../domain/commission';
import {
  campaignKinds,
  figuresOf,
  moneyResults,
  NO_STEP,
  parseCampaign,
  sumCounters,
  type CampaignKind,
  type CampaignResultsStore,
  type Figures,
  type MoneyResults,
} from '../domain/campaign-results';
import type { AppStore } from '../domain/apps';
import { NotFound, ValidationError } from '../domain/errors';
import { moneySettingsOf } from '../domain/money-settings';

export interface CampaignResultsPorts {
  apps: Pick<AppStore, 'get'>;
  results: Pick<CampaignResultsStore, 'read'>;
}

export interface DayFigures {
  day: string;
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
}

export interface CampaignResults {
  kind: CampaignKind;
  id: string;
  totals: Figures;
  /** Per step, the entries (and a broadcast's sends) under `-`; steps in their ids' order. */
  steps: (Figures & { step: string })[];
  money: MoneyResults;
  /** Every day from the first counted to the last (at most SERIES_DAYS), gaps as zeros. */
  days: DayFigures[];
}

/** The chart's reach: a quarter of days. */
export const SERIES_DAYS = 92;

export function campaignResults(ports: CampaignResultsPorts) {
  return async (appId: string, kind: string, id: string): Promise<CampaignResults> => {
    const campaign = parseCampaign(`${kind}:${id}`);
    if (!campaign) {
      const problems = [
        ...(campaignKinds.includes(kind as CampaignKind) ? [] : [`kind must be one of ${campaignKinds.join(', ')}`]),
        ...(/^[A-Za-z0-9_-]{1,128}$/.test(id) ? [] : ['id must be 1 to 128 letters, digits, _ or -']),
      ];
      throw new ValidationError(problems, 'not a campaign');
    }
    const app = await ports.apps.get(appId);
    if (!app) throw new NotFound('application not found');
    const stored = await ports.results.read(appId, `${campaign.kind}:${campaign.id}`);
    const stepIds = Object.keys(stored.steps).sort((a, b) => (a === NO_STEP ? -1 : b === NO_STEP ? 1 : a.localeCompare(b)));
    const counted = Object.keys(stored.days).sort();
    const last = counted.at(-1);
    const series = last === undefined ? [] : daysBetween(counted[0], last).slice(-SERIES_DAYS);
    return {
      ...campaign,
      totals: figuresOf(sumCounters(Object.values(stored.steps))),
      steps: stepIds.map((step) => ({ step, ...figuresOf(stored.steps[step]) })),
      money: moneyResults(stored.money, moneySettingsOf(app).currency),
      days: series.map((day) => {
        const c = stored.days[day] ?? {};
        return { day, sent: c.sent ?? 0, delivered: c.delivered ?? 0, opened: c.opened ?? 0, clicked: c.clicked ?? 0 };
      }),
    };
  };
}
