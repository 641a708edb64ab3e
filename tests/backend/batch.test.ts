// Db.batch (supabase/local/batch.ts): several statements in one round trip,
// one implicit transaction, statements prepared once per connection. The
// REST handler runs every request through it, so its transaction and
// error semantics are the ones PostgREST's requests have.
import { describe, expect, it } from 'vitest';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { describeOnEachDatabase, FIXTURE_SCHEMA, POSTGRES_URL } from './harness.ts';

const label = (what: string) => `batch ${what} ${Math.random().toString(36).slice(2)}`;

describeOnEachDatabase('Db.batch', (fixture) => {
  const db = () => fixture().backend.db;
  const countTags = async (text: string) =>
    (await db().query<{ n: number }>('select count(*)::int as n from public.tags where label = $1', [text])).rows[0].n;

  it('runs the statements in order and returns each one its rows', async () => {
    const results = await db().batch([
      { sql: "select set_config('ops.batch_test', $1, true) as set", params: ['seen'] },
      { sql: "select current_setting('ops.batch_test') as value, $1::int + 1 as next", params: ['41'] },
    ]);
    expect(results).toHaveLength(2);
    expect(results[1].rows).toEqual([{ value: 'seen', next: 42 }]);
    expect(results[1].fields.map((f) => f.name)).toEqual(['value', 'next']);
  });

  it('is one transaction: a setting made local to it is gone afterwards', async () => {
    await db().batch([{ sql: "select set_config('ops.batch_local', 'inside', true)" }]);
    const after = await db().query<{ v: string | null }>("select current_setting('ops.batch_local', true) as v");
    expect(after.rows[0].v ?? '').toBe('');
  });

  it('commits every statement together, and rolls all of them back when one fails', async () => {
    const kept = label('kept');
    const results = await db().batch([{ sql: 'insert into public.tags (label) values ($1)', params: [kept] }]);
    expect(results[0].affectedRows).toBe(1);
    expect(await countTags(kept)).toBe(1);

    const lost = label('lost');
    const failure = db().batch([
      { sql: 'insert into public.tags (label) values ($1)', params: [lost] },
      { sql: 'select 1 / $1::int', params: ['0'] },
    ]);
    await expect(failure).rejects.toMatchObject({ code: '22012' });
    expect(await countTags(lost)).toBe(0);
  });

  it('stays usable after errors, including a statement that never parsed, run again', async () => {
    for (let i = 0; i < 2; i++) {
      await expect(db().batch([{ sql: 'select * from public.no_such_table' }])).rejects.toMatchObject({ code: '42P01' });
      await expect(db().batch([{ sql: 'select $1::int as n', params: ['x'] }])).rejects.toMatchObject({ code: '22P02' });
    }
    for (let i = 0; i < 3; i++) {
      const [result] = await db().batch([{ sql: 'select $1::int as n', params: [String(i)] }]);
      expect(result.rows).toEqual([{ n: i }]);
    }
  });

  it('keeps working past the prepared-statement limit of a connection', async () => {
    // More distinct statements than a connection keeps prepared (200): the oldest are closed and, asked again, prepared anew.
    for (let i = 0; i < 230; i++) {
      const [result] = await db().batch([{ sql: `select ${i} as n, $1::text as t`, params: ['x'] }]);
      expect(result.rows[0].n).toBe(i);
    }
    const [again] = await db().batch([{ sql: 'select 0 as n, $1::text as t', params: ['y'] }]);
    expect(again.rows).toEqual([{ n: 0, t: 'y' }]);
  });

  it('never runs inside another caller’s open transaction', async () => {
    const text = label('uncommitted');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = db()
      .transaction(async (tx) => {
        await tx.query('insert into public.tags (label) values ($1)', [text]);
        inserted();
        await gate;
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    await insertedYet;
    const seen = db().batch([{ sql: 'select count(*)::int as n from public.tags where label = $1', params: [text] }]);
    release();
    expect(await transaction).toBe('rolled back');
    expect((await seen)[0].rows).toEqual([{ n: 0 }]);
  });
});

describe.skipIf(!POSTGRES_URL)('Db.batch on PostgreSQL when the server ends a session mid-batch', () => {
  it('refuses that batch and runs the next ones on fresh connections', async () => {
    const backend = await startTestBackend({ ...FIXTURE_SCHEMA, postgresUrl: POSTGRES_URL });
    try {
      const { db } = backend;
      // Its refusal is expected from the start: the server's FATAL message can
      // arrive before pg_terminate_backend's own answer does.
      const refused = expect(db.batch([{ sql: 'select pg_sleep(30) as slept' }])).rejects.toMatchObject({ code: '57P01' });
      let pid: number | undefined;
      for (let tries = 0; pid === undefined && tries < 100; tries++) {
        const { rows } = await db.query<{ pid: number }>(
          "select pid from pg_stat_activity where datname = current_database() and query like 'select pg_sleep(30)%' and pid <> pg_backend_pid()",
        );
        pid = rows[0]?.pid;
        if (pid === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(pid).toBeDefined();
      await db.query('select pg_terminate_backend($1)', [pid]);
      await refused;
      for (let i = 0; i < 20; i++) {
        const [result] = await db.batch([{ sql: 'select $1::int as n', params: [String(i)] }]);
        expect(result.rows).toEqual([{ n: i }]);
      }
    } finally {
      await backend.stop();
    }
  });
});
