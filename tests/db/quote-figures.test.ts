// Figures that add up (docs/product-guide.md, Quotes and Dashboard): sums of
// money grouped by currency in SQL, the conversion rate's sent and signed
// counts kept through status changes, the dashboard's modules and first visit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteArgs, serviceClient, signInAs, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'figures');
});
afterAll(async () => backend?.stop());

interface Summary {
  total_count: number;
  sent_count: number;
  signed_count: number;
  by_currency: { currency: string; count: number; value: number; average: number }[];
}

async function summary(member: Member): Promise<Summary> {
  const { data, error } = await member.client.rpc('quote_summary').single<Summary>();
  if (error) throw error;
  return data!;
}

async function newQuote(member: Member, cents: number, currency: string): Promise<string> {
  const { data, error } = await member.client.rpc('create_quote', quoteArgs(cents, 1, currency)).single<{ id: string }>();
  if (error) throw error;
  return data!.id;
}

describe('quote sums by currency and the conversion counts', () => {
  it('never adds currencies together, and counts a quote as sent from when it leaves draft', async () => {
    const service = serviceClient(backend);
    const usd = await newQuote(admin, 523_800, 'USD');
    const eur = await newQuote(admin, 135_000, 'EUR');
    const usd2 = await newQuote(admin, 100, 'USD');
    expect(await summary(admin)).toEqual({
      total_count: 3,
      sent_count: 0,
      signed_count: 0,
      by_currency: [
        { currency: 'USD', count: 2, value: 523_900, average: 261_950 },
        { currency: 'EUR', count: 1, value: 135_000, average: 135_000 },
      ],
    });

    // Sent, then signed by the client (server code): sent and signed counted once each.
    expect((await admin.client.rpc('change_quote_status', { p_quote_id: usd, p_status: 'sent' })).error).toBeNull();
    const { data: stamped } = await service.from('quotes').select('sent_at').eq('id', usd).single();
    expect(stamped!.sent_at).not.toBeNull();
    expect((await service.rpc('change_quote_status', { p_quote_id: usd, p_status: 'signed' })).error).toBeNull();
    // Sent, then expired: still a sent quote. A draft that expires was never sent.
    expect((await admin.client.rpc('change_quote_status', { p_quote_id: eur, p_status: 'sent' })).error).toBeNull();
    await service.from('quotes').update({ expires_at: new Date(Date.now() - 60_000).toISOString() }).in('id', [eur, usd2]);
    expect((await admin.client.rpc('change_quote_status', { p_quote_id: eur, p_status: 'expired' })).error).toBeNull();
    expect((await admin.client.rpc('change_quote_status', { p_quote_id: usd2, p_status: 'expired' })).error).toBeNull();

    const after = await summary(admin);
    expect(after).toMatchObject({ total_count: 3, sent_count: 2, signed_count: 1 });
    expect(after.by_currency).toEqual([
      { currency: 'USD', count: 2, value: 523_900, average: 261_950 },
      { currency: 'EUR', count: 1, value: 135_000, average: 135_000 },
    ]);

    // A member cannot mark a draft as sent by writing the column.
    const draft = await newQuote(admin, 1, 'GBP');
    const forged = await admin.client.from('quotes').update({ sent_at: new Date().toISOString() }).eq('id', draft).select();
    expect(forged.error).not.toBeNull();
    expect((await summary(admin)).sent_count).toBe(2);
  });

  it("the dashboard's pipeline and this month's value are per currency too", async () => {
    const fresh = await signUpFreshAdmin(backend, 'pipeline');
    await newQuote(fresh, 10_000, 'USD');
    await newQuote(fresh, 20_000, 'EUR');
    await newQuote(fresh, 30_000, 'EUR');
    const { data } = await fresh.client.rpc('dashboard_overview');
    const overview = data as Record<string, unknown> & { this_month: Record<string, unknown> };
    const expected = [
      { currency: 'EUR', count: 2, value: 50_000, average: 25_000 },
      { currency: 'USD', count: 1, value: 10_000, average: 10_000 },
    ];
    expect(overview.quote_pipeline).toEqual(expected);
    expect(overview.this_month.quote_value).toEqual(expected);
  });
});

describe('the dashboard from data', () => {
  it("lists the account's module subscriptions, cancelled ones left out", async () => {
    const fresh = await signUpFreshAdmin(backend, 'modules');
    const service = serviceClient(backend);
    const { data: modules } = await service.from('modules').select('id, key, name').in('key', ['cpq', 'rfp']);
    const cpq = modules!.find((m) => m.key === 'cpq')!;
    const rfp = modules!.find((m) => m.key === 'rfp')!;
    await service.from('account_modules').insert([
      { account_id: fresh.accountId, module_id: cpq.id, status: 'trial' },
      { account_id: fresh.accountId, module_id: rfp.id, status: 'cancelled' },
    ]);
    const { data } = await fresh.client.rpc('dashboard_overview');
    expect((data as { modules: unknown }).modules).toEqual([{ key: 'cpq', name: cpq.name, status: 'trial' }]);
  });

  it('calls the first session a first visit, and not the next one', async () => {
    const fresh = await signUpFreshAdmin(backend, 'first-visit');
    const first = await fresh.client.rpc('dashboard_overview');
    expect((first.data as { first_visit: boolean }).first_visit).toBe(true);
    const again = await signInAs(backend, fresh.email);
    const second = await again.client.rpc('dashboard_overview');
    expect((second.data as { first_visit: boolean }).first_visit).toBe(false);
  });
});
