// The analytics figures (issue 40, migration 20261204500001): the account's
// own numbers over a range in the account's timezone, per currency, for
// staff only. Values below are computed by hand from the rows inserted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, anonClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;
let other: Member;

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'analytics');
  other = await signUpFreshAdmin(backend, 'analytics-other');
  const db = backend.db;
  // Berlin: 31 March 23:30 Berlin is 31 March 21:30 UTC; 1 April 00:30 Berlin is 31 March 22:30 UTC.
  await db.query(`update public.accounts set timezone = 'Europe/Berlin' where id = $1`, [admin.accountId]);
  const lead = `insert into public.leads (account_id, name, email, company, source, status, created_at) values ($1, $2, $2 || '@l.test', 'Co', $3, $4, $5)`;
  await db.query(lead, [admin.accountId, 'march', 'website', 'new', '2026-03-31T21:30:00Z']);
  await db.query(lead, [admin.accountId, 'april1', 'referral', 'qualified', '2026-03-31T22:30:00Z']);
  await db.query(lead, [admin.accountId, 'april2', 'referral', 'new', '2026-04-10T10:00:00Z']);
  await db.query(lead, [other.accountId, 'theirs', 'website', 'new', '2026-04-10T10:00:00Z']);
  // Totals written as given: the invoice and payment triggers (totals from
  // items, balance checks) are not what this test is about.
  await db.query('set session_replication_role = replica');
  const invoice = `insert into public.invoices (account_id, client_name, client_email, currency, total, due_date, status, created_at)
                   values ($1, 'Client', 'c@c.test', $2, $3, '2026-05-01', $4, $5) returning id`;
  const usd = await db.query<{ id: string }>(invoice, [admin.accountId, 'USD', 10000, 'sent', '2026-04-02T10:00:00Z']);
  await db.query(invoice, [admin.accountId, 'EUR', 5000, 'overdue', '2026-04-03T10:00:00Z']);
  await db.query(invoice, [admin.accountId, 'USD', 7000, 'draft', '2026-04-03T10:00:00Z']);
  await db.query(invoice, [admin.accountId, 'USD', 99999, 'sent', '2026-03-31T21:00:00Z']);
  await db.query(invoice, [other.accountId, 'USD', 123, 'sent', '2026-04-03T10:00:00Z']);
  // Sent 4 April 10:00, paid 7 April 22:00 (UTC): 3.5 days to pay.
  await db.query(
    `insert into public.invoices (account_id, client_name, client_email, currency, total, due_date, status, created_at, sent_at, paid_at)
     values ($1, 'Client', 'c@c.test', 'USD', 2000, '2026-05-01', 'paid', '2026-04-04T10:00:00Z', '2026-04-04T10:00:00Z', '2026-04-07T22:00:00Z')`,
    [admin.accountId],
  );
  await db.query(`insert into public.payments (account_id, invoice_id, amount, paid_on) values ($1, $2, 2500, '2026-04-20')`, [
    admin.accountId,
    usd.rows[0].id,
  ]);
  const quote = `insert into public.quotes (account_id, currency, total, status, created_at, sent_at) values ($1, $2, $3, $4, $5, case when $4 = 'draft' then null else $5::timestamptz end)`;
  await db.query(quote, [admin.accountId, 'USD', 4000, 'signed', '2026-04-05T10:00:00Z']);
  await db.query(quote, [admin.accountId, 'USD', 6000, 'sent', '2026-04-06T10:00:00Z']);
  await db.query(quote, [admin.accountId, 'GBP', 3000, 'draft', '2026-04-06T10:00:00Z']);
  await db.query('reset session_replication_role');
  // With the triggers off the invoice rollups missed these rows: rebuild them
  // from the rows, as the triggers would have kept them.
  await db.query(`delete from private.invoice_totals where account_id = any($1)`, [[admin.accountId, other.accountId]]);
  await db.query(
    `insert into private.invoice_totals (account_id, currency, status, invoice_count, total_sum, paid_sum)
     select account_id, currency, status, count(*), sum(total), sum(amount_paid) from public.invoices
      where account_id = any($1) group by 1, 2, 3`,
    [[admin.accountId, other.accountId]],
  );
  await db.query(`select private.rebuild_analytics_money_rollups(id) from public.accounts where id = any($1)`, [[admin.accountId, other.accountId]]);
});
afterAll(async () => backend?.stop());

