// The seller on every document (issue 31, decision 045): the account's seller
// details are written by its admins alone, refused when malformed (IBAN
// mod-97, BIC, colour, country code, control characters, a logo outside the
// account's folder), and a sent quote or invoice keeps the seller it was sent
// with after the account is edited; a draft shows the account as it is now.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const SELLER = {
  address_line1: '1 Harbour Street', address_line2: 'Floor 2', postal_code: '10115', city: 'Berlin', region: 'Berlin',
  country: 'DE', tax_id: 'DE123456789', company_registration: 'HRB 12345', iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX', bank_details: 'Commerzbank\nBerlin', payment_terms: 'Net 30. Thank you.', accent_color: '#1a7f5a',
};

describe('seller identity on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let others: Record<'member' | 'auditor' | 'client' | 'supplier', Member>;
  let other: Member;

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'seller-admin');
    const [member, auditor, client, supplier] = await Promise.all(
      (['member', 'auditor', 'client', 'supplier'] as const).map((role) => addMember(backend, admin, role, `seller-${role}`)),
    );
    others = { member, auditor, client, supplier };
    other = await signUpFreshAdmin(backend, 'seller-other');
  });
  afterAll(async () => backend?.stop());

  const account = async () =>
    (await service.from('accounts').select('*').eq('id', admin.accountId).single()).data as Record<string, unknown>;

  it('lets the admin write every seller column', async () => {
    const { data, error } = await admin.client.from('accounts').update(SELLER).eq('id', admin.accountId).select('id');
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
    expect(await account()).toMatchObject(SELLER);
  });

  it('lets no other role, another account or anon write them', async () => {
    for (const [role, who] of Object.entries(others)) {
      const { data } = await who.client.from('accounts').update({ tax_id: `FORGED-${role}` }).eq('id', admin.accountId).select('id');
      expect(data ?? [], role).toHaveLength(0);
    }
    const foreign = await other.client.from('accounts').update({ iban: 'GB82WEST12345698765432' }).eq('id', admin.accountId).select('id');
    expect(foreign.data ?? []).toHaveLength(0);
    const anon = await anonClient(backend).from('accounts').update({ tax_id: 'ANON' }).eq('id', admin.accountId).select('id');
    expect(anon.data ?? []).toHaveLength(0);
    expect(await account()).toMatchObject({ tax_id: SELLER.tax_id, iban: SELLER.iban });
  });

  it.each([
    ['an IBAN whose check digits fail', { iban: 'DE89370400440532013001' }],
    ['an IBAN with spaces', { iban: 'DE89 3704 0044 0532 0130 00' }],
    ['a BIC of the wrong shape', { bic: 'COBA' }],
    ['a colour that is not #rrggbb', { accent_color: 'red' }],
    ['a country that is not a code', { country: 'Germany' }],
    ['a control character', { city: 'Ber\u0007lin' }],
    ['a line break in a one-line field', { address_line1: 'One\nTwo' }],
    ['an overlong tax ID', { tax_id: 'X'.repeat(51) }],
    ['a logo outside the account folder', () => ({ logo_path: `${other.accountId}/logo.png` })],
    ['a logo that is not PNG or JPEG', () => ({ logo_path: `${admin.accountId}/logo.svg` })],
  ] as [string, Record<string, unknown> | (() => Record<string, unknown>)][])('refuses %s', async (_name, given) => {
    const change = typeof given === 'function' ? given() : given;
    const { error } = await admin.client.from('accounts').update(change).eq('id', admin.accountId).select('id');
    expect(error?.message).toMatch(/violates check constraint|IBAN is not valid/);
    expect(await account()).toMatchObject(SELLER);
  });

  it('allows line breaks in bank details and payment terms', async () => {
    const { error } = await admin.client.from('accounts').update({ payment_terms: 'Net 30\nLate fees apply' }).eq('id', admin.accountId);
    expect(error).toBeNull();
    await admin.client.from('accounts').update({ payment_terms: SELLER.payment_terms }).eq('id', admin.accountId);
  });

  it('keeps the seller a sent invoice was sent with; a draft shows the account now', async () => {
    const { data: invoice } = await admin.client.rpc('create_invoice', {
      p_client_name: 'Ivy Client', p_client_email: 'ivy@client.test', p_description: 'Consulting',
      p_unit_price: 12_500, p_quantity: 2, p_currency: 'USD', p_due_date: daysFromNow(30), p_notes: null,
    }).single<{ id: string }>();
    const { data: draft } = await admin.client.rpc('create_invoice', {
      p_client_name: 'Ivy Client', p_client_email: 'ivy@client.test', p_description: 'Consulting',
      p_unit_price: 100, p_quantity: 1, p_currency: 'USD', p_due_date: daysFromNow(30), p_notes: null,
    }).single<{ id: string }>();
    expect((await admin.client.rpc('send_invoice', { p_invoice_id: invoice!.id })).error).toBeNull();
    await admin.client.from('accounts').update({ city: 'Hamburg', tax_id: 'DE999999999' }).eq('id', admin.accountId);

    const sent = (await admin.client.rpc('invoice_document', { p_invoice_id: invoice!.id })).data as { seller: Record<string, unknown> };
    expect(sent.seller).toMatchObject({ ...SELLER, city: 'Berlin', tax_id: 'DE123456789' });
    const row = (await service.from('invoices').select('seller').eq('id', invoice!.id).single()).data!;
    expect(row.seller).toMatchObject({ city: 'Berlin' });
    const live = (await admin.client.rpc('invoice_document', { p_invoice_id: draft!.id })).data as { seller: Record<string, unknown> };
    expect(live.seller).toMatchObject({ city: 'Hamburg', tax_id: 'DE999999999' });
    // Sending it again (a re-mail) keeps the first snapshot.
    await admin.client.rpc('send_invoice', { p_invoice_id: invoice!.id });
    expect((await service.from('invoices').select('seller').eq('id', invoice!.id).single()).data!.seller).toMatchObject({ city: 'Berlin' });
    await admin.client.from('accounts').update({ city: 'Berlin', tax_id: SELLER.tax_id }).eq('id', admin.accountId);
  });

  it('keeps the seller a sent quote was sent with, and no one writes the snapshot', async () => {
    const { data: contact } = await service.from('contacts')
      .insert({ account_id: admin.accountId, name: 'Quinn', email: 'quinn@client.test' }).select('id').single();
    const { data: quote } = await admin.client.from('quotes')
      .insert({ account_id: admin.accountId, contact_id: contact!.id, currency: 'EUR', expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() })
      .select('id, seller').single();
    expect(quote!.seller).toBeNull();
    await service.from('quote_items').insert({ quote_id: quote!.id, description: 'Design', qty: 1, unit_price: 5000, total: 5000, position: 0 });
    expect((await admin.client.rpc('send_quote', { p_quote_id: quote!.id })).error).toBeNull();
    await admin.client.from('accounts').update({ address_line1: '9 New Road' }).eq('id', admin.accountId);

    const document = (await admin.client.rpc('quote_document', { p_quote_id: quote!.id })).data as { seller: Record<string, unknown> };
    expect(document.seller).toMatchObject({ address_line1: '1 Harbour Street', iban: SELLER.iban });
    const forged = await admin.client.from('quotes').update({ seller: { name: 'Forged' } }).eq('id', quote!.id).select('id');
    expect(forged.error?.message).toMatch(/permission denied/);
    await admin.client.from('accounts').update({ address_line1: SELLER.address_line1 }).eq('id', admin.accountId);
  });

  it('branding: public-read PNG/JPEG up to 512 KB; only the admin writes in the account folder', async () => {
    const { data: bucket } = await service.storage.getBucket('branding');
    expect(bucket).toMatchObject({ public: true, file_size_limit: 512 * 1024, allowed_mime_types: ['image/png', 'image/jpeg'] });
    const png = () => new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    const ours = `${admin.accountId}/logo.png`;
    for (const [role, who] of Object.entries(others)) {
      const { error } = await who.client.storage.from('branding').upload(ours, png(), { upsert: true });
      expect(error, role).not.toBeNull();
    }
    expect((await other.client.storage.from('branding').upload(ours, png(), { upsert: true })).error).not.toBeNull();
    expect((await anonClient(backend).storage.from('branding').upload(ours, png())).error).not.toBeNull();
    expect((await admin.client.storage.from('branding').upload(`${other.accountId}/logo.png`, png())).error).not.toBeNull();
    expect((await admin.client.storage.from('branding').upload(ours, png(), { upsert: true })).error).toBeNull();
    expect((await admin.client.storage.from('branding').upload(`${admin.accountId}/logo.svg`,
      new Blob(['<svg/>'], { type: 'image/svg+xml' }))).error).not.toBeNull();
    // Nobody but the admin removes it.
    await others.member.client.storage.from('branding').remove([ours]);
    await other.client.storage.from('branding').remove([ours]);
    expect((await service.storage.from('branding').list(admin.accountId)).data!.map((o) => o.name)).toEqual(['logo.png']);
    // Anyone reads it by its public URL (it is printed on what the account sends).
    const response = await fetch(anonClient(backend).storage.from('branding').getPublicUrl(ours).data.publicUrl);
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  });
});
