// A purchase order as its PDF and mail show it, in one read (issue 36):
// purchase_order_document answers the order, its lines and the seller's details
// to whoever may read the order (staff of its account; the supplier it is
// addressed to, once sent) and to the service role (the runner); a supplier it
// is not addressed to, a client, another account and anon get nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;
let member: Member;
let auditor: Member;
let client: Member;
let supplier: Member;
let otherSupplier: Member;
let other: Member;

beforeAll(async () => {
  backend = await startBackend({ on: 'pglite' });
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'podoc-admin');
  member = await addMember(backend, admin, 'member', 'podoc-member');
  auditor = await addMember(backend, admin, 'auditor', 'podoc-auditor');
  client = await addMember(backend, admin, 'client', 'podoc-client');
  supplier = await addMember(backend, admin, 'supplier', 'podoc-supplier');
  otherSupplier = await addMember(backend, admin, 'supplier', 'podoc-supplier2');
  other = await signUpFreshAdmin(backend, 'podoc-other');
  await backend.db.query("update public.accounts set name = 'Podoc Buyer', billing_email = 'billing@podoc.test', city = 'Lyon' where id = $1", [admin.accountId]);
}, 120_000);
afterAll(async () => backend?.stop());

const read = (who: SupabaseClient, id: string) => who.rpc('purchase_order_document', { p_purchase_order_id: id });

describe('purchase_order_document', () => {
  it('answers the order, its lines in order and the seller, to staff and the runner; to the addressed supplier once sent', async () => {
    const { data: po, error } = await admin.client
      .rpc('create_purchase_order', {
        p_supplier_name: 'Northwind', p_supplier_email: supplier.email, p_currency: 'eur', p_expected_on: '2030-01-02', p_notes: 'Dock 4',
        p_items: [{ description: 'Pallets', qty: 10, unit_price: 2500 }, { description: 'Straps', qty: 3, unit_price: 199 }],
      })
      .single<{ id: string; po_number: string }>();
    expect(error).toBeNull();
    const expected = {
      order: expect.objectContaining({
        id: po!.id, account_id: admin.accountId, po_number: po!.po_number, status: 'draft', supplier_name: 'Northwind',
        supplier_email: supplier.email, currency: 'EUR', total: '25597', expected_on: '2030-01-02', notes: 'Dock 4',
      }),
      items: [
        { description: 'Pallets', qty: 10, unit_price: '2500', total: '25000' },
        { description: 'Straps', qty: 3, unit_price: '199', total: '597' },
      ],
      seller: expect.objectContaining({ name: 'Podoc Buyer', billing_email: 'billing@podoc.test', city: 'Lyon', logo_path: null }),
    };
    for (const [who, c] of [['admin', admin.client], ['member', member.client], ['auditor', auditor.client], ['service', service]] as const) {
      expect((await read(c, po!.id)).data, who).toEqual(expected);
    }
    // A draft is addressed to nobody yet.
    expect((await read(supplier.client, po!.id)).data).toBeNull();
    expect((await admin.client.rpc('send_purchase_order', { p_id: po!.id })).error).toBeNull();
    expect((await read(supplier.client, po!.id)).data).toMatchObject({ order: { id: po!.id, status: 'sent' }, seller: { name: 'Podoc Buyer' } });
    for (const [who, c] of [['another supplier', otherSupplier.client], ['client', client.client], ['another account', other.client]] as const) {
      const answer = await read(c, po!.id);
      expect(answer.error, who).toBeNull();
      expect(answer.data, who).toBeNull();
    }
    expect((await read(anonClient(backend), po!.id)).error?.code).toBe('42501');
    expect((await read(admin.client, crypto.randomUUID())).data).toBeNull();
  });
});