async function figures(member: Member, from = '2026-04-01', to = '2026-04-30') {
  return member.client.rpc('analytics_figures', { p_from: from, p_to: to });
}

describe('analytics_figures', () => {
  it('counts April in Berlin time, per currency, never summing currencies', async () => {
    const { data, error } = await figures(admin);
    expect(error).toBeNull();
    expect(data.leads).toEqual({ total: 2, by_source: { referral: 2 }, by_status: { new: 1, qualified: 1 } });
    expect(data.cash).toEqual([
      { currency: 'EUR', invoiced: 5000, invoices: 1, collected: 0, overdue: 5000, overdue_count: 1, days_to_pay: null },
      { currency: 'USD', invoiced: 12000, invoices: 2, collected: 2500, overdue: 0, overdue_count: 0, days_to_pay: 3.5 },
    ]);
    expect(data.sales).toEqual([
      { currency: 'GBP', quotes: 1, value: 3000, sent: 0, signed: 0, signed_value: 0, pipeline_value: 0 },
      { currency: 'USD', quotes: 2, value: 10000, sent: 2, signed: 1, signed_value: 4000, pipeline_value: 6000 },
    ]);
    // March (Berlin) holds the 23:30 lead and the 23:00 invoice.
    const march = (await figures(admin, '2026-03-01', '2026-03-31')).data;
    expect(march.leads.total).toBe(1);
    expect(march.cash.find((c: { currency: string }) => c.currency === 'USD').invoiced).toBe(99999);
  });

  it('reads the same for a member and an auditor, and nothing for anon', async () => {
    const member = await addMember(backend, admin, 'member');
    const auditor = await addMember(backend, admin, 'auditor');
    const mine = (await figures(admin)).data;
    expect((await figures(member)).data).toEqual(mine);
    expect((await figures(auditor)).data).toEqual(mine);
    expect((await anonClient(backend).rpc('analytics_figures', { p_from: '2026-04-01', p_to: '2026-04-30' })).data).toBeNull();
  });

  it('gives another account only its own figures', async () => {
    const { data } = await figures(other);
    expect(data.leads.total).toBe(1);
    expect(data.cash).toEqual([{ currency: 'USD', invoiced: 123, invoices: 1, collected: 0, overdue: 0, overdue_count: 0, days_to_pay: null }]);
    expect(data.sales).toEqual([]);
  });

  it('refuses a range that ends before it starts', async () => {
    const { error } = await figures(admin, '2026-04-30', '2026-04-01');
    expect(error?.message).toMatch(/end on or after/);
  });
});

describe('analytics_page', () => {
  it('gives the custom range and the equal period before it', async () => {
    const { data, error } = await admin.client.rpc('analytics_page', { p_range: 'custom', p_from: '2026-04-01', p_to: '2026-04-30' });
    expect(error).toBeNull();
    expect(data.current.from).toBe('2026-04-01');
    expect(data.previous).toMatchObject({ from: '2026-03-02', to: '2026-03-31' });
    expect(data.previous.leads.total).toBe(1);
  });

  it('resolves presets against today and refuses unknown ones', async () => {
    const { data } = await admin.client.rpc('analytics_page', { p_range: 'last_7_days' });
    const days = (Date.parse(data.current.to) - Date.parse(data.current.from)) / 86_400_000;
    expect(days).toBe(6);
    const quarter = (await admin.client.rpc('analytics_page', { p_range: 'last_quarter' })).data;
    expect(quarter.current.from.slice(5)).toMatch(/^(01|04|07|10)-01$/);
    expect((await admin.client.rpc('analytics_page', { p_range: 'forever' })).error?.message).toMatch(/unknown range/);
  });
});
