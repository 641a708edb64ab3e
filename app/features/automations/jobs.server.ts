// The automations engine in the jobs runner (decision 067), listed by
// app/jobs/registry.server.ts:
//   automations.run  the periodic step: run_automations gives every new event
//                    of an active automation's trigger exactly one run (the
//                    unique (automation, event) makes a replay, a retry or a
//                    second runner a no-op), and each active scheduled
//                    automation gets its due time run once (unique
//                    (automation, scheduled time)), computed with croner in
//                    the account's timezone. Then run_due_automation_runs
//                    performs the queued manual runs (Run now) and the
//                    retries whose backoff has passed (decision 080).
import type { JobHandler } from '~/jobs/job.server';
import { cronOf, dueRun, SCHEDULE_FREQUENCIES, type ScheduleFrequency } from './schedule';

/** Events handled per step: the next step (a minute later) takes the rest. */
const EVENT_BATCH = 500;

export const AUTOMATION_JOB_TYPES: Record<string, JobHandler> = {
  // The run's clock comes in the payload (the runner's `now`), so tests can move it.
  'automations.run': async (payload, { admin }) => {
    const now = new Date(typeof payload.now === 'string' ? payload.now : Date.now());
    const { error } = await admin.rpc('run_automations', { p_limit: EVENT_BATCH });
    if (error) throw new Error(`the automations step failed: ${error.message}`);
    await runScheduled(admin, now);
    const due = await admin.rpc('run_due_automation_runs', { p_limit: EVENT_BATCH });
    if (due.error) throw new Error(`the automations' due runs failed: ${due.error.message}`);
  },
};

async function runScheduled(admin: Parameters<JobHandler>[1]['admin'], now: Date): Promise<void> {
  const { data, error } = await admin
    .from('automations')
    .select('id, frequency, cron, active_since, account:accounts(timezone)')
    .eq('status', 'active')
    .eq('trigger_kind', 'scheduled_time')
    .limit(1000);
  if (error) throw new Error(`scheduled automations failed to load: ${error.message}`);
  for (const automation of data ?? []) {
    const frequency = automation.frequency as ScheduleFrequency | null;
    if (!frequency || !SCHEDULE_FREQUENCIES.includes(frequency)) continue;
    const expression = cronOf(frequency, automation.cron);
    const timezone = automation.account?.timezone || 'UTC';
    const due = expression ? dueRun(expression, timezone, now) : null;
    // Only times since it was activated: activating does not run the past.
    if (!due || !automation.active_since || due < new Date(automation.active_since)) continue;
    const { error: runError } = await admin.rpc('run_scheduled_automation', { p_automation_id: automation.id, p_scheduled_for: due.toISOString() });
    if (runError) console.error(`scheduled automation ${automation.id} failed: ${runError.message}`);
  }
}

export const AUTOMATION_PERIODIC_JOBS = ['automations.run'];
