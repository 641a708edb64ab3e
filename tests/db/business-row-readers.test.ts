// Who reads a quote or an invoice is said twice, for speed: inline in the
// tables' policies (computed once per query) and in
// private.reads_business_row, which quote_document and invoice_document ask.
// Here the two give the same answer for every role, each record of two
// accounts, so they cannot drift apart.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../supabase/local/db.ts';
import { applySchema, asRole, asUser, createPglite, createPostgres, insertAuthUser, postgresUrl, type TestDatabase } from './support/sql-db.ts';

const targets = [
  { name: 'PGlite', create: createPglite, skip: false },
  { name: 'PostgreSQL', create: () => createPostgres(), skip: !postgresUrl },
];

const tables = [
  { table: 'quotes', document: 'quote_document' },
  { table: 'invoices', document: 'invoice_document' },
];

for (const target of targets) {
  describe.skipIf(target.skip)(`readers of a business record on ${target.name}`, () => {
    let handle: TestDatabase;
    let db: Db;
    const people: Record<string, string> = {};

    beforeAll(async () => {
      handle = await target.create();
      db = handle.db;
      await applySchema(db, { seed: true });
      // Invoices to each of the demo account's contacts (John Smith's among them) and one of Northwind.
      await db.exec(`
        insert into public.invoices (account_id, contact_id, client_name, client_email, due_date)
        select c.account_id, c.id, c.name, c.email, current_date from public.contacts c;
        -- Each contact's invoice sent, and a draft to each never sent (which only staff read).
        update public.invoices set status = 'sent', sent_at = now() where contact_id is not null;
        insert into public.invoices (account_id, contact_id, client_name, client_email, due_date)
        select c.account_id, c.id, c.name, c.email, current_date from public.contacts c;
        insert into public.invoices (account_id, client_name, client_email, due_date)
        select id, 'Nobody', 'nobody@x.test', current_date from public.accounts;`);
      const { rows } = await db.query<{ email: string; auth_user_id: string }>('select email, auth_user_id from public.users');
      for (const row of rows) people[row.email] = row.auth_user_id;
      const token = randomBytes(32).toString('hex');
      await db.query(
        `insert into public.user_invitations (account_id, email, role, token_hash)
         select account_id, 'supplier@x.test', 'supplier', encode(extensions.digest($1::text, 'sha256'), 'hex')
           from public.users where email = 'demo@opshub.test'`, [token]);
      people['supplier@x.test'] = await insertAuthUser(db, 'supplier@x.test', { appMeta: { invitation_token: token } });
      people['newcomer@x.test'] = await insertAuthUser(db, 'newcomer@x.test');
      await db.exec(`update public.users set is_active = false where email = 'member@opshub.test'`);
    }, 120_000);
    afterAll(async () => handle?.drop());

    it('a client reads an invoice addressed to it only once it was sent, its document the same', async () => {
      const { rows } = await asUser(db, people['john@acme.test']!, (tx) => tx.query<{ sent: boolean; document: boolean }>(
        `select i.sent_at is not null as sent, public.invoice_document(i.id) is not null as document from public.invoices i`));
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.sent && r.document)).toBe(true);
      const { rows: [{ unsent }] } = await db.query<{ unsent: number }>(
        `select count(*)::int as unsent from public.invoices i join public.users u on u.email = 'john@acme.test'
          where i.sent_at is null and i.contact_id in (select c.id from public.contacts c where lower(c.email) = lower(u.email))`);
      expect(unsent).toBeGreaterThan(0);
    });

    for (const { table, document } of tables) {
      it(`${document} answers exactly who the ${table} policy lets read the row`, async () => {
        const { rows: ids } = await db.query<{ id: string }>(`select id from public.${table}`);
        const visibility = `select ids.id, public.${document}(ids.id) is not null as document,
                                   exists (select 1 from public.${table} t where t.id = ids.id) as row
                              from unnest($1::uuid[]) as ids(id)`;
        const seen: Record<string, number> = {};
        for (const [email, authId] of Object.entries(people)) {
          const { rows } = await asUser(db, authId, (tx) =>
            tx.query<{ id: string; document: boolean; row: boolean }>(visibility, [ids.map((r) => r.id)]));
          expect(rows.filter((r) => r.document !== r.row), email).toEqual([]);
          seen[email] = rows.filter((r) => r.row).length;
        }
        // The cases differ: staff read all of their account's, a client some, others none.
        expect(seen['demo@opshub.test']).toBeGreaterThan(seen['john@acme.test']!);
        expect(seen['john@acme.test']).toBeGreaterThan(0);
        expect(seen['supplier@x.test']).toBe(0);
        expect(seen['member@opshub.test']).toBe(0);
        expect(seen['admin@northwind.test']).toBeGreaterThan(0);
        const service = await asRole(db, 'service_role', { role: 'service_role' }, (tx) =>
          tx.query<{ document: boolean }>(visibility, [ids.map((r) => r.id)]));
        expect(service.rows.every((r) => r.document)).toBe(true);
      });
    }
  });
}
