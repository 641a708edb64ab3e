// One list of currencies (issue 31, decision 046): the database's list is the
// app's; every function that creates or saves a quote or an invoice takes any
// currency of it (CHF, JPY) and refuses a code that is not; a currency without
// minor units (JPY) takes whole amounts only; an invoice may not fall due
// before today in its account's time zone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { CURRENCIES } from '../../app/lib/currencies.ts';
import { quoteArgs, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;

/** The day it is now in a time zone, YYYY-MM-DD, shifted by `days`. */
const dayIn = (timeZone: string, days = 0) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + days * 86_400_000));

const invoiceArgs = (changes: Record<string, unknown> = {}) => ({
  p_client_name: 'Ivy Client', p_client_email: 'ivy@client.test', p_description: 'Consulting',
  p_unit_price: 100_000, p_quantity: 1, p_currency: 'USD', p_due_date: dayIn('UTC', 30), p_notes: null, ...changes,
});

const draftArgs = (id: string, changes: Record<string, unknown> = {}) => ({
  p_invoice_id: id, p_due_date: dayIn('UTC', 14), p_notes: null, p_tax_rate: 0, p_discount: 0,
  p_items: [{ description: 'Hosting', qty: 1, unit_price: 100_000 }], ...changes,
});

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'currencies');
});
afterAll(async () => backend?.stop());

const createQuote = (currency: string, unitPrice = 100_000) => admin.client.rpc('create_quote', quoteArgs(unitPrice, 1, currency)).single<{ id: string; contact_id: string; currency: string }>();
const createInvoice = (changes: Record<string, unknown>) => admin.client.rpc('create_invoice', invoiceArgs(changes)).single<{ id: string; currency: string }>();

