// The migrations apply cleanly through the backend's migration runner, on
// PGlite and on PostgreSQL 15, from scratch and then a second time in a row:
// the second run applies nothing (tracked in supabase_migrations) and keeps data.
import { describe, expect, it } from 'vitest';
import { applySchema, createPglite, createPostgres, migrationFiles, one, postgresUrl } from './support/sql-db.ts';

const targets = [
  { name: 'PGlite', create: createPglite, skip: false },
  { name: 'PostgreSQL 15', create: () => createPostgres(), skip: !postgresUrl },
];

for (const target of targets) {
  describe.skipIf(target.skip)(`migrations on ${target.name}`, () => {
    it('apply from scratch with the seed, then a second run applies nothing and keeps the data', async () => {
      const { db, drop } = await target.create();
      try {
        const versions = migrationFiles().map((f) => f.slice(0, 14));
        expect(versions.length).toBeGreaterThanOrEqual(10);

        const first = await applySchema(db, { seed: true });
        expect(first).toEqual({ applied: versions, seeded: true });
        const recorded = await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations order by version');
        expect(recorded.rows.map((r) => r.version)).toEqual(versions);

        const before = await one<{ accounts: number; quotes: number }>(db,
          'select (select count(*)::int from public.accounts) as accounts, (select count(*)::int from public.quotes) as quotes');
        expect(before.accounts).toBe(2);

        const second = await applySchema(db, { seed: true });
        expect(second).toEqual({ applied: [], seeded: false });
        expect(await one(db,
          'select (select count(*)::int from public.accounts) as accounts, (select count(*)::int from public.quotes) as quotes')).toEqual(before);
        const modules = await one<{ n: number }>(db, 'select count(*)::int as n from public.modules');
        expect(modules.n).toBe(6);
      } finally {
        await drop();
      }
    });

    it('leave row-level security on for every table of public, later ones included', async () => {
      const { db, drop } = await target.create();
      try {
        await applySchema(db);
        const { rows } = await db.query<{ relname: string; relrowsecurity: boolean }>(
          `select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'public' and c.relkind = 'r' order by c.relname`);
        // The twelve tables at least; any later table must have RLS too.
        expect(rows.map((r) => r.relname)).toEqual(expect.arrayContaining([
          'account_modules', 'accounts', 'audit_logs', 'contacts', 'integrations', 'leads', 'modules',
          'quote_items', 'quotes', 'templates', 'user_invitations', 'users',
        ]));
        expect(rows.filter((r) => !r.relrowsecurity)).toEqual([]);
      } finally {
        await drop();
      }
    });
  });
}
