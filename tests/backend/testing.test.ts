// startTestBackend(): each call is a database of its own, already migrated,
// and stop() removes it. (How fast a fresh one starts is measured by bench/backend.)
import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../supabase/local/db.ts';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { DATABASES, FIXTURE_SCHEMA } from './harness.ts';

for (const database of DATABASES) {
  describe.skipIf(!database.available)(`startTestBackend on ${database.kind}`, () => {
    it('gives each backend its own fresh, migrated and seeded database', async () => {
      const options = { ...FIXTURE_SCHEMA, postgresUrl: database.postgresUrl };
      const first = await startTestBackend(options);
      const second = await startTestBackend(options);
      try {
        await first.db.query("insert into public.tags (label) values ('only in the first')");
        const inSecond = await second.db.query("select 1 from public.tags where label = 'only in the first'");
        expect(inSecond.rows).toHaveLength(0);
        const books = await second.db.query<{ n: number }>('select count(*)::int as n from public.books');
        expect(books.rows[0].n).toBe(7);
        // The first one's writes did not reach the snapshot the next one starts from.
        await first.db.query('checkpoint');
        const third = await startTestBackend(options);
        const inThird = await third.db.query("select 1 from public.tags where label = 'only in the first'");
        await third.stop();
        expect(inThird.rows).toHaveLength(0);
      } finally {
        await first.stop();
        await second.stop();
      }
    });

    it('deletes its database on stop', async () => {
      const backend = await startTestBackend({ ...FIXTURE_SCHEMA, seed: false, postgresUrl: database.postgresUrl });
      const books = await backend.db.query<{ n: number }>('select count(*)::int as n from public.books');
      expect(books.rows[0].n).toBe(0);
      let name = '';
      if (database.postgresUrl) name = (await backend.db.query<{ d: string }>('select current_database() as d')).rows[0].d;
      await backend.stop();
      if (database.postgresUrl) {
        const server = await openPostgres(database.postgresUrl);
        const left = await server.query('select 1 from pg_database where datname = $1', [name]);
        await server.close();
        expect(left.rows).toHaveLength(0);
      } else {
        // PGlite test databases live in memory: closed is gone.
        await expect(backend.db.query('select 1')).rejects.toThrow();
      }
    });
  });
}
