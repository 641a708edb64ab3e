// The jobs runner (decision 021): claims due jobs with the service role
// (claim_jobs: two runners never take the same one), runs each by its kind
// (registry.server.ts) and records the outcome (finish_job: done, retried with
// backoff, or failed). Called by the Worker's scheduled handler (the Cron
// Trigger; `npm start` drives it every 15 s) and kicked after a write that
// queued work (kick.server.ts). Tests call it directly.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';
import { JOB_TYPES, PERIODIC_JOBS } from './registry.server';
import { PermanentJobError, type JobContext } from './job.server';

export interface RunSummary {
  claimed: number;
  done: number;
  retried: number;
  failed: number;
  /** Why nothing ran, when nothing could (no service role key). */
  skipped?: string;
}

export interface RunOptions {
  /** Stop claiming after this long (a run must end well within the Worker's limits). */
  budgetMs?: number;
  /** Jobs claimed and run at once. */
  batch?: number;
  /** The run's clock, for the periodic jobs' minute (tests). */
  now?: Date;
  /** Each job within this, or it is recorded as failed (retried) on its own. */
  jobDeadlineMs?: number;
  /**
   * Periodic kinds queued now even if this minute's already was (tests only:
   * the Worker's scheduled handler passes it for the test-only cron of
   * forcedPeriodicJobs, never for a Cron Trigger's).
   */
  forcePeriodic?: readonly string[];
}

/**
 * A scheduled call whose cron is `force:<kind>[,<kind>...]` runs those periodic
 * steps now. No Cron Trigger carries such a cron: Cloudflare calls the
 * handler only with the cron expressions of wrangler.toml's [triggers], and
 * this is none. Only a test sends it, through wrangler dev's --test-scheduled
 * endpoint or by calling the handler. Unknown kinds are ignored.
 */
export const FORCE_PERIODIC_CRON_PREFIX = 'force:';

export function forcedPeriodicJobs(cron: string): string[] {
  if (!cron.startsWith(FORCE_PERIODIC_CRON_PREFIX)) return [];
  return cron.slice(FORCE_PERIODIC_CRON_PREFIX.length).split(',').filter((kind) => PERIODIC_JOBS.includes(kind));
}

/** A job that runs longer than this is given up (its attempt recorded) so the rest of the run goes on. */
export const JOB_DEADLINE_MS = 45_000;

/** The job took longer than its deadline. */
class JobTimedOut extends Error {}

type JobRow = Database['public']['Tables']['jobs']['Row'];

/** The service-role client of the runner; null without the secret (then no job runs, and the log says why). */
export function serviceClient(env: Env): SupabaseClient<Database> | null {
  const key = env.SUPABASE_SERVICE_ROLE_KEY;
  if (!key) return null;
  return createClient<Database>(env.SUPABASE_URL, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

export async function runJobs(env: Env, options: RunOptions = {}): Promise<RunSummary> {
  const summary: RunSummary = { claimed: 0, done: 0, retried: 0, failed: 0 };
  const admin = serviceClient(env);
  if (!admin) {
    summary.skipped = 'SUPABASE_SERVICE_ROLE_KEY is not set: queued jobs wait';
    console.error(`jobs runner: ${summary.skipped}`);
    return summary;
  }
  const runner = `worker-${crypto.randomUUID()}`;
  const deadline = Date.now() + (options.budgetMs ?? 25_000);
  await queuePeriodic(admin, options.now ?? new Date(), options.forcePeriodic ?? []);
  while (Date.now() < deadline) {
    const { data, error } = await admin.rpc('claim_jobs', { p_runner: runner, p_limit: options.batch ?? 10 });
    if (error) {
      console.error(`jobs runner: claiming failed: ${error.message}`);
      break;
    }
    const jobs = (data ?? []) as JobRow[];
    if (jobs.length === 0) break;
    summary.claimed += jobs.length;
    const outcomes = await Promise.all(jobs.map((job) => runOne(admin, env, runner, job, options.jobDeadlineMs ?? JOB_DEADLINE_MS)));
    for (const outcome of outcomes) summary[outcome] += 1;
  }
  return summary;
}

async function queuePeriodic(admin: SupabaseClient<Database>, now: Date, forced: readonly string[]): Promise<void> {
  const minute = now.toISOString().slice(0, 16);
  for (const kind of PERIODIC_JOBS) {
    // Once a minute, however many runners tick in it; a forced step (tests) has a key of its own.
    const key = forced.includes(kind) ? `${kind}:${minute}:forced:${crypto.randomUUID()}` : `${kind}:${minute}`;
    // The run's clock goes along, so a periodic job's idea of "now" is the run's (tests move it).
    const { error } = await admin.rpc('enqueue_job', {
      p_kind: kind,
      p_idempotency_key: key,
      p_payload: { now: now.toISOString() },
    });
    if (error) console.error(`jobs runner: queuing ${kind} failed: ${error.message}`);
  }
}

async function runOne(
  admin: SupabaseClient<Database>,
  env: Env,
  runner: string,
  job: JobRow,
  deadlineMs: number,
): Promise<'done' | 'retried' | 'failed'> {
  const handler = JOB_TYPES[job.kind];
  let failure: string | null = null;
  let permanent = false;
  if (!handler) {
    failure = `No handler for job kind ${job.kind}`;
    permanent = true;
  } else {
    const ctx: JobContext = {
      admin,
      env,
      job: { id: job.id, kind: job.kind, account_id: job.account_id, subject_id: job.subject_id, attempts: job.attempts },
    };
    // Each job on its own: its failure, or its running past its deadline (a
    // mail server that never answers), is recorded for it alone while the
    // others of the batch finish. The deadline is a real timer: every await
    // in a handler is I/O, so it fires.
    let timeout: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        handler((job.payload ?? {}) as Record<string, unknown>, ctx),
        new Promise<never>((_, reject) => {
          timeout = setTimeout(() => reject(new JobTimedOut(`Timed out after ${Math.round(deadlineMs / 1000)} s`)), deadlineMs);
        }),
      ]);
    } catch (error) {
      failure = error instanceof Error ? error.message || error.name : String(error);
      // PermanentJobError, or an error that says so itself (UndeliverableMail, an SMTP 5xx).
      permanent = error instanceof PermanentJobError || (error as { permanent?: unknown } | null)?.permanent === true;
    } finally {
      clearTimeout(timeout);
    }
  }
  const { data, error } = await admin.rpc('finish_job', {
    p_job_id: job.id,
    p_runner: runner,
    p_error: failure ?? undefined,
    p_permanent: permanent,
  });
  if (error) {
    // The job stays running and is claimed again after 10 minutes.
    console.error(`jobs runner: recording job ${job.id} failed: ${error.message}`);
    return 'retried';
  }
  if (failure) console.error(`job ${job.kind} ${job.id} attempt ${job.attempts}: ${failure}`);
  return data.status === 'done' ? 'done' : data.status === 'failed' ? 'failed' : 'retried';
}
