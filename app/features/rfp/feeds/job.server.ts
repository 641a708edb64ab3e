// The tender radar's job (issue 38; decision 079), listed by app/jobs/registry.server.ts:
//   rfp.feeds   queued by the runner every minute (once per minute, by its idempotency key); it fetches
//               only the sources whose hour has come (run-feeds.server.ts), so each once per hour;
//   rfp.reminders   every minute too: bids still Active whose deadline is 7, 3 or 1 days away get their
//               owner's reminder mail, each once (rfp_deadline_reminders queues it with its own key);
//   rfp.digests   every minute too: the saved searches' daily digests that are due, each once a day
//               (decision 092); the immediate mails for a high score follow a feed run that brought notices.
import { allowedHosts } from '~/lib/address-policy';
import type { JobHandler } from '~/jobs/job.server';
import { queueRadarAlerts, queueRadarDigests } from './alerts.server';
import { runTenderFeeds } from './run-feeds.server';

export const RFP_JOB_TYPES: Record<string, JobHandler> = {
  // The run's clock comes in the payload (the runner's `now`), so tests can move it.
  'rfp.feeds': async (payload, { admin, env }) => {
    const now = typeof payload.now === 'string' ? new Date(payload.now) : new Date();
    const summary = await runTenderFeeds(admin, now, { allow: allowedHosts(env.FEED_ALLOW_HOSTS) });
    await queueRadarAlerts(admin, summary.accounts, now);
  },
  'rfp.reminders': async (payload, { admin }) => {
    const now = typeof payload.now === 'string' ? payload.now : new Date().toISOString();
    const { error } = await admin.rpc('rfp_deadline_reminders', { p_today: now.slice(0, 10) });
    if (error) throw new Error(`queuing the RFP deadline reminders failed: ${error.message}`);
  },
  'rfp.digests': async (payload, { admin }) => {
    await queueRadarDigests(admin, typeof payload.now === 'string' ? new Date(payload.now) : new Date());
  },
};

export const RFP_PERIODIC_JOBS = ['rfp.feeds', 'rfp.reminders', 'rfp.digests'];
