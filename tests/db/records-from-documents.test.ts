// Records from a document in the database (decision 033): an invoice made
// from a reviewed document once (two concurrent tries: one invoice, the other
// told which), through create_invoice, with its lines, rate and link back in
// the same account; a contact matched by email; the refusals. On PGlite, and
// on PostgreSQL with TEST_POSTGRES_URL (where the concurrent tries really race).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const targets = [
  { name: 'PGlite', on: 'pglite' as const, skip: false },
  { name: 'PostgreSQL', on: 'postgres' as const, skip: !process.env.TEST_POSTGRES_URL },
];

const items = [
  { description: 'Consulting', qty: 10, unit_price: 12_000 },
  { description: 'Travel', qty: 1, unit_price: 8_550 },
];
const args = (documentId: string, changes: Record<string, unknown> = {}) => ({
  p_document_id: documentId, p_client_name: 'Acme', p_client_email: 'ap@acme.test', p_currency: 'GBP',
  p_due_date: '2030-04-13', p_items: items, p_tax_rate: 20, p_notes: 'From the document', ...changes,
});

for (const target of targets) {
  describe.skipIf(target.skip)(`records from documents on ${target.name}`, () => {
    let backend: TestBackend;
    let service: SupabaseClient;
    let admin: Member;
    let auditor: Member;
    let other: Member;

    /** A document of the admin's account, Approved unless told. */
    async function document(account: Member = admin, status = 'Approved'): Promise<string> {
      const id = randomUUID();
      const { error } = await service.from('documents').insert({
        id, account_id: account.accountId, title: `Doc ${id.slice(0, 8)}`, file_path: `${account.accountId}/${id}/a.txt`, file_name: 'a.txt',
        file_size: 10, mime_type: 'text/plain', sha256: createHash('sha256').update(id).digest('hex'), status,
      });
      if (error) throw new Error(error.message);
      return id;
    }

    beforeAll(async () => {
      backend = await startBackend({ on: target.on });
      service = serviceClient(backend);
      admin = await signUpFreshAdmin(backend, 'docrecords-admin');
      auditor = await addMember(backend, admin, 'auditor', 'docrecords-auditor');
      other = await signUpFreshAdmin(backend, 'docrecords-other');
    });
    afterAll(async () => backend?.stop());

    it('makes the invoice through create_invoice: every line in order, the rate, the link back, audited on both', async () => {
      const id = await document();
      const { data: invoice, error } = await admin.client.rpc('create_invoice_from_document', args(id)).single<{ id: string; invoice_number: string; subtotal: number; tax: number; total: number; tax_rate: number; source_document_id: string; status: string }>();
      expect(error).toBeNull();
      expect(invoice).toMatchObject({ subtotal: 128_550, tax: 25_710, total: 154_260, tax_rate: 20, source_document_id: id, status: 'draft' });
      const { data: lines } = await service.from('invoice_items').select('description, qty, unit_price, position').eq('invoice_id', invoice!.id).order('position');
      expect(lines).toEqual([
        { description: 'Consulting', qty: 10, unit_price: 12_000, position: 0 },
        { description: 'Travel', qty: 1, unit_price: 8_550, position: 1 },
      ]);
      const { data: audit } = await service.from('audit_logs').select('action, new_values').eq('resource_id', id);
      expect(audit).toContainEqual({ action: 'document_invoice_created', new_values: { invoice_id: invoice!.id, invoice_number: invoice!.invoice_number } });
    });

    it('makes one invoice of two concurrent tries; the other is told which', async () => {
      const id = await document();
      const results = await Promise.all([
        admin.client.rpc('create_invoice_from_document', args(id)),
        admin.client.rpc('create_invoice_from_document', args(id)),
      ]);
      const made = results.filter((r) => !r.error);
      const refused = results.filter((r) => r.error);
      expect(made).toHaveLength(1);
      const invoice = made[0].data as { id: string; invoice_number: string };
      expect(refused[0].error).toMatchObject({ code: '23505', message: `Already created as ${invoice.invoice_number}`, details: invoice.id, hint: invoice.invoice_number });
      expect((await service.from('invoices').select('id').eq('source_document_id', id)).data).toHaveLength(1);
    });

    it('refuses what cannot be an invoice, a document not approved, a read-only role and another account, writing nothing', async () => {
      const id = await document();
      for (const changes of [{ p_items: [] }, { p_items: [{ description: 'x', qty: 0, unit_price: 1 }] }, { p_tax_rate: 101 }, { p_currency: 'XYZ' }, { p_client_email: 'nope' }, { p_due_date: '2025-04-13' }]) {
        const { error } = await admin.client.rpc('create_invoice_from_document', args(id, changes));
        expect(error, JSON.stringify(changes)).not.toBeNull();
      }
      const pending = await document(admin, 'Pending Review');
      expect((await admin.client.rpc('create_invoice_from_document', args(pending))).error).toMatchObject({ code: '22023', message: "Approve the document's fields first" });
      expect((await auditor.client.rpc('create_invoice_from_document', args(id))).error?.code).toBe('42501');
      expect((await auditor.client.rpc('create_contact_from_document', { p_document_id: id, p_name: 'A', p_email: 'a@a.test' })).error?.code).toBe('42501');
      expect((await other.client.rpc('create_invoice_from_document', args(id))).error).toMatchObject({ code: 'P0002', message: 'Document not found' });
      expect((await service.from('invoices').select('id').in('source_document_id', [id, pending])).data).toEqual([]);
      const { data: contacts } = await service.from('contacts').select('id').eq('account_id', admin.accountId).eq('email', 'nope');
      expect(contacts).toEqual([]);
    });

    it("links an invoice only to a document of its own account", async () => {
      const mine = await document();
      const { data: invoice } = await admin.client.rpc('create_invoice_from_document', args(mine)).single<{ id: string }>();
      const theirs = await document(other);
      const { error } = await service.from('invoices').update({ source_document_id: theirs }).eq('id', invoice!.id);
      expect(error?.code).toBe('23503');
    });

    it('matches a contact by email whatever its case, else creates one with the phone, audited on the document', async () => {
      const id = await document();
      const first = await admin.client.rpc('create_contact_from_document', { p_document_id: id, p_name: 'Northwind', p_email: 'Billing@Northwind.test', p_phone: '+44 1' });
      expect(first.data).toEqual([{ contact_id: expect.any(String), contact_name: 'Northwind', created: true }]);
      const again = await admin.client.rpc('create_contact_from_document', { p_document_id: await document(), p_name: 'Other name', p_email: 'billing@NORTHWIND.test' });
      expect(again.data).toEqual([{ contact_id: first.data![0].contact_id, contact_name: 'Northwind', created: false }]);
      const { data: contact } = await service.from('contacts').select('name, email, phone').eq('id', first.data![0].contact_id).single();
      expect(contact).toEqual({ name: 'Northwind', email: 'billing@northwind.test', phone: '+44 1' });
      const { data: audit } = await service.from('audit_logs').select('action').eq('resource_id', id);
      expect(audit?.map((r) => r.action)).toContain('document_contact_created');
    });
  });
}
