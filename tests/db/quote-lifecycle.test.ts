// A quote worked on from its pages: save_quote_draft saves a draft whole
// (items in order, amounts computed, crafted totals ignored), send_quote
// sends it (status, audit row, event, one queued job), revise_quote copies a
// quote that left draft into a new draft -R1, -R2. Each refuses the roles and
// accounts that may not, and a sent quote stays as it was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, quoteArgs, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;
let member: Member;
let auditor: Member;
let client: Member;
let supplier: Member;
let stranger: Member;

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString();

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'quote-lifecycle');
  member = await addMember(backend, admin, 'member');
  auditor = await addMember(backend, admin, 'auditor');
  client = await addMember(backend, admin, 'client');
  supplier = await addMember(backend, admin, 'supplier');
  stranger = await signUpFreshAdmin(backend, 'quote-stranger');
});
afterAll(async () => backend?.stop());

/** A draft addressed to the client user (so the client can read it). */
async function newQuote(): Promise<{ id: string; quote_number: string; contact_id: string }> {
  const { data, error } = await admin.client
    .rpc('create_quote', quoteArgs(1000, 2, 'USD', { p_contact_email: client.email }))
    .single<{ id: string; quote_number: string; contact_id: string }>();
  if (error) throw error;
  return data!;
}

const item = (description: string, qty: number, unit_price: number, extra: Record<string, unknown> = {}) => ({ description, qty, unit_price, ...extra });

function draftArgs(quote: { id: string; contact_id: string }, changes: Record<string, unknown> = {}) {
  return {
    p_quote_id: quote.id,
    p_contact_id: quote.contact_id,
    p_currency: 'EUR',
    p_expires_at: inAWeek(),
    p_notes: 'Net 30',
    p_tax_rate: 0,
    p_discount: 0,
    p_items: [item('Design', 2, 5000), item('Build', 1, 12345)],
    ...changes,
  };
}

async function stored(id: string) {
  const { data } = await service
    .from('quotes')
    .select('status, currency, notes, subtotal, discount_amount, tax_amount, total, tax_rate, discount, quote_number, revision, revision_of, superseded_by, delivery_error')
    .eq('id', id)
    .single();
  return data as Record<string, unknown>;
}

async function items(id: string) {
  const { data } = await service.from('quote_items').select('description, qty, unit_price, total, position').eq('quote_id', id).order('position');
  return data as { description: string; qty: number; unit_price: number; total: number; position: number }[];
}

async function auditActions(id: string): Promise<string[]> {
  const { data } = await service.from('audit_logs').select('action').eq('resource_id', id).order('created_at');
  return (data as { action: string }[]).map((row) => row.action);
}

