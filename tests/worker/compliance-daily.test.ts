// The compliance daily job through the real jobs runner (issue 37): a review
// due in 7 days and one due today mail their owner once each (the outbox of the
// local backend), a second and third run mail nothing more, the due item is
// Action Required with one review_due event.
//
// Deterministic under load: the jobs queue and the sweep are shared with every
// other worker test file running at the same time (they tick the runner with
// Date.now(), invoices.test.ts moves it days ahead). So this file
//  - runs its sweeps at minutes of today that no other file uses (the periodic
//    job's key is its minute: a sweep queued by another file at the current
//    minute may have run before this file's items existed, and would then stand
//    for that minute, so counting ticks could end before any sweep saw them);
//  - waits on the state of its own jobs (the sweep of its minute, then its two
//    reminders, done whichever runner claimed them), not on a number of ticks:
//    another file's runner may hold them for seconds on a loaded machine.
import { env, exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../support/confirmation-mail';
import { signUpFreshAdmin } from './support/app';
import { accountOf, serviceClient } from './support/backend';

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
const runCron = (at: number) => worker.scheduled({ cron: '* * * * *', scheduledTime: at });

// The run's clock: today (UTC), at a minute far from the wall clock's (so its
// periodic key is this file's alone), and the dates counted from that same day.
const now = new Date();
const startOfDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
const minuteOfDay = Math.floor((now.getTime() - startOfDay) / 60_000);
const clock = startOfDay + (minuteOfDay >= 60 ? 7 : 1400) * 60_000 + 30_000;
const day = (offset: number) => new Date(startOfDay + offset * 86_400_000).toISOString().slice(0, 10);
const minuteKey = (at: number) => `compliance.daily:${new Date(at).toISOString().slice(0, 16)}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ticks the runner at `at` until `settled` holds; fails on a failed job or after the deadline. */
async function tickUntil(at: number, settled: () => Promise<boolean>, what: string, deadlineMs = 90_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    await runCron(at);
    if (await settled()) return;
    await sleep(250);
  }
  throw new Error(`not settled within ${deadlineMs / 1000} s: ${what}`);
}

async function jobStates(filter: { key?: string; accountId?: string; kind?: string }): Promise<string[]> {
  let query = serviceClient().from('jobs').select('status, last_error');
  if (filter.key) query = query.eq('idempotency_key', filter.key);
  if (filter.accountId) query = query.eq('account_id', filter.accountId);
  if (filter.kind) query = query.eq('kind', filter.kind);
  const { data, error } = await query;
  if (error) throw new Error(error.message);
  const rows = data as { status: string; last_error: string | null }[];
  const failed = rows.find((row) => row.status === 'failed');
  if (failed) throw new Error(`a job failed: ${failed.last_error}`);
  return rows.map((row) => row.status);
}

/** The sweep of this minute ran to its end (by this file's runner or another's). */
const sweepDone = (at: number) => async () => (await jobStates({ key: minuteKey(at) })).join() === 'done';

let email: string;
let accountId: string;
let ids: { soon: string; today: string };
beforeAll(async () => {
  const fresh = await signUpFreshAdmin();
  email = fresh.email;
  const owner = await accountOf(email);
  accountId = owner.accountId;
  const insert = async (title: string, first: string) => {
    const { data, error } = await serviceClient().from('compliance_items').insert({
      account_id: accountId, owner_id: owner.userId, title, responsible_team: 'Security', description: 'Daily job', first_review_date: first, frequency: 'annual',
    }).select('id').single();
    if (error) throw new Error(error.message);
    return data.id as string;
  };
  ids = { soon: await insert('Firewall review', day(7)), today: await insert('Backup restore test', day(0)) };
});

describe('the compliance daily job', () => {
  it('mails the owner 7 days before and on the day, each once; the due item becomes Action Required with review_due', { timeout: 240_000 }, async () => {
    const mails = async () => ((await readOutbox(env.SUPABASE_URL)) as unknown as { to: string; subject: string }[]).filter((m) => m.to === email && m.subject.startsWith('Review due'));
    const reminders = () => jobStates({ accountId, kind: 'compliance_reminder' });
    const remindersDone = async () => {
      const states = await reminders();
      return states.length >= 2 && states.every((state) => state === 'done');
    };

    // The first sweep (queued only now, after the items exist), then its two reminder mails.
    await tickUntil(clock, sweepDone(clock), 'the first sweep');
    await tickUntil(clock, remindersDone, 'the two reminders');
    expect((await mails()).map((m) => m.subject).sort()).toEqual(['Review due in 7 days: Firewall review', 'Review due today: Backup restore test']);

    // Two more sweeps of the same day: no reminder queued again, no mail more.
    for (const at of [clock + 60_000, clock + 120_000]) {
      await tickUntil(at, sweepDone(at), 'a later sweep');
      await tickUntil(at, remindersDone, 'the reminders after a later sweep');
    }
    expect(await reminders()).toHaveLength(2);
    expect(await mails()).toHaveLength(2);
    const { data: item } = await serviceClient().from('compliance_items').select('status').eq('id', ids.today).single();
    expect(item!.status).toBe('Action Required');
    const { data: events } = await serviceClient().from('events').select('kind').eq('resource_id', ids.today).eq('kind', 'review_due');
    expect(events).toHaveLength(1);
  });
});
