// One tenant must not hold the others: a bulk insert is capped (PGlite is one
// connection and cannot cut a statement short), and on PostgreSQL the API
// roles' statement timeouts apply per request, as hosted Supabase sets them.
import { expect, it } from 'vitest';
import { MAX_INSERT_ROWS } from '../../supabase/local/rest/write.ts';
import { describeOnEachDatabase, uniqueName } from './harness.ts';

describeOnEachDatabase('REST limits', (fx) => {
  const tagCount = async (prefix: string) => {
    const { count } = await fx().service.from('tags').select('*', { count: 'exact', head: true }).like('label', `${prefix}%`);
    return count;
  };

  it(`refuses a bulk insert of more than ${MAX_INSERT_ROWS} rows with 413, writing nothing`, async () => {
    const prefix = uniqueName('bulk');
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `${prefix}-${n}-${i}` }));
    const refused = await fx().service.from('tags').insert(rows(MAX_INSERT_ROWS + 1));
    expect(refused.status).toBe(413);
    expect(refused.error).toMatchObject({
      code: 'PGRST413',
      message: `A bulk insert may hold at most ${MAX_INSERT_ROWS} rows (this one has ${MAX_INSERT_ROWS + 1}): send it in smaller batches`,
    });
    expect(await tagCount(prefix)).toBe(0);
    const accepted = await fx().service.from('tags').insert(rows(MAX_INSERT_ROWS));
    expect(accepted.error).toBeNull();
    expect(await tagCount(prefix)).toBe(MAX_INSERT_ROWS);
  });

  it('gives the API roles the statement timeouts of hosted Supabase (anon 3s, authenticated 8s)', async () => {
    const { rows } = await fx().backend.db.query<{ role: string; setting: string }>(
      `select r.rolname as role, c as setting from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
         cross join unnest(s.setconfig) c where s.setdatabase = 0 and c like 'statement_timeout=%' and r.rolname in ('anon', 'authenticated')
        order by 1`,
    );
    expect(rows).toEqual([
      { role: 'anon', setting: 'statement_timeout=3s' },
      { role: 'authenticated', setting: 'statement_timeout=8s' },
    ]);
  });

  it('cuts a request short at its role\'s statement timeout on PostgreSQL (PGlite has no timers to do it)', async () => {
    const { backend } = fx();
    await backend.db.exec(`create or replace function public.nap(seconds float) returns boolean language sql as 'select pg_sleep(seconds) is not null';
      grant execute on function public.nap(float) to authenticated, service_role;`);
    // A timeout for this database only, short enough for a test; it wins over the cluster-wide 8s.
    const database = (await backend.db.query<{ name: string }>('select current_database() as name')).rows[0].name;
    await backend.db.exec(`alter role authenticated in database "${database}" set statement_timeout = '300ms'`);
    backend.reloadSchema();
    try {
      const user = await fx().asUser('00000000-0000-4000-8000-000000000001');
      const started = Date.now();
      const napped = await user.rpc('nap', { seconds: 2 });
      if (backend.db.kind === 'postgres') {
        expect(napped.error).toMatchObject({ code: '57014', message: 'canceling statement due to statement timeout' });
        expect(Date.now() - started).toBeLessThan(1_900);
      } else {
        expect(napped.error).toBeNull();
      }
      // The service role has no timeout of its own.
      expect((await fx().service.rpc('nap', { seconds: 0.5 })).error).toBeNull();
    } finally {
      await backend.db.exec(`alter role authenticated in database "${database}" reset statement_timeout`);
      backend.reloadSchema();
    }
  });
});
