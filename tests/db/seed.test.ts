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
        // The third contact wrote to the helpdesk (a sender unknown until then becomes a contact).
        leads: 5, lead_statuses: 4, contacts: 3, numbered_quotes: 3, quote_items: 3,
        template_types: ['contract', 'email', 'invoice', 'quote'],
        integration_types: ['email', 'payment'],
        modules: ['cpq:active', 'helpdesk:paused', 'logistics:active'],
        pending: ['new.hire@opshub.test:supplier'],
      });
    });

    it('holds a few helpdesk conversations, one unread from a new sender, one answered and resolved', async () => {
      const dana = await authId('demo@opshub.test');
      const { rows } = await asUser(db, dana, (tx) => tx.query<Record<string, unknown>>(`
        select v.subject, v.status, v.unread, (select count(*)::int from public.messages m where m.conversation_id = v.id) as messages
          from public.conversations v order by v.subject`));
      expect(rows).toEqual([
        { subject: 'Delivery window for order 1042', status: 'open', unread: true, messages: 1 },
        { subject: 'Invoice question', status: 'resolved', unread: false, messages: 2 },
        { subject: 'Pricing for 50 seats', status: 'open', unread: true, messages: 1 },
      ]);
    });

    it('holds an invoice in every state, numbered by the real counter in date order, in the account currency', async () => {
      const dana = await authId('demo@opshub.test');
      const { rows: invoices } = await asUser(db, dana, (tx) => tx.query<Record<string, unknown>>(`
        select i.invoice_number, i.status, i.currency = a.default_currency as account_currency,
               i.total::text, i.amount_paid::text, i.subtotal = (select sum(it.total) from public.invoice_items it where it.invoice_id = i.id) as items_add_up,
               (select count(*)::int from public.payments p where p.invoice_id = i.id) as payments, i.quote_id is not null as from_quote
          from public.invoices i join public.accounts a on a.id = i.account_id
         order by i.created_at, i.invoice_number`));
      expect(invoices.map((i) => i.status)).toEqual(['paid', 'void', 'overdue', 'pending', 'sent', 'draft']);
      expect(invoices.every((i) => i.account_currency && i.items_add_up)).toBe(true);
      expect(invoices.map((i) => i.payments)).toEqual([2, 0, 0, 1, 0, 0]);
      expect(invoices.map((i) => i.from_quote)).toEqual([false, false, false, false, false, true]);
      const paid = invoices[0];
      expect(paid.amount_paid).toBe(paid.total);
      const partial = invoices[3];
      expect(BigInt(partial.amount_paid as string) * 2n).toBe(BigInt(partial.total as string) - (BigInt(partial.total as string) % 2n));
      // Gapless per year, in creation order: 0001, 0002, ... (a new year starts again at 0001).
      const byYear = new Map<string, number[]>();
      for (const { invoice_number } of invoices) {
        const [, year, n] = /^INV-(\d{4})-(\d{4,})$/.exec(invoice_number as string)!;
        byYear.set(year, [...(byYear.get(year) ?? []), Number(n)]);
      }
      for (const numbers of byYear.values()) expect(numbers).toEqual(numbers.map((_, index) => index + 1));
      // The next invoice made in the app takes the next number (tried, then rolled back).
      const year = new Date().getUTCFullYear();
      const next = await asUser(db, dana, async (tx) => {
        const made = await one<{ invoice_number: string }>(tx, `select invoice_number from public.create_invoice('Next Client', 'next@client.test', 'Work', 100, 1, 'USD', current_date + 30)`);
        throw Object.assign(new Error('roll back'), { made });
      }).catch((error: { made?: { invoice_number: string } }) => error.made?.invoice_number);
      expect(next).toBe(`INV-${year}-${String((byYear.get(String(year))?.length ?? 0) + 1).padStart(4, '0')}`);
    });

    it('holds a bill to pay and a paid one, in the account currency, for the Bills screen', async () => {
      const dana = await authId('demo@opshub.test');
      const { rows } = await asUser(db, dana, (tx) => tx.query<Record<string, unknown>>(`
        select b.status, b.total = b.subtotal + b.tax as adds_up, b.currency = a.default_currency as account_currency
          from public.bills b join public.accounts a on a.id = b.account_id order by b.status desc`));
      expect(rows).toEqual([
        { status: 'to_pay', adds_up: true, account_currency: true },
        { status: 'paid', adds_up: true, account_currency: true },
      ]);
    });

    it("records the demo invoices' history as Dana (created, sent, payments, paid, voided) and the overdue sweep as the system", async () => {
      const { rows } = await db.query<{ action: string; count: number }>(`
        select a.action, count(*)::int as count from public.audit_logs a join public.users u on u.id = a.user_id
         where u.email = 'demo@opshub.test' and a.resource_type = 'invoice' group by a.action order by a.action`);
      expect(rows).toEqual([
        { action: 'invoice_created', count: 6 },
        { action: 'invoice_paid', count: 1 },
        { action: 'invoice_sent', count: 5 },
        { action: 'invoice_voided', count: 1 },
        { action: 'payment_recorded', count: 3 },
      ]);
      // The jobs runner's work, not Dana's: its history reads 'System' (issue 31).
      const overdue = await db.query(`select user_id, actor_kind from public.audit_logs where action = 'invoice_overdue'`);
      expect(overdue.rows).toEqual([{ user_id: null, actor_kind: 'system' }]);
    });

    it('keeps Northwind Traders apart: its admin sees only its own rows', async () => {
      const nora = await authId('admin@northwind.test');
      const seen = await asUser(db, nora, (tx) => one<Record<string, unknown>>(tx, `
        select (select array_agg(distinct name) from public.accounts) as accounts,
               (select count(*)::int from public.leads) as leads,
               (select count(*)::int from public.quotes) as quotes,
               (select count(*)::int from public.users) as users,
               (select array_agg(invoice_number || ' ' || currency || ' ' || status) from public.invoices) as invoices`));
      const year = new Date().getUTCFullYear();
      expect(seen).toEqual({ accounts: ['Northwind Traders'], leads: 1, quotes: 1, users: 1, invoices: [`INV-${year}-0001 GBP draft`] });
    });

    it("gives the demo account three automations, the active one with real runs and a task in Dana's 'My tasks'", async () => {
      const { rows } = await db.query<{ name: string; status: string; runs: string[] }>(`
        select a.name, a.status, coalesce((select array_agg(r.status order by r.status) from public.automation_runs r where r.automation_id = a.id), '{}') as runs
          from public.automations a join public.users u on u.account_id = a.account_id and u.email = 'demo@opshub.test' order by a.name`);
      expect(rows).toEqual([
        { name: 'Draft invoice on acceptance', status: 'draft', runs: [] },
        { name: 'Follow up TechCorp leads', status: 'active', runs: ['skipped', 'skipped', 'skipped', 'skipped', 'succeeded'] },
        { name: 'Weekly sales report', status: 'paused', runs: [] },
      ]);
      const dana = await authId('demo@opshub.test');
      // As the dashboard reads them: dashboard_overview's key my_tasks.
      const tasks = await asUser(db, dana, (tx) =>
        tx.query<{ title: string }>("select t ->> 'title' as title from jsonb_array_elements(public.dashboard_overview() -> 'my_tasks') t"));
      expect(tasks.rows).toEqual([{ title: 'Call Sarah Johnson about their enquiry' }]);
    });
  });
}
