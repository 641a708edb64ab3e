// Invoices in the database (decision 029): gapless numbers under concurrent
// creation, amounts computed here, payments that fit the balance and the
// invoice's currency, status following payments, void, send, the overdue
// sweep, conversion of a signed quote (once), audit rows and events, and the
// public link. On PGlite, and on PostgreSQL with TEST_POSTGRES_URL (where the
// concurrent cases really run side by side).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  addMember, anonClient, quoteArgs, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend,
} from './support/backend.ts';

const targets = [
  { name: 'PGlite', on: 'pglite' as const, skip: false },
  { name: 'PostgreSQL', on: 'postgres' as const, skip: !process.env.TEST_POSTGRES_URL },
];

interface Invoice {
  id: string;
  invoice_number: string;
  status: string;
  subtotal: number;
  tax: number;
  total: number;
  amount_paid: number;
  currency: string;
  contact_id: string | null;
  quote_id: string | null;
  paid_at: string | null;
}

const today = () => new Date().toISOString().slice(0, 10);
const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export function invoiceArgs(changes: Record<string, unknown> = {}) {
  return {
    p_client_name: 'Ivy Client', p_client_email: 'ivy@client.test', p_description: 'Consulting',
    p_unit_price: 12_500, p_quantity: 2, p_currency: 'USD', p_due_date: daysFromNow(30), p_notes: null,
    ...changes,
  };
}

