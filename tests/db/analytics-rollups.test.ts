// The per-day rollups behind the analytics counts (20261204510001): each is
// held to a recount of the rows after inserts with old dates, updates that
// move a row between keys and days, and deletes; and analytics_activity,
// which reads whole UTC days from them and the edges from the rows, equals a
// plain count over ranges that start and end mid-day in a non-UTC timezone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;
let other: Member;

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'rollups');
  other = await signUpFreshAdmin(backend, 'rollups-other');
});
afterAll(async () => backend?.stop());

const sources = ['website', 'referral', 'linkedin'];
const statuses = ['new', 'qualified', 'lost'];

async function seed(accountId: string, n: number) {
  const db = backend.db;
  for (let i = 0; i < n; i++) {
    // Spread over 2024..2026, at hours that fall on either side of midnights.
    const at = new Date(Date.UTC(2024, 0, 1) + i * 7.3 * 3600_000 * 3).toISOString();
    await db.query(
      `insert into public.leads (account_id, name, email, company, source, status, created_at) values ($1, $2, $2 || '@l.test', 'Co', $3, $4, $5)`,
      [accountId, `l${i}`, sources[i % 3], statuses[i % 3], at],
    );
    const c = await db.query<{ id: string }>(
      `insert into public.contacts (account_id, name, email, created_at) values ($1, $2, $2 || '@c.test', $3) returning id`,
      [accountId, `c${i}`, at],
    );
    if (i % 2 === 0) {
      await db.query(`insert into public.conversations (account_id, contact_id, subject, created_at) values ($1, $2, 'Hi', $3)`, [
        accountId,
        c.rows[0].id,
        at,
      ]);
    }
  }
}

async function recountDiffers(): Promise<number> {
  const { rows } = await backend.db.query<{ n: number }>(`
    select (select count(*) from (
              select account_id, day, source, status, sum(n) as n from (
                select account_id, (created_at at time zone 'UTC')::date as day, source, status, count(*) as n from public.leads group by 1, 2, 3, 4
                union all
                select account_id, day, source, status, -lead_count from private.lead_day_stats) x
              group by 1, 2, 3, 4 having sum(n) <> 0) d)
         + (select count(*) from (
              select account_id, day, sum(n) from (
                select account_id, (created_at at time zone 'UTC')::date as day, count(*) as n from public.contacts group by 1, 2
                union all
                select account_id, day, -contact_count from private.contact_day_stats) x
              group by 1, 2 having sum(n) <> 0) d)
         + (select count(*) from (
              select account_id, day, sum(n) from (
                select account_id, (created_at at time zone 'UTC')::date as day, count(*) as n from public.conversations group by 1, 2
                union all
                select account_id, day, -conversation_count from private.conversation_day_stats) x
              group by 1, 2 having sum(n) <> 0) d) as n`);
  return Number(rows[0].n);
}

describe('per-day analytics rollups', () => {
  it('match a recount after inserts with old dates, updates and deletes', async () => {
    await seed(admin.accountId, 120);
    await seed(other.accountId, 30);
    expect(await recountDiffers()).toBe(0);
    const db = backend.db;
    await db.query(`update public.leads set status = 'qualified', source = 'event' where account_id = $1 and name like 'l1%'`, [admin.accountId]);
    await db.query(`update public.leads set created_at = created_at - interval '13 hours' where account_id = $1 and name like 'l2%'`, [
      admin.accountId,
    ]);
    await db.query(`update public.contacts set created_at = created_at + interval '30 days' where account_id = $1 and name like 'c3%'`, [
      admin.accountId,
    ]);
    await db.query(`update public.conversations set created_at = created_at - interval '5 hours' where account_id = $1`, [admin.accountId]);
    await db.query(`delete from public.conversations where account_id = $1 and created_at < '2024-06-01'`, [admin.accountId]);
    await db.query(`delete from public.leads where account_id = $1 and name like 'l4%'`, [admin.accountId]);
    expect(await recountDiffers()).toBe(0);
  });

  it('reads ranges in the account timezone as a plain count would', async () => {
    const db = backend.db;
    await db.query(`update public.accounts set timezone = 'America/Los_Angeles' where id = $1`, [admin.accountId]);
    const ranges: [string, string][] = [
      ['2024-01-01', '2024-12-31'],
      ['2024-02-28', '2024-03-01'],
      ['2024-03-10', '2024-03-10'],
      ['2024-10-31', '2024-11-04'],
      ['2023-01-01', '2026-12-31'],
    ];
    for (const [from, to] of ranges) {
      const { data, error } = await admin.client.rpc('analytics_figures', { p_from: from, p_to: to });
      expect(error).toBeNull();
      const bounds = `($2::date)::timestamp at time zone 'America/Los_Angeles' and created_at < ($3::date + 1)::timestamp at time zone 'America/Los_Angeles'`;
      const count = async (table: string) =>
        Number(
          (await db.query<{ n: string }>(`select count(*) as n from public.${table} where account_id = $1 and created_at >= ${bounds}`, [admin.accountId, from, to]))
            .rows[0].n,
        );
      const byStatus = await db.query<{ status: string; n: string }>(
        `select status, count(*) as n from public.leads where account_id = $1 and created_at >= ${bounds} group by 1`,
        [admin.accountId, from, to],
      );
      expect(data.leads.total, `${from}..${to}`).toBe(await count('leads'));
      expect(data.leads.by_status).toEqual(Object.fromEntries(byStatus.rows.map((r) => [r.status, Number(r.n)])));
      expect(data.clients.new_clients, `${from}..${to}`).toBe(await count('contacts'));
      expect(data.helpdesk.conversations, `${from}..${to}`).toBe(await count('conversations'));
    }
  });

  it('gives the rollups to no one but staff, for their own account', async () => {
    const { error } = await anonClient(backend).rpc('analytics_activity', {
      p_start: '2024-01-01T00:00:00Z',
      p_end: '2025-01-01T00:00:00Z',
    });
    expect(error).not.toBeNull();
    const { data } = await other.client.rpc('analytics_activity', { p_start: '2023-01-01T00:00:00Z', p_end: '2027-01-01T00:00:00Z' });
    expect(data.leads.total).toBe(30);
    const direct = await admin.client.schema('private' as never).from('lead_day_stats').select('*');
    expect(direct.data ?? []).toEqual([]);
  });

  it('reads overdue now from the invoice totals, per currency', async () => {
    const db = backend.db;
    const inv = `insert into public.invoices (account_id, client_name, client_email, currency, due_date)
                 values ($1, 'Client', 'c@c.test', $2, '2026-01-01') returning id`;
    const a = (await db.query<{ id: string }>(inv, [admin.accountId, 'EUR'])).rows[0].id;
    await db.query(`insert into public.invoice_items (invoice_id, description, qty, unit_price, total) values ($1, 'Work', 2, 150, 300)`, [a]);
    await db.query(`update public.invoices set status = 'overdue' where id = $1`, [a]);
    const { data } = await admin.client.rpc('analytics_activity', { p_start: '2026-01-01T00:00:00Z', p_end: '2026-01-02T00:00:00Z' });
    const recount = await db.query<{ total: string; paid: string }>(
      `select sum(total) as total, sum(amount_paid) as paid from public.invoices where account_id = $1 and status = 'overdue' and currency = 'EUR'`,
      [admin.accountId],
    );
    expect(Number(recount.rows[0].total)).toBeGreaterThan(0);
    expect(data.overdue).toEqual([
      { currency: 'EUR', overdue_count: 1, overdue: Number(recount.rows[0].total) - Number(recount.rows[0].paid) },
    ]);
  });
});
