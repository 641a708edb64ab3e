// Monthly Goals (20261205500004): accounts.analytics_goals, written by the
// account's admin only (the accounts update policy and a column grant),
// checked by a trigger, and answered by analytics_page with this calendar
// month's figures so far, computed by hand below.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;
let other: Member;

const GOALS = { revenue: { USD: 500000, EUR: 100000 }, new_leads: 4, signed_quotes: 2 };

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'goals');
  other = await signUpFreshAdmin(backend, 'goals-other');
});
afterAll(async () => backend?.stop());

async function goalsOf(accountId: string) {
  return (await backend.db.query<{ analytics_goals: unknown }>(`select analytics_goals from public.accounts where id = $1`, [accountId])).rows[0].analytics_goals;
}

describe('monthly goals', () => {
  it('are written by the admin only, for their own account', async () => {
    const saved = await admin.client.from('accounts').update({ analytics_goals: GOALS }).eq('id', admin.accountId).select('id');
    expect(saved.error).toBeNull();
    expect(await goalsOf(admin.accountId)).toEqual(GOALS);
    for (const role of ['member', 'auditor'] as const) {
      const someone = await addMember(backend, admin, role);
      const tried = await someone.client.from('accounts').update({ analytics_goals: { new_leads: 1 } }).eq('id', admin.accountId).select('id');
      expect(tried.data ?? []).toEqual([]);
    }
    const theirs = await other.client.from('accounts').update({ analytics_goals: { new_leads: 1 } }).eq('id', admin.accountId).select('id');
    expect(theirs.data ?? []).toEqual([]);
    expect(await goalsOf(admin.accountId)).toEqual(GOALS);
  });

  it('refuse a wrong shape: unknown goals, fractions, zero, an unknown currency', async () => {
    for (const wrong of [{ profit: 1 }, { new_leads: 1.5 }, { new_clients: 0 }, { revenue: { JPY: 100 } }, { revenue: 5 }, []]) {
      const { error } = await admin.client.from('accounts').update({ analytics_goals: wrong }).eq('id', admin.accountId).select('id');
      expect(error, JSON.stringify(wrong)).not.toBeNull();
    }
    expect(await goalsOf(admin.accountId)).toEqual(GOALS);
  });

  it('come with this month so far on analytics_page, per currency', async () => {
    const db = backend.db;
    await db.query(`update public.accounts set timezone = 'UTC' where id = $1`, [admin.accountId]);
    const today = (await db.query<{ d: string }>(`select to_char(now() at time zone 'UTC', 'YYYY-MM-DD') as d`)).rows[0].d;
    const monthStart = `${today.slice(0, 8)}01`;
    // This month: 2 leads, a USD invoice paid 1,250.00 and a EUR one paid 300.00, one signed quote; last month: 1 lead.
    const lead = `insert into public.leads (account_id, name, email, company, source, status, created_at) values ($1, $2, $2 || '@l.test', 'Co', 'website', 'new', $3)`;
    await db.query(lead, [admin.accountId, 'now1', `${monthStart}T00:30:00Z`]);
    await db.query(lead, [admin.accountId, 'now2', new Date().toISOString()]);
    await db.query(lead, [admin.accountId, 'before', new Date(Date.parse(`${monthStart}T00:00:00Z`) - 3600_000).toISOString()]);
    for (const [currency, cents] of [['USD', 125000], ['EUR', 30000]] as const) {
      const inv = await db.query<{ id: string }>(
        `insert into public.invoices (account_id, client_name, client_email, currency, due_date) values ($1, 'C', 'c@c.test', $2, $3) returning id`,
        [admin.accountId, currency, today],
      );
      await db.query(`insert into public.invoice_items (invoice_id, description, qty, unit_price, total) values ($1, 'Work', 1, $2, $2)`, [inv.rows[0].id, cents * 2]);
      await db.query(`update public.invoices set status = 'sent', sent_at = $2 where id = $1`, [inv.rows[0].id, `${monthStart}T00:00:00Z`]);
      await db.query(`insert into public.payments (account_id, invoice_id, amount, paid_on) values ($1, $2, $3, $4)`, [admin.accountId, inv.rows[0].id, cents, monthStart]);
    }
    await db.query(`insert into public.quotes (account_id, currency, total, status, created_at, sent_at) values ($1, 'USD', 900, 'signed', now(), now())`, [admin.accountId]);
    const { data, error } = await admin.client.rpc('analytics_page', { p_range: 'last_30_days' });
    expect(error).toBeNull();
    expect(data.goals).toEqual({
      targets: GOALS,
      month_from: monthStart,
      month_to: today,
      actual: { revenue: { EUR: 30000, USD: 125000 }, new_leads: 2, new_clients: 0, signed_quotes: 1 },
    });
    // An account without goals reads no month figures.
    const theirs = (await other.client.rpc('analytics_page', { p_range: 'last_30_days' })).data;
    expect(theirs.goals).toMatchObject({ targets: {}, actual: null });
  });
});