describe('save_quote_draft', () => {
  it('saves the fields and the items in the order given, amounts computed and a crafted total ignored', async () => {
    const quote = await newQuote();
    const saved = await member.client
      .rpc('save_quote_draft', draftArgs(quote, {
        p_items: [item('Build', 1, 12345, { total: 1 }), item('Design', 2, 5000, { total: 999_999 }), item('Care', 3, 100)],
        p_tax_rate: 20,
        p_discount: 10,
      }))
      .single<{ total: number }>();
    expect(saved.error).toBeNull();
    expect(await items(quote.id)).toEqual([
      { description: 'Build', qty: 1, unit_price: 12345, total: 12345, position: 0 },
      { description: 'Design', qty: 2, unit_price: 5000, total: 10000, position: 1 },
      { description: 'Care', qty: 3, unit_price: 100, total: 300, position: 2 },
    ]);
    // 22645 − 10% (2264.5 → 2265) = 20380; + 20% tax = 4076 → 24456.
    expect(await stored(quote.id)).toMatchObject({
      currency: 'EUR', notes: 'Net 30', subtotal: 22645, discount_amount: 2265, tax_amount: 4076, total: 24456,
    });
    expect(saved.data!.total).toBe(24456);
  });

  it('rounds the discount and tax half-up to the cent', async () => {
    const quote = await newQuote();
    // 1005 × 10% = 100.5 → 101; (1005 − 101) × 12.5% = 113 exactly; 1001 × 0.05% = 0.5005 → 1.
    expect((await admin.client.rpc('save_quote_draft', draftArgs(quote, { p_items: [item('A', 1, 1005)], p_discount: 10, p_tax_rate: 12.5 }))).error).toBeNull();
    expect(await stored(quote.id)).toMatchObject({ subtotal: 1005, discount_amount: 101, tax_amount: 113, total: 1017 });
    expect((await admin.client.rpc('save_quote_draft', draftArgs(quote, { p_items: [item('A', 1, 1001)], p_discount: 0, p_tax_rate: 0.05 }))).error).toBeNull();
    expect(await stored(quote.id)).toMatchObject({ subtotal: 1001, tax_amount: 1, total: 1002 });
  });

  it('refuses 0 and 101 items, bad items and rates, and changes nothing', async () => {
    const quote = await newQuote();
    const cases: [Record<string, unknown>, string][] = [
      [{ p_items: [] }, 'at least one line item'],
      [{ p_items: Array.from({ length: 101 }, (_, i) => item(`Line ${i}`, 1, 1)) }, 'at most 100'],
      [{ p_items: [item('A', 1, -1)] }, 'unit price'],
      [{ p_items: [item('A', 0, 1)] }, 'quantity'],
      [{ p_items: [item('A', 1.5, 1)] }, 'quantity'],
      [{ p_items: [item('A', 1_000_001, 1)] }, 'quantity'],
      [{ p_items: [item('A', 1, 10.5)] }, 'unit price'],
      [{ p_items: [item('   ', 1, 1)] }, 'description is required'],
      [{ p_items: [item('x'.repeat(2001), 1, 1)] }, '2000'],
      [{ p_items: [{ description: 'A', qty: '1', unit_price: 1 }] }, 'quantity'],
      [{ p_tax_rate: 100.001 }, 'Tax rate'],
      [{ p_tax_rate: -1 }, 'Tax rate'],
      [{ p_discount: 101 }, 'Discount'],
      [{ p_currency: 'XYZ' }, 'Currency'],
      [{ p_expires_at: new Date(Date.now() - 60_000).toISOString() }, 'expiry'],
      [{ p_contact_id: '00000000-0000-0000-0000-000000000000' }, 'Client not found'],
    ];
    for (const [changes, message] of cases) {
      const { error } = await admin.client.rpc('save_quote_draft', draftArgs(quote, changes));
      expect(error?.message, JSON.stringify(changes).slice(0, 80)).toContain(message);
    }
    // 100 items is the most, and fine.
    const hundred = Array.from({ length: 100 }, (_, i) => item(`Line ${i}`, 1, 1));
    expect((await admin.client.rpc('save_quote_draft', draftArgs(quote, { p_items: hundred }))).error).toBeNull();
    expect((await items(quote.id)).length).toBe(100);
  });

  it("refuses an auditor, a client, a supplier and another account, and a quote that is not a draft", async () => {
    const quote = await newQuote();
    for (const [who, message] of [[auditor, 'view quotes but not change'], [client, 'view quotes but not change'], [supplier, 'view quotes but not change'], [stranger, 'Quote not found']] as const) {
      const { error } = await who.client.rpc('save_quote_draft', draftArgs(quote));
      expect(error?.message, who.role).toContain(message);
    }
    expect(await stored(quote.id)).toMatchObject({ currency: 'USD', subtotal: 2000 });
    expect((await admin.client.rpc('send_quote', { p_quote_id: quote.id })).error).toBeNull();
    const sent = await admin.client.rpc('save_quote_draft', draftArgs(quote));
    expect(sent.error?.message).toContain('Only a draft quote can be edited');
  });

  it('audits a save as one change of the fields and one of the amounts', async () => {
    const quote = await newQuote();
    expect((await admin.client.rpc('save_quote_draft', draftArgs(quote, { p_tax_rate: 5 }))).error).toBeNull();
    expect(await auditActions(quote.id)).toEqual(['quote_created', 'quote_updated', 'quote_updated']);
    // The same content again (the expiry as the form sends it: the end of the same day) changes nothing and logs nothing.
    const { data: saved } = await service.from('quotes').select('expires_at').eq('id', quote.id).single();
    const sameDay = `${String(saved!.expires_at).slice(0, 10)}T23:59:59.999Z`;
    expect((await admin.client.rpc('save_quote_draft', draftArgs(quote, { p_tax_rate: 5, p_expires_at: sameDay }))).error).toBeNull();
    expect((await auditActions(quote.id)).length).toBe(3);
    expect((await service.from('quotes').select('expires_at').eq('id', quote.id).single()).data!.expires_at).toBe(saved!.expires_at);
  });
});

