// The migrations apply cleanly through the backend's migration runner, on
// PGlite and on PostgreSQL 15, from scratch and then a second time in a row:
// the second run applies nothing (tracked in supabase_migrations) and keeps data.
import { describe, expect, it } from 'vitest';
import { applySchema, createPglite, createPostgres, migrationFiles, one, postgresUrl, rowSecurityGaps } from './support/sql-db.ts';

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

    it('leave row-level security on for every table of public and private, later ones included', async () => {
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
        // Every relation of public from the catalogue: no grant to anon or authenticated without a policy that says which rows.
        expect(await rowSecurityGaps(db)).toEqual([]);
      } finally {
        await drop();
      }
    });

    it('the row-security check fails on a new table without row-level security, or without a policy for each role and command it grants', async () => {
      const { db, drop } = await target.create();
      try {
        await applySchema(db);
        // As a migration that forgets would leave them: Supabase's default privileges grant all to anon and authenticated.
        await db.exec(`
          create table public.forgot_rls (id int primary key, account_id uuid);
          create table public.forgot_policies (id int primary key, account_id uuid);
          alter table public.forgot_policies enable row level security;
          create policy "staff read" on public.forgot_policies for select to authenticated using (true);
          create view public.owner_rights as select id from public.forgot_policies;`);
        const everything = (table: string, roles: string[]) =>
          roles.flatMap((role) => [
            ...['DELETE', 'INSERT', 'SELECT', 'UPDATE'].map((command) => `${table}: ${role} may ${command}, and no policy says which rows`),
            `${table}: ${role} may TRUNCATE, which row-level security does not stop`,
          ]);
        const gaps = await rowSecurityGaps(db);
        expect(gaps.filter((gap) => !/^(forgot_rls|forgot_policies|owner_rights):/.test(gap))).toEqual([]);
        expect(gaps.filter((gap) => gap.startsWith('forgot_rls:')).sort()).toEqual(
          ['forgot_rls: row-level security is off', ...everything('forgot_rls', ['anon', 'authenticated'])].sort(),
        );
        expect(gaps.filter((gap) => gap.startsWith('forgot_policies:')).sort()).toEqual(
          everything('forgot_policies', ['anon', 'authenticated'])
            .filter((gap) => gap !== 'forgot_policies: authenticated may SELECT, and no policy says which rows')
            .sort(),
        );
        expect(gaps.filter((gap) => gap.startsWith('owner_rights:')).sort()).toEqual([
          "owner_rights: anon may read this view, which runs with its owner's rights (not security_invoker)",
          "owner_rights: authenticated may read this view, which runs with its owner's rights (not security_invoker)",
        ]);
      } finally {
        await drop();
      }
    });
  });
}