describe('the one list of currencies', () => {
  it("is the app's list: the same codes, minor units and names, in the same order", async () => {
    const { data, error } = await admin.client.rpc('currencies');
    expect(error).toBeNull();
    expect(data).toEqual(CURRENCIES.map((c) => ({ code: c.code, minor_units: c.minorUnits, name: c.name })));
    // At least what the issue names, JPY without minor units.
    const codes = CURRENCIES.map((c) => c.code);
    for (const code of ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'CHF', 'JPY', 'AED', 'INR', 'PLN']) expect(codes).toContain(code);
    expect(CURRENCIES.find((c) => c.code === 'JPY')?.minorUnits).toBe(0);
  });

  it('create_quote, create_client_quote and save_quote_draft take CHF and JPY and refuse an unknown code', async () => {
    for (const currency of ['CHF', 'JPY', 'CAD', 'INR']) {
      const { data, error } = await createQuote(currency);
      expect(error).toBeNull();
      expect(data?.currency).toBe(currency);
    }
    const { data: quote } = await createQuote('USD');
    const client = await admin.client.rpc('create_client_quote', { p_contact_id: quote!.contact_id, p_description: 'Work', p_unit_price: 5_000, p_quantity: 1, p_currency: 'CHF' }).single<{ currency: string }>();
    expect(client.error).toBeNull();
    expect(client.data?.currency).toBe('CHF');

    const draft = (currency: string, unitPrice = 100_000) => admin.client.rpc('save_quote_draft', {
      p_quote_id: quote!.id, p_contact_id: quote!.contact_id, p_currency: currency, p_expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      p_notes: null, p_tax_rate: 0, p_discount: 0, p_items: [{ description: 'Work', qty: 1, unit_price: unitPrice }],
    }).single<{ currency: string }>();
    expect((await draft('JPY')).data?.currency).toBe('JPY');
    expect((await draft('CHF')).data?.currency).toBe('CHF');

    for (const unknown of ['XYZ', 'usd', '', 'US$']) {
      expect((await createQuote(unknown)).error?.message).toBe('Currency must be one of the listed currencies');
      expect((await admin.client.rpc('create_client_quote', { p_contact_id: quote!.contact_id, p_description: 'Work', p_unit_price: 5_000, p_quantity: 1, p_currency: unknown })).error?.message)
        .toBe('Currency must be one of the listed currencies');
      expect((await draft(unknown)).error?.message).toBe('Currency must be one of the listed currencies');
    }
  });

  it('create_invoice takes CHF and JPY and refuses an unknown code', async () => {
    for (const currency of ['CHF', 'JPY', 'PLN', 'AED']) {
      const { data, error } = await createInvoice({ p_currency: currency });
      expect(error).toBeNull();
      expect(data?.currency).toBe(currency);
    }
    for (const unknown of ['XYZ', 'eur', '']) {
      expect((await createInvoice({ p_currency: unknown })).error?.message).toBe('Currency must be one of the listed currencies');
    }
  });

  it('JPY amounts are whole yen: 1.5 JPY is refused on every writer, ¥1,000 taken', async () => {
    expect((await createQuote('JPY', 150)).error?.message).toBe('Unit price must be a whole amount in JPY');
    expect((await createInvoice({ p_currency: 'JPY', p_unit_price: 150 })).error?.message).toBe('Unit price must be a whole amount in JPY');
    const { data: invoice } = await createInvoice({ p_currency: 'JPY', p_unit_price: 100_000 });
    const fractional = await admin.client.rpc('save_invoice_draft', draftArgs(invoice!.id, { p_items: [{ description: 'Hosting', qty: 1, unit_price: 150 }] }));
    expect(fractional.error?.message).toBe('Line item 1: unit price must be a whole amount in JPY');
    expect((await admin.client.rpc('save_invoice_draft', draftArgs(invoice!.id))).error).toBeNull();
    const { data: quote } = await createQuote('JPY');
    const draft = await admin.client.rpc('save_quote_draft', {
      p_quote_id: quote!.id, p_contact_id: quote!.contact_id, p_currency: 'JPY', p_expires_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      p_notes: null, p_tax_rate: 0, p_discount: 0, p_items: [{ description: 'Work', qty: 1, unit_price: 1_050 }],
    });
    expect(draft.error?.message).toBe('Line item 1: unit price must be a whole amount in JPY');
    // Cents stay fine in a currency that has them.
    expect((await createInvoice({ p_currency: 'EUR', p_unit_price: 150 })).error).toBeNull();
  });

  it('no table takes a currency outside the list, not even from the service role', async () => {
    const { data: invoice } = await createInvoice({ p_currency: 'USD' });
    expect((await service.from('invoices').update({ currency: 'XYZ' }).eq('id', invoice!.id)).error?.message).toMatch(/invoices_currency_check/);
    const { data: quote } = await createQuote('USD');
    expect((await service.from('quotes').update({ currency: 'XYZ' }).eq('id', quote!.id)).error?.message).toMatch(/quotes_currency_check/);
    expect((await service.from('accounts').update({ default_currency: 'XYZ' }).eq('id', admin.accountId)).error?.message).toMatch(/accounts_default_currency_check/);
    expect((await service.from('accounts').update({ default_currency: 'CHF' }).eq('id', admin.accountId)).error).toBeNull();
  });
});

describe('an invoice due in the past', () => {
  const setZone = async (timezone: string) =>
    expect((await service.from('accounts').update({ timezone }).eq('id', admin.accountId)).error).toBeNull();

  it('create_invoice refuses a due date before today in the account time zone; today is fine', async () => {
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC']) {
      await setZone(zone);
      expect((await createInvoice({ p_due_date: dayIn(zone, -1) })).error?.message).toBe('The due date cannot be in the past');
      expect((await createInvoice({ p_due_date: dayIn(zone) })).error).toBeNull();
    }
  });

  it('save_invoice_draft refuses it too, and writes nothing', async () => {
    await setZone('Pacific/Kiritimati');
    const { data: invoice } = await createInvoice({});
    const before = (await service.from('invoices').select('due_date').eq('id', invoice!.id).single()).data;
    const { error } = await admin.client.rpc('save_invoice_draft', draftArgs(invoice!.id, { p_due_date: dayIn('Pacific/Kiritimati', -1) }));
    expect(error?.message).toBe('The due date cannot be in the past');
    expect((await service.from('invoices').select('due_date').eq('id', invoice!.id).single()).data).toEqual(before);
    expect((await admin.client.rpc('save_invoice_draft', draftArgs(invoice!.id, { p_due_date: dayIn('Pacific/Kiritimati') }))).error).toBeNull();
    await setZone('UTC');
  });
});
