// A quote's amounts and status change only through the product's own paths:
// totals are computed from line items, status moves by change_quote_status,
// and no amount or summary can overflow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, quoteArgs, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'quote-integrity');
});
afterAll(async () => backend?.stop());

async function newQuote(unitPrice = 1000, quantity = 2): Promise<string> {
  const { data, error } = await admin.client.rpc('create_quote', quoteArgs(unitPrice, quantity)).single<{ id: string }>();
  if (error) throw error;
  return data!.id;
}

async function stored(id: string) {
  const { data } = await service.from('quotes').select('status, subtotal, total').eq('id', id).single();
  return data as { status: string; subtotal: number; total: number };
}

describe('quote amounts', () => {
  it('create_quote still makes a draft whose totals are its item', async () => {
    expect(await stored(await newQuote(1250, 3))).toEqual({ status: 'draft', subtotal: 3750, total: 3750 });
  });

  it('refuses a direct update of total, subtotal or status over REST', async () => {
    const id = await newQuote();
    for (const change of [{ total: 1 }, { subtotal: 999_999_999 }, { status: 'signed' }, { total: 9_000_000_000_000_000_000 }]) {
      const { error } = await admin.client.from('quotes').update(change).eq('id', id).select();
      expect(error, JSON.stringify(change)).not.toBeNull();
    }
    expect(await stored(id)).toEqual({ status: 'draft', subtotal: 2000, total: 2000 });
    // Other fields stay editable.
    expect((await admin.client.from('quotes').update({ notes: 'Call first' }).eq('id', id)).error).toBeNull();
  });

  it('refuses a directly inserted quote that is not a draft, or whose totals are not its items', async () => {
    const signed = await admin.client.from('quotes').insert({ account_id: admin.accountId, status: 'signed' }).select();
    expect(signed.error).not.toBeNull();
    const inflated = await admin.client.from('quotes').insert({ account_id: admin.accountId, subtotal: 500, total: 500 }).select();
    expect(inflated.error?.message).toContain('computed from its line items');
    const { count } = await service.from('quotes').select('id', { count: 'exact', head: true }).eq('account_id', admin.accountId).in('total', [500]);
    expect(count).toBe(0);
  });

  it("computes an item's total and the quote's totals from the items", async () => {
    const id = await newQuote(1000, 1);
    const { error } = await admin.client.from('quote_items').insert({ quote_id: id, description: 'Extra', qty: 3, unit_price: 500, total: 1 });
    expect(error).toBeNull();
    const { data: items } = await admin.client.from('quote_items').select('total').eq('quote_id', id).order('total');
    expect(items).toEqual([{ total: 1000 }, { total: 1500 }]);
    expect(await stored(id)).toMatchObject({ subtotal: 2500, total: 2500 });
  });

  it('refuses quantities and amounts that would overflow', async () => {
    const tooMany = await admin.client.rpc('create_quote', quoteArgs(2_147_483_647, 2_000_000_000));
    expect(tooMany.error).not.toBeNull();
    const id = await newQuote(1000, 1);
    const huge = await admin.client.from('quote_items').insert({ quote_id: id, description: 'Huge', qty: 1_000_001, unit_price: 1 });
    expect(huge.error).not.toBeNull();
    const direct = await service.from('quotes').insert({ account_id: admin.accountId, subtotal: 2e18, total: 2e18 });
    expect(direct.error).not.toBeNull();
  });

  it('quote_summary stays right when the account holds huge sums', async () => {
    const fresh = await signUpFreshAdmin(backend, 'huge-sums');
    const max = 1_000_000_000_000_000_000;
    const { error } = await service.from('quotes').insert(
      Array.from({ length: 10 }, () => ({ account_id: fresh.accountId, subtotal: max, total: max })),
    );
    expect(error).toBeNull();
    const { data: summary, error: summaryError } = await fresh.client
      .rpc('quote_summary')
      .single<{ total_count: number; by_currency: { currency: string; value: number; average: number }[] }>();
    expect(summaryError).toBeNull();
    expect(Number(summary!.total_count)).toBe(10);
    expect(summary!.by_currency).toHaveLength(1);
    expect(Number(summary!.by_currency[0].value)).toBe(1e19);
    expect(Number(summary!.by_currency[0].average)).toBe(1e18);
  });
});

describe('quote status', () => {
  it('moves by change_quote_status along the allowed transitions only', async () => {
    const id = await newQuote();
    const toSigned = await admin.client.rpc('change_quote_status', { p_quote_id: id, p_status: 'signed' });
    expect(toSigned.error?.message).toContain('A draft quote cannot become signed');
    const sent = await admin.client.rpc('change_quote_status', { p_quote_id: id, p_status: 'sent' }).single<{ status: string }>();
    expect(sent.error).toBeNull();
    expect(sent.data!.status).toBe('sent');
    // Signing is the contact's, through the public quote page (server code).
    expect((await admin.client.rpc('change_quote_status', { p_quote_id: id, p_status: 'signed' })).error).not.toBeNull();
    expect((await service.rpc('change_quote_status', { p_quote_id: id, p_status: 'viewed' })).error).toBeNull();
    expect((await service.rpc('change_quote_status', { p_quote_id: id, p_status: 'signed' })).error).toBeNull();
    expect((await service.rpc('change_quote_status', { p_quote_id: id, p_status: 'draft' })).error).not.toBeNull();
    expect((await stored(id)).status).toBe('signed');
    // A sent quote's items are frozen.
    const edit = await admin.client.from('quote_items').update({ qty: 50 }).eq('quote_id', id).select();
    expect(edit.error).not.toBeNull();
  });

  it("expires only a quote whose expiry has passed; another account's quote is not found; an auditor cannot", async () => {
    const id = await newQuote();
    expect((await admin.client.rpc('change_quote_status', { p_quote_id: id, p_status: 'expired' })).error).not.toBeNull();
    await service.from('quotes').update({ expires_at: new Date(Date.now() - 1000).toISOString() }).eq('id', id);
    expect((await admin.client.rpc('change_quote_status', { p_quote_id: id, p_status: 'expired' })).error).toBeNull();

    const other = await signUpFreshAdmin(backend, 'other-account');
    const mine = await newQuote();
    const foreign = await other.client.rpc('change_quote_status', { p_quote_id: mine, p_status: 'sent' });
    expect(foreign.error?.message).toContain('Quote not found');
    const auditor = await addMember(backend, admin, 'auditor');
    expect((await auditor.client.rpc('change_quote_status', { p_quote_id: mine, p_status: 'sent' })).error).not.toBeNull();
    expect((await stored(mine)).status).toBe('draft');
  });
});
