// The demo data applies on both databases through the real sign-up trigger,
// with the credentials the README gives, and shows tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bcrypt from 'bcryptjs';
import type { Db } from '../../supabase/local/db.ts';
import { applySchema, asUser, createPglite, createPostgres, one, postgresUrl, type TestDatabase } from './support/sql-db.ts';

const targets = [
  { name: 'PGlite', create: createPglite, skip: false },
  { name: 'PostgreSQL', create: () => createPostgres(), skip: !postgresUrl },
];

for (const target of targets) {
  describe.skipIf(target.skip)(`demo data on ${target.name}`, () => {
    let handle: TestDatabase;
    let db: Db;
    const authId = async (email: string) => (await one<{ id: string }>(db, 'select id from auth.users where email = $1', [email])).id;

    beforeAll(async () => {
      handle = await target.create();
      db = handle.db;
      await applySchema(db, { seed: true });
    });
    afterAll(async () => handle?.drop());

    it('makes OpsHub Pro the master account the landing page shows', async () => {
      expect(await one(db, 'select * from public.get_public_site_info()')).toEqual({
        name: 'OpsHub Pro', contact_email: 'hello@opshub.test', description: 'Operations & Automation Hub — Pro Edition',
      });
    });

    it('has the demo users, with their roles and bcrypt passwords GoTrue can check', async () => {
      const { rows } = await db.query<{ email: string; role: string; account: string; first_name: string; hash: string }>(
        `select u.email, u.role, a.name as account, u.first_name, au.encrypted_password as hash
           from public.users u join public.accounts a on a.id = u.account_id join auth.users au on au.id = u.auth_user_id
          order by a.created_at, u.role`);
      expect(rows.map(({ hash: _hash, ...rest }) => rest)).toEqual([
        { email: 'demo@opshub.test', role: 'admin', account: 'OpsHub Pro', first_name: 'Dana' },
        { email: 'auditor@opshub.test', role: 'auditor', account: 'OpsHub Pro', first_name: 'Avery' },
        { email: 'john@acme.test', role: 'client', account: 'OpsHub Pro', first_name: 'John' },
        { email: 'member@opshub.test', role: 'member', account: 'OpsHub Pro', first_name: 'Morgan' },
        { email: 'admin@northwind.test', role: 'admin', account: 'Northwind Traders', first_name: 'Nora' },
      ]);
      for (const row of rows) {
        expect(row.hash).toMatch(/^\$2[ab]\$/);
        expect(await bcrypt.compare('demo1234', row.hash)).toBe(true);
      }
    });

    it("holds the sample rows of the spec's screens for OpsHub Pro", async () => {
      const dana = await authId('demo@opshub.test');
      const counts = await asUser(db, dana, (tx) => one<Record<string, unknown>>(tx, `
        select (select count(*)::int from public.leads) as leads,
               (select count(distinct status)::int from public.leads) as lead_statuses,
               (select count(*)::int from public.contacts) as contacts,
               (select count(*)::int from public.quotes where quote_number like 'Q-%') as numbered_quotes,
               (select count(*)::int from public.quote_items) as quote_items,
               (select array_agg(type order by type) from public.templates) as template_types,
               (select array_agg(type order by type) from public.integrations) as integration_types,
               (select array_agg(m.key || ':' || am.status order by m.key) from public.account_modules am join public.modules m on m.id = am.module_id) as modules,
               (select array_agg(email || ':' || role) from public.user_invitations where accepted_at is null) as pending`));
      expect(counts).toEqual({
        leads: 5, lead_statuses: 4, contacts: 2, numbered_quotes: 3, quote_items: 3,
        template_types: ['contract', 'email', 'invoice', 'quote'],
        integration_types: ['email', 'payment'],
        modules: ['cpq:active', 'helpdesk:paused', 'logistics:active'],
        pending: ['new.hire@opshub.test:supplier'],
      });
    });

    it('keeps Northwind Traders apart: its admin sees only its own rows', async () => {
      const nora = await authId('admin@northwind.test');
      const seen = await asUser(db, nora, (tx) => one<Record<string, unknown>>(tx, `
        select (select array_agg(distinct name) from public.accounts) as accounts,
               (select count(*)::int from public.leads) as leads,
               (select count(*)::int from public.quotes) as quotes,
               (select count(*)::int from public.users) as users`));
      expect(seen).toEqual({ accounts: ['Northwind Traders'], leads: 1, quotes: 1, users: 1 });
    });
  });
}
