// Bills (payables, decision 048) in the database: a reviewed supplier invoice
// recorded as a bill from its approved fields, once per document and once per
// supplier and number; the refusals; paying (not in the future, not before
// the issue date); who reads and writes, and another account's bills.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const field = (value: string) => ({ value, confidence: 1 });
const supplierInvoice = (number: string, changes: Record<string, unknown> = {}) => ({
  kind: field('invoice'), supplier_name: field('Northwind Traders'), customer_name: field('Demo Co'), invoice_number: field(number),
  issue_date: field('2026-03-01'), due_date: field('2026-03-31'), currency: field('eur'), subtotal: field('1000.00'),
  tax_amount: field('200.00'), total: field('1200.00'), tax_id: field('DE123456789'), email: field('billing@northwind.test'), ...changes,
});
const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

type Bill = { id: string; status: string; paid_on: string | null; total: number; currency: string };

describe('bills on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let auditor: Member;
  let client: Member;
  let other: Member;

  async function document(fields: Record<string, unknown>, account: Member = admin, status = 'Approved'): Promise<string> {
    const id = randomUUID();
    const { error } = await service.from('documents').insert({
      id, account_id: account.accountId, title: `Bill ${id.slice(0, 8)}`, file_path: `${account.accountId}/${id}/a.txt`, file_name: 'a.txt',
      file_size: 10, mime_type: 'text/plain', sha256: createHash('sha256').update(id).digest('hex'), status, fields,
    });
    if (error) throw new Error(error.message);
    return id;
  }
  const record = (who: Member, id: string) => who.client.rpc('create_bill_from_document', { p_document_id: id }).single<Bill>();

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'bills-admin');
    member = await addMember(backend, admin, 'member', 'bills-member');
    auditor = await addMember(backend, admin, 'auditor', 'bills-auditor');
    client = await addMember(backend, admin, 'client', 'bills-client');
    other = await signUpFreshAdmin(backend, 'bills-other');
  });
  afterAll(async () => backend?.stop());

  it('records the approved fields as a bill to pay, linked to the document, audited on both', async () => {
    const id = await document(supplierInvoice('NW-1'));
    const { data: bill, error } = await record(member, id);
    expect(error).toBeNull();
    expect(bill).toMatchObject({
      supplier_name: 'Northwind Traders', supplier_email: 'billing@northwind.test', supplier_tax_id: 'DE123456789', number: 'NW-1',
      issue_date: '2026-03-01', due_date: '2026-03-31', currency: 'EUR', subtotal: 100_000, tax: 20_000, total: 120_000,
      status: 'to_pay', paid_on: null, document_id: id, created_by: member.userId,
    });
    const { data: audit } = await service.from('audit_logs').select('action, resource_type').in('resource_id', [id, bill!.id]);
    expect(audit).toEqual(expect.arrayContaining([
      { action: 'document_bill_recorded', resource_type: 'document' },
      { action: 'bill_created', resource_type: 'bill' },
    ]));
  });

  it('records a document once, and a supplier\'s number once', async () => {
    const id = await document(supplierInvoice('NW-2'));
    const first = await record(admin, id);
    expect(first.error).toBeNull();
    expect((await record(admin, id)).error).toMatchObject({ code: '23505', details: first.data!.id });
    // The same invoice uploaded again: another document, the same supplier and number (case and spaces aside).
    const again = await document(supplierInvoice(' nw-2 ', { supplier_name: field('NORTHWIND TRADERS') }));
    expect((await record(admin, again)).error).toMatchObject({ code: '23505', message: 'A bill from Northwind Traders numbered NW-2 is already recorded', details: first.data!.id });
    // And the table itself holds it, whoever writes.
    const forged = await admin.client.from('bills').insert({ account_id: admin.accountId, supplier_name: 'northwind traders', number: 'NW-2', currency: 'EUR', total: 1 });
    expect(forged.error?.code).toBe('23505');
  });

  it('refuses a document without supplier, total or currency, or not approved, with the field to correct', async () => {
    for (const [changes, hint] of [
      [{ supplier_name: field('') }, 'supplier_name'],
      [{ total: field('') }, 'total'],
      [{ total: field('0') }, 'total'],
      [{ currency: field('') }, 'currency'],
      [{ due_date: field('2026-02-01') }, 'due_date'],
    ] as const) {
      const { error } = await record(admin, await document(supplierInvoice(randomUUID(), changes)));
      expect(error, JSON.stringify(changes)).toMatchObject({ code: '22023', hint });
    }
    expect((await record(admin, await document(supplierInvoice('NW-P'), admin, 'Pending Review'))).error).toMatchObject({ code: '22023' });
  });

  it('lets only the account\'s admins and members record; another account\'s document is not found', async () => {
    const id = await document(supplierInvoice('NW-3'));
    for (const who of [auditor, client]) expect((await record(who, id)).error?.code).toBe('42501');
    expect((await record(other, id)).error?.code).toBe('P0002');
    expect((await service.from('bills').select('id').eq('document_id', id)).data).toEqual([]);
  });

  it('marks a bill paid on a day that has come and not before its issue date, once', async () => {
    const { data: bill } = await record(admin, await document(supplierInvoice('NW-4')));
    const pay = (who: Member, day: string) => who.client.rpc('mark_bill_paid', { p_bill_id: bill!.id, p_paid_on: day }).single<Bill>();
    expect((await pay(admin, tomorrow())).error).toMatchObject({ code: '22023', message: 'The payment date cannot be in the future' });
    expect((await pay(admin, '2026-02-28')).error).toMatchObject({ code: '22023', message: "The payment date cannot be before the bill's issue date" });
    expect((await pay(auditor, today())).error?.code).toBe('42501');
    // Another account's admin: no such bill.
    expect((await pay(other, today())).error?.code).toBe('P0002');
    const paid = await pay(member, '2026-03-01');
    expect(paid.data).toMatchObject({ status: 'paid', paid_on: '2026-03-01' });
    expect((await pay(admin, today())).error).toMatchObject({ code: '22023', message: 'This bill is already paid' });
    // A paid bill is history: neither edited nor deleted.
    expect((await admin.client.from('bills').update({ notes: 'Changed' }).eq('id', bill!.id).select('id')).data).toEqual([]);
    expect((await admin.client.from('bills').delete().eq('id', bill!.id).select('id')).data).toEqual([]);
    const { data: audit } = await service.from('audit_logs').select('action').eq('resource_id', bill!.id);
    expect(audit?.map((a) => a.action)).toContain('bill_paid');
  });

  it('lets staff edit and delete a bill to pay but not its status; auditors and clients read or see nothing', async () => {
    const { data: bill } = await record(admin, await document(supplierInvoice('NW-5')));
    expect((await member.client.from('bills').update({ notes: 'Checked', due_date: '2026-04-15' }).eq('id', bill!.id).select('notes').single()).data).toEqual({ notes: 'Checked' });
    expect((await member.client.from('bills').update({ status: 'paid', paid_on: today() }).eq('id', bill!.id)).error).not.toBeNull();
    expect((await auditor.client.from('bills').select('id').eq('id', bill!.id)).data).toHaveLength(1);
    expect((await auditor.client.from('bills').update({ notes: 'x' }).eq('id', bill!.id).select('id')).data ?? []).toEqual([]);
    expect((await client.client.from('bills').select('id')).data).toEqual([]);
    expect((await other.client.from('bills').select('id').eq('id', bill!.id)).data).toEqual([]);
    expect((await other.client.rpc('search_bills', { p_query: 'Northwind' })).data).toEqual([]);
    expect((await client.client.rpc('search_bills', { p_query: 'Northwind' })).data).toEqual([]);
    expect(((await auditor.client.rpc('search_bills', { p_query: 'nw-5' })).data as { id: string }[]).map((b) => b.id)).toEqual([bill!.id]);
    expect((await member.client.from('bills').delete().eq('id', bill!.id).select('id')).data).toEqual([{ id: bill!.id }]);
  });

  it('totals bills per currency, never across currencies', async () => {
    await record(admin, await document(supplierInvoice('NW-6', { currency: field('USD'), total: field('50.00'), subtotal: field(''), tax_amount: field('') })));
    const { data } = await admin.client.rpc('bill_totals');
    const rows = data as { currency: string; to_pay: number }[];
    expect(rows.map((r) => r.currency)).toEqual(['EUR', 'USD']);
    expect(rows.find((r) => r.currency === 'USD')?.to_pay).toBe(5_000);
    expect((await other.client.rpc('bill_totals')).data).toEqual([]);
  });
});
