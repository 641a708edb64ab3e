// Monthly Goals (spec: targets an admin sets on Settings → Account): the
// targets as accounts.analytics_goals holds them (migration 20261205500004),
// the Settings form's schema, and the progress /analytics shows. Money goals
// are per currency (revenue = payments collected), never added together.
import { z } from '~/lib/schemas/zod';
import { parseMoneyToCents } from '~/lib/money';

export const GOAL_CURRENCIES = ['USD', 'EUR', 'GBP'] as const;
export const COUNT_GOALS = ['new_leads', 'new_clients', 'signed_quotes'] as const;
export type CountGoal = (typeof COUNT_GOALS)[number];
export const COUNT_GOAL_LABELS: Record<CountGoal, string> = {
  new_leads: 'New leads',
  new_clients: 'New clients',
  signed_quotes: 'Signed quotes',
};

export interface GoalTargets {
  revenue?: Partial<Record<string, number>>;
  new_leads?: number;
  new_clients?: number;
  signed_quotes?: number;
}

export interface Goals {
  targets: GoalTargets;
  month_from: string;
  month_to: string;
  actual: { revenue: Record<string, number>; new_leads: number; new_clients: number; signed_quotes: number } | null;
}

const MAX_COUNT = 1_000_000_000;

/** An optional whole number of things (blank is no goal). */
function countGoal(label: string) {
  return z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > MAX_COUNT) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a whole number from 1 to 1,000,000,000, or blank for no goal` });
        return z.NEVER;
      }
      return Number(value);
    });
}

/** An optional amount in a currency (blank is no goal), to cents. */
function moneyGoal(currency: string) {
  return z
    .string()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return undefined;
      const cents = parseMoneyToCents(value);
      if (cents === null || cents < 1 || cents > 1e15) {
        ctx.addIssue({ code: 'custom', message: `Revenue in ${currency} must be an amount above 0 with up to 2 decimals, or blank for no goal` });
        return z.NEVER;
      }
      return cents;
    });
}

export const GOALS_INTENT = 'goals';

export const goalsSchema = z.object({
  intent: z.literal(GOALS_INTENT),
  revenue_usd: moneyGoal('USD'),
  revenue_eur: moneyGoal('EUR'),
  revenue_gbp: moneyGoal('GBP'),
  new_leads: countGoal('New leads'),
  new_clients: countGoal('New clients'),
  signed_quotes: countGoal('Signed quotes'),
});

/** The form's values as the column stores them: blanks left out. */
export function targetsOf(value: z.output<typeof goalsSchema>): GoalTargets {
  const revenue: Record<string, number> = {};
  if (value.revenue_usd) revenue.USD = value.revenue_usd;
  if (value.revenue_eur) revenue.EUR = value.revenue_eur;
  if (value.revenue_gbp) revenue.GBP = value.revenue_gbp;
  const targets: GoalTargets = {};
  if (Object.keys(revenue).length > 0) targets.revenue = revenue;
  for (const key of COUNT_GOALS) if (value[key]) targets[key] = value[key];
  return targets;
}

export interface GoalProgress {
  key: string;
  label: string;
  currency: string | null;
  target: number;
  actual: number;
  /** 0..100, for the bar; the text says the real share (it may pass 100%). */
  percent: number;
}

export function goalProgress(goals: Goals | undefined): GoalProgress[] {
  if (!goals) return [];
  const rows: GoalProgress[] = [];
  const share = (actual: number, target: number) => Math.round((actual / target) * 100);
  for (const currency of GOAL_CURRENCIES) {
    const target = goals.targets.revenue?.[currency];
    if (!target) continue;
    const actual = Number(goals.actual?.revenue[currency] ?? 0);
    rows.push({ key: `revenue_${currency}`, label: `Revenue in ${currency}`, currency, target, actual, percent: share(actual, target) });
  }
  for (const key of COUNT_GOALS) {
    const target = goals.targets[key];
    if (!target) continue;
    const actual = Number(goals.actual?.[key] ?? 0);
    rows.push({ key, label: COUNT_GOAL_LABELS[key], currency: null, target, actual, percent: share(actual, target) });
  }
  return rows;
}
