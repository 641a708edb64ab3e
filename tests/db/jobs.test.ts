// The jobs runner's half in the database (decision 021): claim_jobs hands a
// job to one runner only, even to two runners claiming at the same moment;
// finish_job retries with backoff and then fails; every attempt leaves a run
// record; a dead runner's job is reclaimed once, its run closed as abandoned,
// and never run past its attempts; a runner that lost its job cannot record
// an outcome; the API roles cannot queue, claim or read another account's
// jobs; events are written once per statement. On PGlite (one connection) and
// on PostgreSQL with TEST_POSTGRES_URL, where two connections really race.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const targets = [
  { name: 'PGlite', on: 'pglite' as const, skip: false },
  { name: 'PostgreSQL', on: 'postgres' as const, skip: !process.env.TEST_POSTGRES_URL },
];

interface Job {
  id: string;
  status: string;
  attempts: number;
  run_at: string;
  last_error: string | null;
}

for (const target of targets) {
  describe.skipIf(target.skip)(`jobs on ${target.name}`, () => {
    let backend: TestBackend;
    let service: SupabaseClient;
    let admin: Member;

    beforeAll(async () => {
      backend = await startBackend({ on: target.on });
      service = serviceClient(backend);
      admin = await signUpFreshAdmin(backend, 'jobs-admin');
    });
    afterAll(async () => backend?.stop());

    async function enqueue(n: number, kind = 'test.noop', accountId: string | null = null): Promise<string[]> {
      const prefix = randomUUID();
      const { rows } = await backend.db.query<{ id: string }>(
        `select private.enqueue_job($1, $2, '{}', $3 || ':' || i) as id from generate_series(1, $4) i`,
        [kind, accountId, prefix, n]);
      return rows.map((r) => r.id);
    }

    async function claim(runner: string, limit = 10): Promise<Job[]> {
      const { data, error } = await service.rpc('claim_jobs', { p_runner: runner, p_limit: limit });
      if (error) throw new Error(error.message);
      return data as Job[];
    }

    async function finish(id: string, runner: string, error: string | null = null, permanent = false): Promise<Job> {
      const answer = await service.rpc('finish_job', { p_job_id: id, p_runner: runner, p_error: error, p_permanent: permanent }).single<Job>();
      if (answer.error) throw new Error(answer.error.message);
      return answer.data!;
    }

    /** Claims and finishes everything due, as a runner would, until nothing is left. */
    async function drain(runner: string, seen: string[]): Promise<void> {
      for (;;) {
        const jobs = await claim(runner, 7);
        if (jobs.length === 0) return;
        for (const job of jobs) {
          seen.push(job.id);
          await finish(job.id, runner);
        }
      }
    }

    it('an idempotency key queues a job once', async () => {
      const key = `once:${randomUUID()}`;
      const first = await backend.db.query<{ id: string | null }>(`select private.enqueue_job('test.once', null, '{}', $1) as id`, [key]);
      const second = await backend.db.query<{ id: string | null }>(`select private.enqueue_job('test.once', null, '{}', $1) as id`, [key]);
      expect(first.rows[0].id).not.toBeNull();
      expect(second.rows[0].id).toBeNull();
      const { rows } = await backend.db.query('select 1 from public.jobs where idempotency_key = $1', [key]);
      expect(rows).toHaveLength(1);
    });

    it('two runners draining 200 jobs at once never run one twice', async () => {
      const ids = await enqueue(200);
      const seenA: string[] = [];
      const seenB: string[] = [];
      await Promise.all([drain('runner-a', seenA), drain('runner-b', seenB)]);
      const all = [...seenA, ...seenB].filter((id) => ids.includes(id));
      expect(new Set(all).size).toBe(all.length);
      expect(all.sort()).toEqual([...ids].sort());
      const { rows } = await backend.db.query<{ job_id: string; n: number }>(
        `select job_id, count(*)::int as n from public.job_runs where job_id = any($1::uuid[]) group by job_id having count(*) <> 1`, [ids]);
      expect(rows, 'jobs with other than one run record').toEqual([]);
      const done = await backend.db.query<{ n: number }>(`select count(*)::int as n from public.jobs where id = any($1::uuid[]) and status = 'done'`, [ids]);
      expect(done.rows[0].n).toBe(200);
    });

    it.skipIf(target.on !== 'postgres')('a job locked by one runner is skipped by the other, not waited for', async () => {
      const ids = await enqueue(4, 'test.locked');
      const url = new URL(process.env.TEST_POSTGRES_URL!);
      // The backend's own database (a copy made for this file).
      const { rows: [{ db }] } = await backend.db.query<{ db: string }>('select current_database() as db');
      url.pathname = `/${db}`;
      const a = new pg.Client({ connectionString: url.toString() });
      const b = new pg.Client({ connectionString: url.toString() });
      await a.connect();
      await b.connect();
      try {
        await a.query('begin');
        const first = await a.query<{ id: string }>(`select id from public.claim_jobs('tx-a', 2) where kind = 'test.locked'`);
        // A's transaction is still open: its two rows are locked.
        await b.query('begin');
        await b.query(`set local lock_timeout = '2s'`);
        const second = await b.query<{ id: string }>(`select id from public.claim_jobs('tx-b', 100) where kind = 'test.locked'`);
        await b.query('commit');
        await a.query('commit');
        const firstIds = first.rows.map((r) => r.id);
        const secondIds = second.rows.map((r) => r.id);
        expect(firstIds).toHaveLength(2);
        expect(secondIds.filter((id) => firstIds.includes(id))).toEqual([]);
        expect([...firstIds, ...secondIds].sort()).toEqual([...ids].sort());
      } finally {
        await a.end();
        await b.end();
      }
    });

    /** Makes a claimed job look as if its runner died 11 minutes ago. */
    async function goStale(ids: string[]): Promise<void> {
      await backend.db.query(`update public.jobs set locked_at = now() - interval '11 minutes' where id = any($1::uuid[])`, [ids]);
    }

    async function runsOf(id: string) {
      const { rows } = await backend.db.query<{ runner: string; attempt: number; outcome: string; error: string | null; finished_at: string | null }>(
        'select runner, attempt, outcome, error, finished_at from public.job_runs where job_id = $1 order by attempt', [id]);
      return rows;
    }

    /** Two connections of their own to the backend's database on the PostgreSQL server. */
    async function twoConnections(): Promise<[pg.Client, pg.Client]> {
      const url = new URL(process.env.TEST_POSTGRES_URL!);
      const { rows: [{ db }] } = await backend.db.query<{ db: string }>('select current_database() as db');
      url.pathname = `/${db}`;
      const clients: [pg.Client, pg.Client] = [new pg.Client({ connectionString: url.toString() }), new pg.Client({ connectionString: url.toString() })];
      await Promise.all(clients.map((c) => c.connect()));
      return clients;
    }

    /**
     * A runner on its own connection: claims `batch` jobs of `kind`, finishes
     * them, again until a claim answers none. Each claim and finish is its own
     * transaction, as through the API. Records which backend process served it.
     */
    async function drainOn(client: pg.Client, runner: string, kind: string, seen: string[]): Promise<number> {
      const { rows: [{ pid }] } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      for (;;) {
        const { rows } = await client.query<{ id: string; kind: string }>('select id, kind from public.claim_jobs($1, 5)', [runner]);
        if (rows.length === 0) return pid;
        for (const job of rows) {
          if (job.kind !== kind) continue;
          seen.push(job.id);
          await client.query('select public.finish_job($1, $2)', [job.id, runner]);
        }
      }
    }

    it.skipIf(target.on !== 'postgres')('two connections claiming 300 jobs at once on the server never take one twice', async () => {
      const ids = await enqueue(300, 'test.race');
      const [a, b] = await twoConnections();
      try {
        const seenA: string[] = [];
        const seenB: string[] = [];
        const [pidA, pidB] = await Promise.all([drainOn(a, 'race-a', 'test.race', seenA), drainOn(b, 'race-b', 'test.race', seenB)]);
        // Two server processes, both of which got work: the claims really overlapped.
        expect(pidA).not.toBe(pidB);
        expect(seenA.length).toBeGreaterThan(0);
        expect(seenB.length).toBeGreaterThan(0);
        const all = [...seenA, ...seenB];
        expect(new Set(all).size).toBe(all.length);
        expect([...all].sort()).toEqual([...ids].sort());
        const { rows } = await backend.db.query<{ n: number }>(
          `select count(*)::int as n from public.job_runs where job_id = any($1::uuid[]) and outcome = 'done'`, [ids]);
        expect(rows[0].n).toBe(300);
      } finally {
        await a.end();
        await b.end();
      }
    });

    it.skipIf(target.on !== 'postgres')('two connections reclaiming 300 stale jobs at once on the server close each dead run once and run each job once', async () => {
      const ids = await enqueue(300, 'test.race_stale');
      // A runner claims them all and dies.
      for (let claimed = 0; claimed < ids.length;) {
        claimed += (await backend.db.query(`select id from public.claim_jobs('dead', 100) where kind = 'test.race_stale'`)).rows.length;
      }
      await goStale(ids);
      const [a, b] = await twoConnections();
      try {
        const seenA: string[] = [];
        const seenB: string[] = [];
        await Promise.all([drainOn(a, 'heir-a', 'test.race_stale', seenA), drainOn(b, 'heir-b', 'test.race_stale', seenB)]);
        const all = [...seenA, ...seenB];
        expect(new Set(all).size).toBe(all.length);
        expect([...all].sort()).toEqual([...ids].sort());
        const { rows } = await backend.db.query<{ runs: string; n: number }>(
          `select string_agg(r.runner || ':' || r.attempt || ':' || r.outcome, ',' order by r.attempt) as runs, count(*)::int as n
             from public.job_runs r where r.job_id = any($1::uuid[]) group by r.job_id`, [ids]);
        expect(rows).toHaveLength(300);
        for (const row of rows) expect(row.runs).toMatch(/^dead:1:abandoned,heir-[ab]:2:done$/);
        const { rows: [jobs] } = await backend.db.query<{ n: number }>(
          `select count(*)::int as n from public.jobs where id = any($1::uuid[]) and status = 'done' and attempts = 2`, [ids]);
        expect(jobs.n).toBe(300);
      } finally {
        await a.end();
        await b.end();
      }
    });

    it('a failing job is retried with growing backoff, then fails, each attempt recorded', async () => {
      const [id] = await enqueue(1, 'test.failing');
      const waits: number[] = [];
      for (let attempt = 1; attempt <= 5; attempt++) {
        // Make it due now, whatever its backoff said.
        await backend.db.query(`update public.jobs set run_at = now() where id = $1`, [id]);
        const claimed = (await claim('retry-runner', 100)).find((j) => j.id === id);
        expect(claimed?.attempts, `attempt ${attempt}`).toBe(attempt);
        const after = await finish(id, 'retry-runner', `SMTP said no (${attempt})`);
        if (attempt < 5) {
          expect(after.status).toBe('queued');
          waits.push(new Date(after.run_at).getTime() - Date.now());
        } else {
          expect(after).toMatchObject({ status: 'failed', last_error: 'SMTP said no (5)' });
        }
      }
      // 30 s, 60 s, 120 s, 240 s.
      for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThan(waits[i - 1] * 1.5);
      const { rows } = await backend.db.query<{ attempt: number; outcome: string; error: string }>(
        'select attempt, outcome, error from public.job_runs where job_id = $1 order by attempt', [id]);
      expect(rows.map((r) => r.outcome)).toEqual(['retry', 'retry', 'retry', 'retry', 'failed']);
      expect(rows[0].error).toBe('SMTP said no (1)');
      expect(await claim('retry-runner', 100)).not.toContainEqual(expect.objectContaining({ id }));
    });

    it('a permanent error fails at once; only the runner holding a job finishes it', async () => {
      const [id] = await enqueue(1, 'test.permanent');
      await claim('holder', 100);
      await expect(finish(id, 'someone-else')).rejects.toThrow(/does not hold/);
      expect(await finish(id, 'holder', 'No such quote', true)).toMatchObject({ status: 'failed', attempts: 1 });
    });

    it('a job whose runner died is claimed again after 10 minutes; the dead run is closed as abandoned', async () => {
      const [id] = await enqueue(1, 'test.stale');
      await claim('dies', 100);
      expect((await claim('alive', 100)).map((j) => j.id)).not.toContain(id);
      await goStale([id]);
      expect(await claim('alive', 100)).toContainEqual(expect.objectContaining({ id, attempts: 2 }));
      const runs = await runsOf(id);
      expect(runs.map(({ runner, attempt, outcome }) => ({ runner, attempt, outcome }))).toEqual([
        { runner: 'dies', attempt: 1, outcome: 'abandoned' },
        { runner: 'alive', attempt: 2, outcome: 'running' },
      ]);
      expect(runs[0].finished_at).not.toBeNull();
      expect(runs[0].error).toMatch(/dies stopped without recording an outcome/);
      expect(await finish(id, 'alive')).toMatchObject({ status: 'done', attempts: 2 });
      expect((await runsOf(id)).map((r) => r.outcome)).toEqual(['abandoned', 'done']);
    });

    it('a job whose runner died on its last attempt fails instead of running again', async () => {
      const [id] = await enqueue(1, 'test.stale_last');
      for (let attempt = 1; attempt <= 4; attempt++) {
        await backend.db.query('update public.jobs set run_at = now() where id = $1', [id]);
        expect((await claim(`r${attempt}`, 100)).map((j) => j.id)).toContain(id);
        await finish(id, `r${attempt}`, 'try again');
      }
      await backend.db.query('update public.jobs set run_at = now() where id = $1', [id]);
      expect(await claim('last', 100)).toContainEqual(expect.objectContaining({ id, attempts: 5 }));
      await goStale([id]);
      expect((await claim('next', 100)).map((j) => j.id)).not.toContain(id);
      const { rows: [job] } = await backend.db.query<Job & { locked_by: string | null }>('select * from public.jobs where id = $1', [id]);
      expect(job).toMatchObject({ status: 'failed', attempts: 5, locked_by: null });
      expect(job.last_error).toMatch(/Attempt 5 was abandoned/);
      expect((await runsOf(id)).map((r) => r.outcome)).toEqual(['retry', 'retry', 'retry', 'retry', 'abandoned']);
      // Never again, however often runners look.
      await goStale([id]);
      expect((await claim('later', 100)).map((j) => j.id)).not.toContain(id);
    });

    it('a runner that lost its job to a reclaim cannot record an outcome over the new runner\'s', async () => {
      const [early, late] = await enqueue(2, 'test.lost');
      await claim('slow', 100);
      await goStale([early, late]);
      await claim('fresh', 100);
      // The slow runner wakes up before the fresh one has finished `early`...
      await expect(finish(early, 'slow')).rejects.toThrow(/does not hold/);
      expect(await finish(early, 'fresh', 'SMTP said no')).toMatchObject({ status: 'queued', attempts: 2, last_error: 'SMTP said no' });
      // ... and after it has finished `late`.
      expect(await finish(late, 'fresh')).toMatchObject({ status: 'done' });
      await expect(finish(late, 'slow', 'it failed', true)).rejects.toThrow(/does not hold/);
      const { rows } = await backend.db.query<Job>('select * from public.jobs where id = $1', [late]);
      expect(rows[0]).toMatchObject({ status: 'done', last_error: null });
      expect((await runsOf(late)).map((r) => `${r.runner}:${r.outcome}`)).toEqual(['slow:abandoned', 'fresh:done']);
    });

    it('signed-in users cannot queue, claim or finish jobs; staff read only their account\'s', async () => {
      const [own] = await enqueue(1, 'test.visible', admin.accountId);
      const [foreign] = await enqueue(1, 'test.visible', null);
      for (const [fn, args] of [
        ['claim_jobs', { p_runner: 'me' }],
        ['finish_job', { p_job_id: own, p_runner: 'me' }],
        ['enqueue_job', { p_kind: 'test.forged', p_idempotency_key: randomUUID() }],
      ] as const) {
        const { error } = await admin.client.rpc(fn, args);
        expect(error, fn).not.toBeNull();
      }
      const inserted = await admin.client.from('jobs').insert({ kind: 'test.forged', idempotency_key: randomUUID(), account_id: admin.accountId });
      expect(inserted.error).not.toBeNull();
      const { data } = await admin.client.from('jobs').select('id').in('id', [own, foreign]);
      expect((data ?? []).map((r) => r.id)).toEqual([own]);
    });

    it('a new lead and a new contact write their events in the same transaction', async () => {
      const lead = await admin.client.from('leads')
        .insert({ account_id: admin.accountId, name: 'Evan Event', email: 'evan@event.test', company: 'Events Ltd' })
        .select('id').single();
      expect(lead.error).toBeNull();
      const { data } = await admin.client.from('events').select('kind, resource_type, payload').eq('resource_id', lead.data!.id);
      expect(data).toEqual([{ kind: 'lead_created', resource_type: 'leads', payload: { name: 'Evan Event', email: 'evan@event.test' } }]);
      const forged = await admin.client.from('events').insert({ account_id: admin.accountId, kind: 'lead_created', resource_type: 'x' });
      expect(forged.error).not.toBeNull();
    });

    it('a bulk insert of 10,000 leads writes its 10,000 events in one trigger call', async () => {
      // One call per statement, over the statement's new rows (a transition table), not one per row.
      const { rows: triggers } = await backend.db.query<{ name: string; per_row: boolean; new_table: string | null }>(
        `select tgname as name, (tgtype & 1) = 1 as per_row, tgnewtable as new_table from pg_trigger
          where tgname in ('leads_event_created', 'contacts_event_registered') order by tgname`);
      expect(triggers).toEqual([
        { name: 'contacts_event_registered', per_row: false, new_table: 'new_rows' },
        { name: 'leads_event_created', per_row: false, new_table: 'new_rows' },
      ]);
      const company = `Bulk ${randomUUID()}`;
      await backend.db.query(
        `insert into public.leads (account_id, name, email, company)
         select $1, 'Lead ' || i, 'lead' || i || '@bulk.test', $2 from generate_series(1, 10000) i`,
        [admin.accountId, company]);
      const { rows: [counts] } = await backend.db.query<{ leads: number; events: number; matching: number }>(
        `select count(*)::int as leads, count(e.id)::int as events,
                count(*) filter (where e.kind = 'lead_created' and e.account_id = l.account_id
                                   and e.payload = jsonb_build_object('name', l.name, 'email', l.email))::int as matching
           from public.leads l left join public.events e on e.resource_id = l.id
          where l.company = $1`, [company]);
      expect(counts).toEqual({ leads: 10000, events: 10000, matching: 10000 });
    });
  });
}