for (const target of targets) {
  describe.skipIf(target.skip)(`invoices on ${target.name}`, () => {
    let backend: TestBackend;
    let service: SupabaseClient;
    let admin: Member;
    let auditor: Member;
    let client: Member;
    let other: Member;

    const create = async (who: Member, changes: Record<string, unknown> = {}) => {
      const { data, error } = await who.client.rpc('create_invoice', invoiceArgs(changes)).single<Invoice>();
      if (error) throw new Error(error.message);
      return data;
    };
    const read = async (id: string) => (await service.from('invoices').select('*').eq('id', id).single<Invoice>()).data!;
    const pay = (who: Member, id: string, amount: number, changes: Record<string, unknown> = {}) =>
      who.client.rpc('record_payment', { p_invoice_id: id, p_amount: amount, p_paid_on: today(), p_method: 'bank_transfer', ...changes });

    beforeAll(async () => {
      backend = await startBackend({ on: target.on });
      service = serviceClient(backend);
      admin = await signUpFreshAdmin(backend, 'invoices-admin');
      auditor = await addMember(backend, admin, 'auditor', 'invoices-auditor');
      client = await addMember(backend, admin, 'client', 'invoices-client');
      other = await signUpFreshAdmin(backend, 'invoices-other');
    });
    afterAll(async () => backend?.stop());

    it('creates a draft with its line item, amounts computed, for a contact matched by email', async () => {
      const first = await create(admin, { p_client_email: 'Match@Client.test' });
      expect(first).toMatchObject({ status: 'draft', subtotal: 25_000, total: 25_000, amount_paid: 0, currency: 'USD' });
      expect(first.invoice_number).toMatch(/^INV-\d{4}-\d{4}$/);
      const second = await create(admin, { p_client_email: 'match@client.TEST', p_client_name: 'Someone else' });
      expect(second.contact_id).toBe(first.contact_id);
      const { data: items } = await service.from('invoice_items').select('description, qty, unit_price, total').eq('invoice_id', first.id);
      expect(items).toEqual([{ description: 'Consulting', qty: 2, unit_price: 12_500, total: 25_000 }]);
      const { data: audit } = await service.from('audit_logs').select('action').eq('resource_id', first.id);
      expect(audit?.map((r) => r.action)).toEqual(['invoice_created']);
      const { data: events } = await service.from('events').select('kind').eq('resource_id', first.id);
      expect(events?.map((r) => r.kind)).toEqual(['invoice_created']);
    });

    it('refuses bad input, and anyone but an admin or member, writing nothing', async () => {
      const before = (await service.from('invoices').select('id').eq('account_id', admin.accountId)).data!.length;
      for (const changes of [
        { p_unit_price: -1 }, { p_quantity: 0 }, { p_currency: 'XYZ' }, { p_client_email: 'not-mail' }, { p_description: ' ' }, { p_due_date: null },
      ]) {
        const { error } = await admin.client.rpc('create_invoice', invoiceArgs(changes));
        expect(error, JSON.stringify(changes)).not.toBeNull();
      }
      for (const who of [auditor, client]) {
        const { error } = await who.client.rpc('create_invoice', invoiceArgs());
        expect(error?.message).toContain('Only the account');
      }
      expect((await service.from('invoices').select('id').eq('account_id', admin.accountId)).data!.length).toBe(before);
    });

    it('numbers invoices without gaps or repeats when many are created at once', async () => {
      const created = await Promise.all(Array.from({ length: 12 }, () => create(other)));
      const numbers = created.map((i) => Number(i.invoice_number.split('-')[2])).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 12 }, (_, n) => numbers[0] + n));
    });

    it.skipIf(target.on !== 'postgres')('a rolled-back invoice leaves no gap: the one waiting takes its number', async () => {
      const url = new URL(process.env.TEST_POSTGRES_URL!);
      const { rows: [{ db }] } = await backend.db.query<{ db: string }>('select current_database() as db');
      url.pathname = `/${db}`;
      const a = new pg.Client({ connectionString: url.toString() });
      const b = new pg.Client({ connectionString: url.toString() });
      await a.connect();
      await b.connect();
      try {
        const insert = `insert into public.invoices (account_id, client_name, client_email, due_date)
                        values ($1, 'Tx', 'tx@client.test', current_date + 30) returning invoice_number`;
        const last = await backend.db.query<{ n: string }>(
          `select max(invoice_number) as n from public.invoices where account_id = $1`, [other.accountId]);
        await a.query('begin');
        const fromA = await a.query<{ invoice_number: string }>(insert, [other.accountId]);
        const waiting = b.query<{ invoice_number: string }>(insert, [other.accountId]);
        await a.query('rollback');
        const fromB = await waiting;
        expect(fromB.rows[0].invoice_number).toBe(fromA.rows[0].invoice_number);
        const lastNumber = Number(last.rows[0].n.split('-')[2]);
        expect(Number(fromB.rows[0].invoice_number.split('-')[2])).toBe(lastNumber + 1);
      } finally {
        await a.end();
        await b.end();
      }
    });

    it('records partial then full payment: pending, then paid with paid_at, audited, invoice_paid emitted', async () => {
      const invoice = await create(admin);
      expect((await admin.client.rpc('send_invoice', { p_invoice_id: invoice.id })).error).toBeNull();
      expect(await read(invoice.id)).toMatchObject({ status: 'sent' });
      expect((await pay(admin, invoice.id, 10_000, { p_currency: 'USD', p_reference: 'Wire 1' })).error).toBeNull();
      expect(await read(invoice.id)).toMatchObject({ status: 'pending', amount_paid: 10_000, paid_at: null });
      expect((await pay(admin, invoice.id, 15_000, { p_method: 'card' })).error).toBeNull();
      const paid = await read(invoice.id);
      expect(paid).toMatchObject({ status: 'paid', amount_paid: 25_000 });
      expect(paid.paid_at).not.toBeNull();
      const { data: audit } = await service.from('audit_logs').select('action').eq('resource_id', invoice.id).order('created_at');
      // The last payment and the paid status share a transaction (and its timestamp).
      expect(audit?.map((r) => r.action).sort()).toEqual(['invoice_created', 'invoice_paid', 'invoice_sent', 'payment_recorded', 'payment_recorded']);
      const { data: events } = await service.from('events').select('kind').eq('resource_id', invoice.id).order('created_at');
      expect(events?.map((r) => r.kind)).toEqual(['invoice_created', 'invoice_paid']);
      const { data: jobs } = await service.from('jobs').select('kind, payload').eq('subject_id', invoice.id);
      expect(jobs).toEqual([{ kind: 'invoice_send', payload: { invoice_id: invoice.id } }]);
    });

    it('refuses an overpayment, a zero or negative amount, another currency, a future date, a paid or void invoice', async () => {
      const invoice = await create(admin);
      expect((await admin.client.rpc('send_invoice', { p_invoice_id: invoice.id })).error).toBeNull();
      const refusals: [Record<string, unknown>, number, string][] = [
        [{}, 25_001, 'more than the balance'],
        [{}, 0, 'more than zero'],
        [{}, -5, 'more than zero'],
        [{ p_currency: 'EUR' }, 100, 'currency'],
        [{ p_paid_on: daysFromNow(5) }, 100, 'future'],
        [{ p_paid_on: daysFromNow(1) }, 100, 'future'],
        [{ p_paid_on: daysFromNow(-3) }, 100, 'before the invoice was sent'],
        [{ p_paid_on: '1999-12-31' }, 100, 'before the invoice was sent'],
        [{ p_method: 'cheque' }, 100, 'Method'],
      ];
      for (const [changes, amount, message] of refusals) {
        const { error } = await pay(admin, invoice.id, amount, changes);
        expect(error?.message, `${amount} ${JSON.stringify(changes)}`).toContain(message);
      }
      expect(await read(invoice.id)).toMatchObject({ amount_paid: 0, status: 'sent' });
      expect((await pay(admin, invoice.id, 25_000)).error).toBeNull();
      expect((await pay(admin, invoice.id, 1)).error?.message).toContain('paid in full');
      expect((await admin.client.rpc('void_invoice', { p_invoice_id: invoice.id })).error?.message).toContain('paid invoice');

      const voided = await create(admin);
      expect((await admin.client.rpc('void_invoice', { p_invoice_id: voided.id })).error).toBeNull();
      expect(await read(voided.id)).toMatchObject({ status: 'void' });
      expect((await pay(admin, voided.id, 100)).error?.message).toContain('void');
      expect((await admin.client.rpc('send_invoice', { p_invoice_id: voided.id })).error?.message).toContain('void invoice cannot be sent');
      const { count } = await service.from('payments').select('*', { count: 'exact', head: true }).eq('invoice_id', voided.id);
      expect(count).toBe(0);
      const { data: audit } = await service.from('audit_logs').select('action').eq('resource_id', voided.id).order('created_at');
      expect(audit?.map((r) => r.action)).toEqual(['invoice_created', 'invoice_voided']);
    });

    it('refuses a payment on a draft, and a row that skips the function (the column and trigger checks)', async () => {
      const draft = await create(admin);
      expect((await pay(admin, draft.id, 100)).error?.message).toBe('This invoice is a draft: send it before recording a payment');
      // Rows written past the function (as the runner's service role could) meet the same rules.
      const direct = (id: string, amount: number, paidOn: string, kind = 'payment') => backend.db.query(
        `insert into public.payments (account_id, invoice_id, amount, paid_on, kind) values ($1, $2, $3, $4, $5)`,
        [admin.accountId, id, amount, paidOn, kind]).then(() => null, (e: Error) => e.message);
      expect(await direct(draft.id, 100, today())).toContain('draft');
      expect(await read(draft.id)).toMatchObject({ amount_paid: 0, status: 'draft' });
      const sent = await create(admin);
      await admin.client.rpc('send_invoice', { p_invoice_id: sent.id });
      // The column's own bounds, even were the invoice's date rules set aside.
      await backend.db.query(`update public.invoices set sent_at = '1960-01-01', created_at = '1960-01-01' where id = $1`, [sent.id]);
      expect(await direct(sent.id, 100, '1970-01-01')).toContain('payments_paid_on_check');
      expect(await direct(sent.id, -100, today())).toContain('payments_amount_check');
      expect(await direct(sent.id, -100, today(), 'credit')).toContain('A credit gives back what a voided invoice received');
      expect(await read(sent.id)).toMatchObject({ amount_paid: 0, status: 'sent' });
    });

    it("dates payments in the account's time zone: its today is the latest day, the day it was sent the earliest", async () => {
      const west = await signUpFreshAdmin(backend, 'invoices-west');
      await backend.db.query(`update public.accounts set timezone = 'America/Los_Angeles' where id = $1`, [west.accountId]);
      const invoice = await create(west);
      await west.client.rpc('send_invoice', { p_invoice_id: invoice.id });
      const dayThere = (offset: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' })
        .format(new Date(Date.now() + offset * 86_400_000));
      expect((await pay(west, invoice.id, 100, { p_paid_on: dayThere(1) })).error?.message).toContain('future');
      expect((await pay(west, invoice.id, 100, { p_paid_on: dayThere(-1) })).error?.message).toContain('before the invoice was sent');
      expect((await pay(west, invoice.id, 100, { p_paid_on: dayThere(0) })).error).toBeNull();
    });

    it('voids a partly paid invoice with a credit of what it received, so its payments net to zero', async () => {
      const invoice = await create(admin);
      await admin.client.rpc('send_invoice', { p_invoice_id: invoice.id });
      expect((await pay(admin, invoice.id, 10_000)).error).toBeNull();
      const { data: voided, error } = await admin.client.rpc('void_invoice', { p_invoice_id: invoice.id }).single<Invoice>();
      expect(error).toBeNull();
      expect(voided).toMatchObject({ status: 'void', amount_paid: 0 });
      const { data: entries } = await service.from('payments').select('amount, kind, reference').eq('invoice_id', invoice.id).order('created_at');
      expect(entries).toEqual([
        { amount: 10_000, kind: 'payment', reference: null },
        { amount: -10_000, kind: 'credit', reference: `Credit: ${invoice.invoice_number} voided` },
      ]);
      const { data: audit } = await service.from('audit_logs').select('action, new_values').eq('resource_id', invoice.id).eq('action', 'payment_recorded').order('created_at');
      expect(audit?.map((r) => (r.new_values as { amount: number }).amount)).toEqual([10_000, -10_000]);
      // No further credit, payment or void.
      expect((await pay(admin, invoice.id, 100)).error?.message).toContain('void');
      expect((await admin.client.rpc('void_invoice', { p_invoice_id: invoice.id })).error?.message).toBe('This invoice is already void');
    });

    it('send takes no link address from its caller: the old signature is gone and the job names the invoice alone', async () => {
      const invoice = await create(admin);
      const old = await admin.client.rpc('send_invoice', { p_invoice_id: invoice.id, p_link_base: 'https://pay-opshub.evil.example' });
      expect(old.error?.code).toBe('PGRST202');
      expect(await read(invoice.id)).toMatchObject({ status: 'draft' });
      const { rows } = await backend.db.query<{ args: string }>(
        `select pg_get_function_identity_arguments(p.oid) as args from pg_proc p
          where p.proname = 'send_invoice' and p.pronamespace = 'public'::regnamespace`);
      expect(rows).toEqual([{ args: 'p_invoice_id uuid' }]);
      // Nor does any other function of the API take an address to link to
      // (a shipment's p_origin is the place it leaves from, not a web origin).
      const { rows: takingOrigins } = await backend.db.query<{ name: string }>(
        `select p.proname as name from pg_proc p
          where p.pronamespace = 'public'::regnamespace
            and exists (select 1 from unnest(p.proargnames) a where a ~* '(link|origin|redirect|site|base_?url|host)'
                          and not (p.proname = 'create_shipment' and a = 'p_origin'))`);
      expect(takingOrigins).toEqual([]);
      expect((await admin.client.rpc('send_invoice', { p_invoice_id: invoice.id })).error).toBeNull();
      const { data: jobs } = await service.from('jobs').select('payload').eq('subject_id', invoice.id).eq('kind', 'invoice_send');
      expect(jobs).toEqual([{ payload: { invoice_id: invoice.id } }]);
    });

    it.skipIf(target.on !== 'postgres')('two payments racing for the last of the balance: one is refused', async () => {
      const invoice = await create(admin);
      await admin.client.rpc('send_invoice', { p_invoice_id: invoice.id });
      const results = await Promise.all([pay(admin, invoice.id, 20_000), pay(admin, invoice.id, 20_000)]);
      expect(results.filter((r) => r.error === null)).toHaveLength(1);
      expect(await read(invoice.id)).toMatchObject({ amount_paid: 20_000, status: 'pending' });
    });

    it('answers "not found" for another account\'s invoice, whatever the function', async () => {
      const invoice = await create(admin);
      for (const [fn, args] of [
        ['record_payment', { p_invoice_id: invoice.id, p_amount: 1, p_paid_on: today() }],
        ['void_invoice', { p_invoice_id: invoice.id }],
        ['send_invoice', { p_invoice_id: invoice.id }],
      ] as const) {
        const { error } = await other.client.rpc(fn, args);
        expect(error?.message, fn).toBe('Invoice not found');
      }
      expect(await read(invoice.id)).toMatchObject({ status: 'draft', amount_paid: 0 });
      expect((await other.client.from('invoices').select('id').eq('id', invoice.id)).data).toEqual([]);
    });

    it('converts a signed quote once, with its items and amounts; a second try names the invoice', async () => {
      const { data: quote } = await admin.client
        .rpc('create_quote', quoteArgs(5_000, 3, 'EUR', { p_contact_email: client.email }))
        .single<{ id: string; contact_id: string }>();
      const notSigned = await admin.client.rpc('convert_quote_to_invoice', { p_quote_id: quote!.id });
      expect(notSigned.error?.message).toContain('Only a signed quote');
      await backend.db.query(`update public.quotes set tax_rate = 10, status = 'signed' where id = $1`, [quote!.id]);
      const { data: invoice, error } = await admin.client.rpc('convert_quote_to_invoice', { p_quote_id: quote!.id }).single<Invoice>();
      expect(error).toBeNull();
      expect(invoice).toMatchObject({ quote_id: quote!.id, contact_id: quote!.contact_id, currency: 'EUR', subtotal: 15_000, tax: 1_500, total: 16_500, status: 'draft' });
      const again = await admin.client.rpc('convert_quote_to_invoice', { p_quote_id: quote!.id });
      expect(again.error?.code).toBe('23505');
      expect(again.error?.message).toBe(`Already converted to ${invoice!.invoice_number}`);
      expect(again.error?.details).toBe(invoice!.id);
      const { count } = await service.from('invoices').select('*', { count: 'exact', head: true }).eq('quote_id', quote!.id);
      expect(count).toBe(1);
      // The quote's contact is the client's: they read this invoice once it was sent to them, its items, and no other.
      expect((await client.client.from('invoices').select('id')).data).toEqual([]);
      expect((await client.client.from('invoice_items').select('id')).data).toEqual([]);
      await admin.client.rpc('send_invoice', { p_invoice_id: invoice!.id });
      const seen = (await client.client.from('invoices').select('id')).data?.map((r) => r.id);
      expect(seen).toEqual([invoice!.id]);
      expect((await client.client.from('invoice_items').select('id')).data).toHaveLength(1);
      expect((await other.client.rpc('convert_quote_to_invoice', { p_quote_id: quote!.id })).error?.message).toBe('Quote not found');
    });

    it('the overdue sweep marks open invoices past due, queues one reminder per 7 days, emits invoice_overdue', async () => {
      const invoice = await create(admin, { p_due_date: daysFromNow(3) });
      await admin.client.rpc('send_invoice', { p_invoice_id: invoice.id });
      const draft = await create(admin, { p_due_date: daysFromNow(1) });
      const sweep = (days: number) => service.rpc('sweep_overdue_invoices', { p_now: new Date(Date.now() + days * 86_400_000).toISOString() });
      expect((await sweep(0)).error).toBeNull();
      expect((await read(invoice.id)).status).toBe('sent');
      await sweep(4);
      expect((await read(invoice.id)).status).toBe('overdue');
      expect((await read(draft.id)).status).toBe('draft');
      await sweep(5);
      await sweep(10);
      await sweep(11.5);
      const { data: reminders } = await service.from('jobs').select('idempotency_key').eq('subject_id', invoice.id).eq('kind', 'invoice_reminder');
      expect(reminders).toHaveLength(2);
      const { data: events } = await service.from('events').select('kind').eq('resource_id', invoice.id).eq('kind', 'invoice_overdue');
      expect(events).toHaveLength(1);
      expect((await auditor.client.rpc('sweep_overdue_invoices', {})).error).not.toBeNull();
    });

    it('the cards: outstanding per currency, paid this month, count, collection', async () => {
      const fresh = await signUpFreshAdmin(backend, 'invoices-cards');
      const empty = await fresh.client.rpc('invoice_summary').single<Record<string, unknown>>();
      expect(empty.data).toEqual({ total_count: 0, outstanding: [], paid_this_month: [], collection: [] });
      const usd = await create(fresh);
      const eur = await create(fresh, { p_currency: 'EUR', p_unit_price: 1_000, p_quantity: 1 });
      await create(fresh);
      for (const id of [usd.id, eur.id]) await fresh.client.rpc('send_invoice', { p_invoice_id: id });
      await pay(fresh, usd.id, 5_000);
      const { data } = await fresh.client.rpc('invoice_summary').single<Record<string, unknown>>();
      expect(data).toEqual({
        total_count: 3,
        outstanding: [
          { currency: 'EUR', count: 1, value: 1_000, average: 0 },
          { currency: 'USD', count: 1, value: 20_000, average: 0 },
        ],
        paid_this_month: [{ currency: 'USD', count: 0, value: 5_000, average: 0 }],
        collection: [
          { currency: 'USD', invoiced: 25_000, paid: 5_000 },
          { currency: 'EUR', invoiced: 1_000, paid: 0 },
        ],
      });
      expect((await client.client.rpc('invoice_summary')).error).not.toBeNull();
    });

    it("the all-time cards agree with a recount of the account's invoices, old ones, voids and deletes included", async () => {
      const fresh = await signUpFreshAdmin(backend, 'invoices-recount');
      const old = await create(fresh, { p_currency: 'EUR' });
      const open = await create(fresh);
      const voided = await create(fresh);
      const deleted = await create(fresh, { p_currency: 'EUR' });
      for (const id of [old.id, open.id, voided.id]) await fresh.client.rpc('send_invoice', { p_invoice_id: id });
      await pay(fresh, open.id, 1_000);
      await fresh.client.rpc('void_invoice', { p_invoice_id: voided.id });
      // Invoiced 200 days ago: outside the collection card's 90 days, still counted and outstanding.
      await backend.db.query(`update public.invoices set created_at = now() - interval '200 days' where id = $1`, [old.id]);
      await backend.db.query('delete from public.invoices where id = $1', [deleted.id]);

      const { rows } = await backend.db.query<{ total_count: string; outstanding: { currency: string; count: number; value: number }[] }>(
        `select count(*) as total_count,
                (select jsonb_agg(jsonb_build_object('currency', o.currency, 'count', o.n, 'value', o.v) order by o.currency)
                   from (select currency, count(*) as n, sum(total - amount_paid) as v from public.invoices
                          where account_id = $1 and status in ('sent', 'pending', 'overdue') group by currency) o) as outstanding
           from public.invoices where account_id = $1`,
        [fresh.accountId],
      );
      const { data } = await fresh.client.rpc('invoice_summary').single<{ total_count: number; outstanding: { currency: string; count: number; value: number }[] }>();
      expect(data!.total_count).toBe(Number(rows[0].total_count));
      expect(data!.total_count).toBe(3);
      const byCurrency = (list: { currency: string; count: number; value: number }[]) =>
        list.map(({ currency, count, value }) => ({ currency, count: Number(count), value: Number(value) })).sort((a, b) => a.currency.localeCompare(b.currency));
      expect(byCurrency(data!.outstanding)).toEqual(byCurrency(rows[0].outstanding));
      expect(byCurrency(data!.outstanding)).toEqual([
        { currency: 'EUR', count: 1, value: 25_000 },
        { currency: 'USD', count: 1, value: 24_000 },
      ]);
    });

    it('the public link shows a sent invoice by its token, and nothing for any other token', async () => {
      const invoice = await create(admin);
      const token = randomBytes(32).toString('base64url');
      const hash = createHash('sha256').update(token).digest();
      await backend.db.query(`update public.invoices set link_token_hash = $2 where id = $1`, [invoice.id, hash]);
      const anon = anonClient(backend);
      expect((await anon.rpc('public_invoice', { p_token: token })).data).toBeNull();
      await admin.client.rpc('send_invoice', { p_invoice_id: invoice.id });
      const { data } = await anon.rpc('public_invoice', { p_token: token });
      expect(data).toMatchObject({ invoice_number: invoice.invoice_number, total: 25_000, status: 'sent', items: [{ description: 'Consulting', qty: 2 }] });
      expect((await anon.rpc('public_invoice', { p_token: randomBytes(32).toString('base64url') })).data).toBeNull();
      expect((await anon.from('invoices').select('id')).data ?? []).toEqual([]);
    });
  });
}
