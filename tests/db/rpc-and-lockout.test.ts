// The RPCs the app calls (create_quote, quote_summary, get_public_site_info)
// and what deactivation does to a signed-in user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, anonClient, PASSWORD, quoteArgs, serviceClient, signInAs, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'quoter');
});
afterAll(async () => backend?.stop());

describe('create_quote and quote_summary', () => {
  it('summarises an account without quotes as zeros', async () => {
    const { data, error } = await admin.client.rpc('quote_summary').single();
    expect(error).toBeNull();
    expect(data).toEqual({ total_count: 0, sent_count: 0, signed_count: 0, by_currency: [] });
  });

  it('creates the contact, the draft quote and its one item together', async () => {
    const { data: quote, error } = await admin.client.rpc('create_quote', quoteArgs(1999, 3, 'EUR')).single<Record<string, unknown>>();
    expect(error).toBeNull();
    expect(quote).toMatchObject({ status: 'draft', currency: 'EUR', subtotal: 5997, total: 5997, notes: 'Rush', created_by: admin.userId, account_id: admin.accountId });
    expect(quote!.quote_number).toMatch(/^Q-\d{4}-0001$/);
    const days = (new Date(quote!.expires_at as string).getTime() - Date.now()) / 86_400_000;
    expect(Math.round(days)).toBe(7);
    const { data: full } = await admin.client.from('quotes').select('id, contacts(name, company, is_primary), quote_items(description, qty, unit_price, total)').eq('id', quote!.id).single();
    expect(full).toMatchObject({
      contacts: { name: 'Quinn', company: 'Quinn Co', is_primary: true },
      quote_items: [{ description: 'Widgets', qty: 3, unit_price: 1999, total: 5997 }],
    });
  });

  it('rolls everything back when one part fails', async () => {
    const { count: before } = await admin.client.from('contacts').select('id', { count: 'exact', head: true });
    const { error } = await admin.client.rpc('create_quote', quoteArgs(100, 0));
    expect(error?.message).toBe('Quantity must be at least 1');
    const { error: currency } = await admin.client.rpc('create_quote', quoteArgs(100, 1, 'XYZ'));
    expect(currency?.message).toBe('Currency must be one of the listed currencies');
    const { count: after } = await admin.client.from('contacts').select('id', { count: 'exact', head: true });
    expect(after).toBe(before);
  });

  it('sums and averages (rounded) the account quotes by SQL aggregates, one figure per currency', async () => {
    await admin.client.rpc('create_quote', quoteArgs(1000, 1));
    await admin.client.rpc('create_quote', quoteArgs(1000, 2));
    // 5997 + 1000 + 2000 = 8997 over 3 quotes: mean 2999
    const { data } = await admin.client.rpc('quote_summary').single();
    // Grouped by currency, never added across: 5997 EUR; 1000 + 2000 USD (mean 1500). Most quotes first.
    expect(data).toEqual({
      total_count: 3,
      sent_count: 0,
      signed_count: 0,
      by_currency: [
        { currency: 'USD', count: 2, value: 3000, average: 1500 },
        { currency: 'EUR', count: 1, value: 5997, average: 5997 },
      ],
    });
    const other = await signUpFreshAdmin(backend, 'other-quoter');
    expect((await other.client.rpc('quote_summary').single()).data).toEqual({ total_count: 0, sent_count: 0, signed_count: 0, by_currency: [] });
  });
});

describe('the landing page facts', () => {
  it('are readable anonymously and hold only name, contact email and description', async () => {
    const { data, error } = await anonClient(backend).rpc('get_public_site_info').maybeSingle<Record<string, unknown>>();
    expect(error).toBeNull();
    expect(Object.keys(data!).sort()).toEqual(['contact_email', 'description', 'name']);
    const { data: first } = await serviceClient(backend).from('accounts').select('name, billing_email').order('created_at').order('id').limit(1).single();
    expect(data).toMatchObject({ name: first!.name, contact_email: first!.billing_email });
  });
});

describe('deactivation', () => {
  it('locks the user out: no sign-in, no refresh, and the old token reaches nothing', async () => {
    const member = await addMember(backend, admin, 'supplier', 'leaver');
    const { data: session } = await member.client.auth.getSession();
    const refreshToken = session.session!.refresh_token;
    const { data: row } = await serviceClient(backend).from('users').select('last_login_at').eq('id', member.userId).single();
    expect(row!.last_login_at).not.toBeNull();

    const off = await admin.client.from('users').update({ is_active: false }).eq('id', member.userId).select('is_active');
    expect(off.data).toEqual([{ is_active: false }]);

    await expect(signInAs(backend, member.email)).rejects.toThrow(/sign-in .* failed/);
    const refreshed = await anonClient(backend).auth.refreshSession({ refresh_token: refreshToken });
    expect(refreshed.error).not.toBeNull();
    // Deactivation ended their sessions: the old token, still validly signed, reads nothing.
    const { data: users } = await member.client.from('users').select('id');
    expect(users ?? []).toEqual([]);
    const { error } = await member.client.rpc('create_quote', quoteArgs(100, 1));
    expect(error?.message).toBe('User account not found');

    await admin.client.from('users').update({ is_active: true }).eq('id', member.userId);
    const back = await signInAs(backend, member.email, PASSWORD);
    expect(back.role).toBe('supplier');
  });
});
