// The jobs runner's half in the database (decision 021): claim_jobs hands a
// job to one runner only, even to two runners claiming at the same moment;
// finish_job retries with backoff and then fails; every attempt leaves a run
// record; the API roles cannot queue, claim or read another account's jobs.
// On PGlite (one connection) and on PostgreSQL 15 with TEST_POSTGRES_URL,
// where two connections really race.
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

    it('a job whose runner died is claimed again after 10 minutes', async () => {
      const [id] = await enqueue(1, 'test.stale');
      await claim('dies', 100);
      expect((await claim('alive', 100)).map((j) => j.id)).not.toContain(id);
      await backend.db.query(`update public.jobs set locked_at = now() - interval '11 minutes' where id = $1`, [id]);
      expect(await claim('alive', 100)).toContainEqual(expect.objectContaining({ id, attempts: 2 }));
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
  });
}
