// Migration 20261208000002 gives the tables added after issue 30 its no-control-character checks on what reaches a
// mail header (an RFP's title, a saved tender search's name, an email template's name and subject, a purchase
// order's supplier name and address). On kept data: rows written before it with a tab or a line break in those
// columns are cleaned, and the migration still applies. After it, such a value is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../supabase/local/migrate.ts';
import { serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';
import { createPglite, createPostgres, migrateBefore, one, postgresUrl } from './support/sql-db.ts';

const CHECKS_MIGRATION = '20261208000002';
const DIRTY = 'Line one\r\nBcc: x@evil.example\tend';

for (const target of [
  { name: 'PGlite', create: createPglite, skip: false },
  { name: 'PostgreSQL', create: () => createPostgres(), skip: !postgresUrl },
]) {
  describe.skipIf(target.skip)(`the mail-header checks' migration on kept data, ${target.name}`, () => {
    it('cleans the rows written before it and then holds', async () => {
      const { db, drop } = await target.create();
      try {
        await migrateBefore(db, CHECKS_MIGRATION);
        const { account_id: account } = await one<{ account_id: string }>(db, 'select account_id from public.templates limit 1');
        await db.query('update public.rfps set title = $1 where account_id = $2', [DIRTY, account]);
        await db.query('update public.tender_searches set name = $1 where account_id = $2', [DIRTY, account]);
        await db.query(`update public.templates set name = $1, subject = case when type = 'email' then $1 end where account_id = $2`, [DIRTY, account]);
        const { id: order } = await one<{ id: string }>(db, `insert into public.purchase_orders (account_id, supplier_name, supplier_email) values ($1, $2, $3) returning id`, [account, DIRTY, 'a\u0001b@supplier.test']);

        await migrate(db);
        const cleaned = 'Line one Bcc: x@evil.example end';
        expect((await db.query<{ title: string }>('select distinct title from public.rfps where account_id = $1', [account])).rows).toEqual([{ title: cleaned }]);
        expect((await db.query<{ name: string }>('select distinct name from public.tender_searches where account_id = $1', [account])).rows).toEqual([{ name: cleaned }]);
        expect((await db.query<{ name: string }>('select distinct name from public.templates where account_id = $1', [account])).rows).toEqual([{ name: cleaned }]);
        expect(await one(db, 'select supplier_name, supplier_email from public.purchase_orders where id = $1', [order])).toEqual({ supplier_name: cleaned, supplier_email: null });
        const { n } = await one<{ n: number }>(db, `select count(*)::int as n from pg_constraint where convalidated and conname = any (array['rfps_title_no_control_chars',
           'tender_searches_name_no_control_chars', 'templates_name_no_control_chars', 'templates_subject_no_control_chars',
           'purchase_orders_supplier_name_no_control_chars', 'purchase_orders_supplier_email_no_control_chars'])`);
        expect(n).toBe(6);
      } finally {
        await drop();
      }
    }, 180_000);
  });
}

describe('after it, a member cannot write a control character where a mail header takes it', () => {
  let backend: TestBackend;
  let admin: Member;
  beforeAll(async () => {
    backend = await startBackend();
    admin = await signUpFreshAdmin(backend, 'header-columns-admin');
  }, 120_000);
  afterAll(async () => backend?.stop());

  it('refuses it in an RFP title, a saved search name, a template subject and a supplier name', async () => {
    const { data: order } = await serviceClient(backend).from('purchase_orders').insert({ account_id: admin.accountId, supplier_name: 'Parts Ltd' }).select('id').single();
    const writes = [
      admin.client.from('rfps').insert({ account_id: admin.accountId, title: 'Bid\r\nBcc: x@evil.example', company: 'Acme', contact_email: 'a@acme.test', value: 1000, deadline: '2027-01-01', proposal: 'Our offer' } as never),
      admin.client.from('tender_searches').insert({ account_id: admin.accountId, name: 'Software\nBcc: x@evil.example' } as never),
      admin.client.from('templates').insert({ account_id: admin.accountId, name: 'Follow-up', type: 'email', subject: 'Hello\r\nBcc: x@evil.example', content: 'Hi' } as never),
      admin.client.from('purchase_orders').update({ supplier_name: 'Parts\r\nLtd' }).eq('id', order!.id),
    ];
    for (const { error } of await Promise.all(writes)) expect(error?.message).toMatch(/no_control_chars/);
    // The same rows without the line break are written: the check, not another rule, refused them.
    const { error } = await admin.client.from('tender_searches').insert({ account_id: admin.accountId, name: 'Software Bcc' } as never);
    expect(error).toBeNull();
  });
});