describe('send_quote', () => {
  it('sends a draft: status sent, audit quote_sent, event quote_sent, one job quote_send; returns the email', async () => {
    const quote = await newQuote();
    await service.from('quotes').update({ delivery_error: 'old failure' }).eq('id', quote.id);
    const { data: email, error } = await member.client.rpc('send_quote', { p_quote_id: quote.id });
    expect(error).toBeNull();
    expect(email).toBe(client.email);
    expect(await stored(quote.id)).toMatchObject({ status: 'sent', delivery_error: null });
    expect(await auditActions(quote.id)).toContain('quote_sent');
    const { data: audit } = await service.from('audit_logs').select('old_values, new_values').eq('resource_id', quote.id).eq('action', 'quote_sent').single();
    expect(audit).toMatchObject({ old_values: { status: 'draft' }, new_values: { status: 'sent' } });
    const { data: events } = await service.from('events').select('kind, resource_id').eq('resource_id', quote.id);
    expect(events).toEqual([{ kind: 'quote_sent', resource_id: quote.id }]);
    const { data: jobs } = await service.from('jobs').select('kind, payload, idempotency_key, subject_id, account_id').eq('subject_id', quote.id);
    expect(jobs).toEqual([{ kind: 'quote_send', payload: { quote_id: quote.id }, idempotency_key: `quote_send:${quote.id}`, subject_id: quote.id, account_id: admin.accountId }]);
    // Sending again: not a draft any more, nothing more queued.
    expect((await admin.client.rpc('send_quote', { p_quote_id: quote.id })).error?.message).toContain('Only a draft quote can be sent');
    expect((await service.from('jobs').select('id').eq('subject_id', quote.id)).data).toHaveLength(1);
  });

  it('refuses an expired draft, and the roles and accounts that may not send', async () => {
    const quote = await newQuote();
    for (const [who, message] of [[auditor, 'view quotes but not change'], [client, 'Quote not found'], [supplier, 'Quote not found'], [stranger, 'Quote not found']] as const) {
      const { error } = await who.client.rpc('send_quote', { p_quote_id: quote.id });
      expect(error?.message, who.role).toContain(message);
    }
    await service.from('quotes').update({ expires_at: new Date(Date.now() - 1000).toISOString() }).eq('id', quote.id);
    expect((await admin.client.rpc('send_quote', { p_quote_id: quote.id })).error?.message).toContain('expiry has passed');
    expect((await stored(quote.id)).status).toBe('draft');
    expect((await service.from('jobs').select('id').eq('subject_id', quote.id)).data).toHaveLength(0);
  });

  it('leaves a sent quote immutable over REST with a member\'s own token', async () => {
    const quote = await newQuote();
    expect((await admin.client.rpc('send_quote', { p_quote_id: quote.id })).error).toBeNull();
    for (const change of [{ notes: 'changed' }, { tax_rate: 50 }, { discount: 50 }, { currency: 'GBP' }, { total: 1 }]) {
      const { error } = await member.client.from('quotes').update(change).eq('id', quote.id).select();
      expect(error, JSON.stringify(change)).not.toBeNull();
    }
    expect((await member.client.from('quote_items').update({ qty: 99 }).eq('quote_id', quote.id).select()).error).not.toBeNull();
    expect((await member.client.from('quote_items').insert({ quote_id: quote.id, description: 'More', qty: 1, unit_price: 1 })).error).not.toBeNull();
    expect((await member.client.from('quote_items').delete().eq('quote_id', quote.id).select()).error).not.toBeNull();
    expect((await member.client.from('quotes').delete().eq('id', quote.id).select()).error?.message).toContain('Only a draft quote can be deleted');
    expect(await stored(quote.id)).toMatchObject({ status: 'sent', notes: 'Rush', subtotal: 2000, total: 2000 });
    expect(await items(quote.id)).toHaveLength(1);
  });
});

