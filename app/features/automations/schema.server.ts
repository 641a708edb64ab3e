// The New Automation and edit forms as the server checks them: the browser's
// schema plus a custom cron expression read by croner (at most every 5
// minutes, firing within a year). Kept out of schema.ts so croner stays out of
// the page's scripts (tests/e2e/page-weight.test.ts); a refused expression
// comes back under its field with everything typed kept.
import type { z } from '~/lib/schemas/zod';
import { automationActionSchema, newAutomationSchema } from './schema';
import { checkSchedule, cronOf, type ScheduleFrequency } from './schedule';

function checkCron(form: { frequency: string; cron?: string }, ctx: z.RefinementCtx) {
  if (form.frequency !== 'custom' || !form.cron) return;
  const check = checkSchedule(form.cron, 'UTC');
  if (!check.ok) ctx.addIssue({ code: 'custom', path: ['cron'], message: check.error });
}

export const newAutomationServerSchema = newAutomationSchema.superRefine(checkCron);

/** The record page's forms, the edit's cron checked as the New Automation dialog's. */
export const automationActionServerSchema = automationActionSchema.superRefine((form, ctx) => {
  if (form.intent === 'update') checkCron(form, ctx);
});

/**
 * 'Preview schedule': the next five runs of the typed frequency (or custom
 * cron) in the account's timezone, or why there are none. Computed here so
 * croner stays off the client.
 */
export function previewSchedule(form: FormData, timezone: string): { runs: string[]; error: string | null } {
  const trigger = String(form.get('trigger') ?? '');
  const frequency = String(form.get('frequency') ?? '');
  const cron = String(form.get('cron') ?? '').slice(0, 100);
  if (trigger !== 'scheduled_time') return { runs: [], error: 'Choose Scheduled Time to see when it runs' };
  if (!['hourly', 'daily', 'weekly', 'monthly', 'custom'].includes(frequency)) return { runs: [], error: 'Choose how often a scheduled automation runs' };
  if (frequency === 'custom' && !cron.trim()) return { runs: [], error: 'Enter a cron expression' };
  const expression = cronOf(frequency as ScheduleFrequency, cron);
  const check = checkSchedule(expression ?? '', timezone);
  return check.ok ? { runs: check.next.map((d) => d.toISOString()), error: null } : { runs: [], error: check.error };
}
