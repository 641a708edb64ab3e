// A client's country (decision 052): the buyer's country of an e-invoice
// (BT-55). Written by whoever may write the client (admin, member), by no
// other role, account or anon; refused when not an ISO 3166-1 alpha-2 code;
// answered by invoice_document as the invoice's buyer, with its address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('client country on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let outsiders: Record<'auditor' | 'client' | 'supplier', Member>;
  let other: Member;
  let contactId: string;

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'country-admin');
    const [m, auditor, client, supplier] = await Promise.all(
      (['member', 'auditor', 'client', 'supplier'] as const).map((role) => addMember(backend, admin, role, `country-${role}`)),
    );
    member = m;
    outsiders = { auditor, client, supplier };
    other = await signUpFreshAdmin(backend, 'country-other');
    const { data } = await service.from('contacts')
      .insert({ account_id: admin.accountId, name: 'Ivy Client', email: 'ivy@client.test', address: 'Rue de la Paix 1\n75002 Paris' })
      .select('id').single();
    contactId = data!.id;
  });
  afterAll(async () => backend?.stop());

  const country = async () => (await service.from('contacts').select('country').eq('id', contactId).single()).data!.country as string | null;

  it('is written by the admin and a member', async () => {
    for (const [who, code] of [[admin, 'FR'], [member, 'BE']] as const) {
      const { data, error } = await who.client.from('contacts').update({ country: code }).eq('id', contactId).select('country');
      expect(error).toBeNull();
      expect(data).toEqual([{ country: code }]);
    }
  });

  it('is written by no other role, another account or anon', async () => {
    for (const [role, who] of Object.entries(outsiders)) {
      const { data } = await who.client.from('contacts').update({ country: 'US' }).eq('id', contactId).select('id');
      expect(data ?? [], role).toHaveLength(0);
    }
    expect((await other.client.from('contacts').update({ country: 'US' }).eq('id', contactId).select('id')).data ?? []).toHaveLength(0);
    expect((await anonClient(backend).from('contacts').update({ country: 'US' }).eq('id', contactId).select('id')).data ?? []).toHaveLength(0);
    expect(await country()).toBe('BE');
  });

  it.each(['France', 'fr', 'FRA', '', 'F1'])('refuses %j', async (value) => {
    const { error } = await admin.client.from('contacts').update({ country: value }).eq('id', contactId);
    expect(error?.message).toMatch(/violates check constraint "contacts_country_code"/);
    expect(await country()).toBe('BE');
  });

  it("is the invoice's buyer in invoice_document, with the address", async () => {
    const { data: invoice, error } = await admin.client.rpc('create_invoice', {
      p_client_name: 'Ivy Client', p_client_email: 'ivy@client.test', p_description: 'Consulting',
      p_unit_price: 12_500, p_quantity: 2, p_currency: 'EUR', p_due_date: daysFromNow(30), p_notes: null,
    }).single<{ id: string }>();
    expect(error).toBeNull();
    // create_invoice finds the client by its email; point the invoice at ours in case it made a new one.
    await service.from('invoices').update({ contact_id: contactId }).eq('id', invoice!.id);
    const document = (await admin.client.rpc('invoice_document', { p_invoice_id: invoice!.id })).data as { buyer: unknown; seller: unknown };
    expect(document.buyer).toEqual({ address: 'Rue de la Paix 1\n75002 Paris', country: 'BE' });
    expect(document.seller).toBeTruthy();
    // Another account reads nothing of it.
    expect((await other.client.rpc('invoice_document', { p_invoice_id: invoice!.id })).data).toBeNull();
  });
});