describe('revise_quote', () => {
  it('copies a sent quote into a draft -R1 and supersedes the original; -R1 once sent revises into -R2', async () => {
    const quote = await newQuote();
    expect((await admin.client.rpc('save_quote_draft', draftArgs(quote, { p_tax_rate: 10, p_discount: 5 }))).error).toBeNull();
    expect((await admin.client.rpc('send_quote', { p_quote_id: quote.id })).error).toBeNull();
    const r1 = await member.client.rpc('revise_quote', { p_quote_id: quote.id }).single<{ id: string; quote_number: string }>();
    expect(r1.error).toBeNull();
    expect(r1.data!.quote_number).toBe(`${quote.quote_number}-R1`);
    const original = await stored(quote.id);
    // Superseded at once: its client cannot sign the old version while the new one is drafted (issue 30).
    expect(original).toMatchObject({ status: 'superseded', superseded_by: r1.data!.id });
    expect(await stored(r1.data!.id)).toMatchObject({
      status: 'draft', revision: 1, revision_of: quote.id, currency: 'EUR', tax_rate: 10, discount: 5,
      subtotal: original.subtotal, total: original.total,
    });
    expect((await items(r1.data!.id)).map((row) => row.description)).toEqual(['Design', 'Build']);
    expect((await auditActions(quote.id)).filter((action) => action !== 'quote_updated').slice(-1)).toEqual(['quote_revised']);
    const audit = await service.from('audit_logs').select('old_values, new_values')
      .eq('resource_id', quote.id).eq('action', 'quote_revised').single();
    expect(audit.data).toMatchObject({
      old_values: { status: 'sent' },
      new_values: { status: 'superseded', superseded_by: r1.data!.id, revision: `${quote.quote_number}-R1` },
    });
    // A draft is edited, not revised; the superseded original is not revised again; R1 once sent revises into R2.
    expect((await admin.client.rpc('revise_quote', { p_quote_id: r1.data!.id })).error?.message).toContain('edited, not revised');
    expect((await admin.client.rpc('revise_quote', { p_quote_id: quote.id })).error?.message).toContain('replaced by a newer version');
    expect((await admin.client.rpc('send_quote', { p_quote_id: r1.data!.id })).error).toBeNull();
    const r2 = await admin.client.rpc('revise_quote', { p_quote_id: r1.data!.id }).single<{ id: string; quote_number: string }>();
    expect(r2.data?.quote_number).toBe(`${quote.quote_number}-R2`);
    expect(await stored(r1.data!.id)).toMatchObject({ status: 'superseded', superseded_by: r2.data!.id });
    // A superseded quote is never converted, nor signed (not even by the server's own path).
    expect((await admin.client.rpc('convert_quote_to_invoice', { p_quote_id: quote.id })).error?.message)
      .toContain('Only a signed quote can be converted');
    expect((await service.rpc('change_quote_status', { p_quote_id: r1.data!.id, p_status: 'signed' })).error?.message)
      .toContain('A superseded quote cannot become signed');
    // Its revision deleted while a draft, R1 stays superseded (never offered again) but may be revised anew.
    expect((await admin.client.from('quotes').delete().eq('id', r2.data!.id)).error).toBeNull();
    expect(await stored(r1.data!.id)).toMatchObject({ status: 'superseded', superseded_by: null });
    const again = await admin.client.rpc('revise_quote', { p_quote_id: r1.data!.id }).single<{ quote_number: string }>();
    expect(again.error).toBeNull();
    expect(again.data?.quote_number).toBe(`${quote.quote_number}-R2`);
  });

  it('refuses a signed quote, and the roles and accounts that may not', async () => {
    const quote = await newQuote();
    expect((await admin.client.rpc('send_quote', { p_quote_id: quote.id })).error).toBeNull();
    for (const [who, message] of [[auditor, 'view quotes but not change'], [client, 'Quote not found'], [supplier, 'Quote not found'], [stranger, 'Quote not found']] as const) {
      const { error } = await who.client.rpc('revise_quote', { p_quote_id: quote.id });
      expect(error?.message, who.role).toContain(message);
    }
    expect((await service.rpc('change_quote_status', { p_quote_id: quote.id, p_status: 'signed' })).error).toBeNull();
    expect((await admin.client.rpc('revise_quote', { p_quote_id: quote.id })).error?.message).toContain('A signed quote cannot be revised');
    const { count } = await service.from('quotes').select('id', { count: 'exact', head: true }).eq('revision_of', quote.id);
    expect(count).toBe(0);
  });
});

describe('record_history', () => {
  it("gives the account's staff a quote's audit rows, nobody else", async () => {
    const quote = await newQuote();
    const staff = await auditor.client.rpc('record_history', { p_resource_type: 'quote', p_resource_id: quote.id });
    expect((staff.data as { action: string }[]).map((row) => row.action)).toContain('quote_created');
    for (const who of [client, stranger]) {
      const { data } = await who.client.rpc('record_history', { p_resource_type: 'quote', p_resource_id: quote.id });
      expect(data ?? []).toEqual([]);
    }
  });
});
