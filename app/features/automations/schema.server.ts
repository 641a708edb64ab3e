// The New Automation form as the server checks it: the browser's schema plus a
// custom cron expression read by croner (at most every 5 minutes, firing within
// a year). Kept out of schema.ts so croner stays out of the page's scripts
// (tests/e2e/page-weight.test.ts); a refused expression comes back under its
// field with everything typed kept.
import { newAutomationSchema } from './schema';
import { checkSchedule } from './schedule';

export const newAutomationServerSchema = newAutomationSchema.superRefine((form, ctx) => {
  if (form.frequency !== 'custom' || !form.cron) return;
  const check = checkSchedule(form.cron, 'UTC');
  if (!check.ok) ctx.addIssue({ code: 'custom', path: ['cron'], message: check.error });
});
