// The per-day rollups behind the analytics counts (20261204510001): each is
// held to a recount of the rows after inserts with old dates, updates that
// move a row between keys and days, and deletes; and analytics_activity,
// which reads whole UTC days from them and the edges from the rows, equals a
// plain count over ranges that start and end mid-day in a non-UTC timezone.
// The money rollups (20261205500001: invoiced, days to pay, collected, sales)
// are held the same way.
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
    expect(await monthsDiffer()).toBe(0);
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
    expect(await monthsDiffer()).toBe(0);
  });

  it('reads ranges in the account timezone as a plain count would', async () => {
    const db = backend.db;
    await db.query(`update public.accounts set timezone = 'America/Los_Angeles' where id = $1`, [admin.accountId]);
    const ranges: [string, string][] = [
      ['2024-01-01', '2024-12-31'],
      ['2024-02-28', '2024-03-01'],
      ['2024-03-10', '2024-03-10'],
      ['2024-10-31', '2024-11-04'],
      ['2024-01-15', '2024-04-10'],
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

  it('keeps the money rollups equal to a recount, and the money figures equal to a plain sum', async () => {
    const db = backend.db;
    const currencies = ['USD', 'EUR', 'GBP'];
    for (const account of [admin.accountId, other.accountId]) {
      for (let i = 0; i < 48; i++) {
        const at = new Date(Date.UTC(2024, 0, 1) + i * 5.7 * 3600_000 * 7).toISOString();
        const currency = currencies[i % 3];
        const inv = await db.query<{ id: string }>(
          `insert into public.invoices (account_id, client_name, client_email, currency, due_date, created_at)
           values ($1, 'Client', 'c@c.test', $2, '2026-01-01', $3) returning id`,
          [account, currency, at],
        );
        const id = inv.rows[0].id;
        await db.query(`insert into public.invoice_items (invoice_id, description, qty, unit_price, total) values ($1, 'Work', 1, $2, $2)`, [id, 1000 + i]);
        if (i % 4 !== 0) {
          await db.query(`update public.invoices set status = 'sent', sent_at = $2::timestamptz + interval '3 hours' where id = $1`, [id, at]);
        }
        if (i % 4 === 1) {
          // Paid in full: the invoice becomes paid and gets its paid_at.
          await db.query(`insert into public.payments (account_id, invoice_id, amount, paid_on) values ($1, $2, $3, ($4::timestamptz)::date + 5)`, [
            account,
            id,
            1000 + i,
            at,
          ]);
        } else if (i % 4 === 2) {
          await db.query(`insert into public.payments (account_id, invoice_id, amount, paid_on) values ($1, $2, 400, ($3::timestamptz)::date + 2)`, [account, id, at]);
        }
        if (i % 8 === 3) await db.query(`update public.invoices set status = 'void' where id = $1`, [id]);
        await db.query(
          `insert into public.quotes (account_id, currency, total, status, created_at, sent_at)
           values ($1, $2, $3, $4, $5, case when $4 = 'draft' then null else $5::timestamptz + interval '1 hour' end)`,
          [account, currency, 500 + i, ['draft', 'sent', 'viewed', 'signed', 'expired'][i % 5], at],
        );
      }
    }
    expect(await moneyRecountDiffers()).toBe(0);
    // Updates that move rows between days, currencies and states; deletes
    // of invoices with their payments, of quotes and of payments.
    await db.query(`update public.invoices set created_at = created_at - interval '20 hours' where account_id = $1 and total % 3 = 0`, [admin.accountId]);
    await db.query(`update public.invoices set currency = 'EUR' where account_id = $1 and currency = 'GBP' and total % 2 = 0`, [admin.accountId]);
    await db.query(`update public.invoices set paid_at = paid_at + interval '2 days' where account_id = $1 and paid_at is not null and total % 2 = 1`, [admin.accountId]);
    await db.query(`update public.quotes set status = 'signed', total = total + 7 where account_id = $1 and status = 'viewed'`, [admin.accountId]);
    await db.query(`update public.quotes set sent_at = null, created_at = created_at + interval '9 hours' where account_id = $1 and status = 'expired'`, [admin.accountId]);
    await db.query(`delete from public.payments where account_id = $1 and amount = 400 and paid_on < '2024-09-01'`, [admin.accountId]);
    await db.query(`delete from public.invoices where account_id = $1 and total % 5 = 0`, [admin.accountId]);
    await db.query(`delete from public.quotes where account_id = $1 and total % 4 = 0`, [admin.accountId]);
    expect(await moneyRecountDiffers()).toBe(0);
    expect(await monthsDiffer()).toBe(0);

    await db.query(`update public.accounts set timezone = 'America/Los_Angeles' where id = $1`, [admin.accountId]);
    for (const [from, to] of [
      ['2024-01-01', '2024-12-31'],
      ['2024-02-28', '2024-03-01'],
      ['2024-05-31', '2024-06-01'],
      ['2024-01-15', '2024-04-10'],
      ['2024-02-01', '2024-02-29'],
      ['2023-01-01', '2026-12-31'],
    ]) {
      const { data, error } = await admin.client.rpc('analytics_figures', { p_from: from, p_to: to });
      expect(error).toBeNull();
      const bounds = `created_at >= ($2::date)::timestamp at time zone 'America/Los_Angeles' and created_at < ($3::date + 1)::timestamp at time zone 'America/Los_Angeles'`;
      const invoiced = await db.query<{ currency: string; invoices: string; invoiced: string; days: string | null }>(
        `select currency, count(*) as invoices, sum(total) as invoiced,
                round(avg(extract(epoch from paid_at - sent_at) / 86400) filter (where paid_at is not null and sent_at is not null), 1) as days
           from public.invoices where account_id = $1 and status not in ('draft', 'void') and ${bounds} group by 1`,
        [admin.accountId, from, to],
      );
      const collected = await db.query<{ currency: string; amount: string }>(
        `select i.currency, sum(p.amount) as amount from public.payments p join public.invoices i on i.id = p.invoice_id
          where p.account_id = $1 and p.paid_on between $2 and $3 group by 1`,
        [admin.accountId, from, to],
      );
      type Cash = { currency: string; invoiced: number; invoices: number; collected: number; days_to_pay: number | null };
      for (const row of invoiced.rows) {
        const cash = (data.cash as Cash[]).find((c) => c.currency === row.currency);
        expect(cash, `${from}..${to} ${row.currency}`).toMatchObject({
          invoices: Number(row.invoices),
          invoiced: Number(row.invoiced),
          days_to_pay: row.days === null ? null : Number(row.days),
        });
      }
      expect((data.cash as Cash[]).filter((c) => c.invoices > 0).length).toBe(invoiced.rows.length);
      for (const row of collected.rows) {
        expect((data.cash as Cash[]).find((c) => c.currency === row.currency)?.collected, `${from}..${to}`).toBe(Number(row.amount));
      }
      const sales = await db.query(
        `select currency, count(*)::int as quotes, sum(total)::int as value, count(*) filter (where sent_at is not null)::int as sent,
                count(*) filter (where status = 'signed')::int as signed,
                coalesce(sum(total) filter (where status = 'signed'), 0)::int as signed_value,
                coalesce(sum(total) filter (where status in ('sent', 'viewed')), 0)::int as pipeline_value
           from public.quotes where account_id = $1 and ${bounds} group by 1 order by 1`,
        [admin.accountId, from, to],
      );
      expect(data.sales, `${from}..${to}`).toEqual(sales.rows);
    }
  });
});

async function moneyRecountDiffers(): Promise<number> {
  const { rows } = await backend.db.query<{ n: number }>(`
    select (select count(*) from (
              select account_id, day, currency, sum(n), sum(t), sum(pn), sum(ps) from (
                select account_id, (created_at at time zone 'UTC')::date as day, currency, count(*) as n, sum(total) as t,
                       count(*) filter (where paid_at is not null and sent_at is not null) as pn,
                       coalesce(sum(extract(epoch from paid_at - sent_at)), 0) as ps
                  from public.invoices where status not in ('draft', 'void') group by 1, 2, 3
                union all
                select account_id, day, currency, -invoice_count, -total_sum, -paid_count, -pay_seconds from private.invoice_day_stats) x
              group by 1, 2, 3 having sum(n) <> 0 or sum(t) <> 0 or sum(pn) <> 0 or sum(ps) <> 0) d)
         + (select count(*) from (
              select account_id, day, currency, status, sent, sum(n), sum(t) from (
                select account_id, (created_at at time zone 'UTC')::date as day, currency, status, sent_at is not null as sent,
                       count(*) as n, sum(total) as t from public.quotes group by 1, 2, 3, 4, 5
                union all
                select account_id, day, currency, status, sent, -quote_count, -total_sum from private.quote_day_stats) x
              group by 1, 2, 3, 4, 5 having sum(n) <> 0 or sum(t) <> 0) d)
         + (select count(*) from (
              select account_id, day, currency, sum(a) from (
                select p.account_id, p.paid_on as day, i.currency, sum(p.amount) as a
                  from public.payments p join public.invoices i on i.id = p.invoice_id group by 1, 2, 3
                union all
                select account_id, day, currency, -amount_sum from private.payment_day_stats) x
              group by 1, 2, 3 having sum(a) <> 0) d) as n`);
  return Number(rows[0].n);
}

/** Rows where a month rollup (20261205500005) differs from the sum of its day rollup's days. */
async function monthsDiffer(): Promise<number> {
  const pairs: [day: string, month: string, keys: string, values: string[]][] = [
    ['lead_day_stats', 'lead_month_stats', 'source, status', ['lead_count']],
    ['contact_day_stats', 'contact_month_stats', '', ['contact_count']],
    ['conversation_day_stats', 'conversation_month_stats', '', ['conversation_count']],
    ['invoice_day_stats', 'invoice_month_stats', 'currency', ['invoice_count', 'total_sum', 'paid_count', 'pay_seconds']],
    ['quote_day_stats', 'quote_month_stats', 'currency, status, sent', ['quote_count', 'total_sum']],
    ['payment_day_stats', 'payment_month_stats', 'currency', ['amount_sum']],
  ];
  let differing = 0;
  for (const [day, month, keys, values] of pairs) {
    const k = keys ? `, ${keys}` : '';
    const sums = values.map((v) => `sum(${v}) as ${v}`).join(', ');
    const negated = values.map((v) => `-${v}`).join(', ');
    const nonzero = values.map((v) => `sum(${v}) <> 0`).join(' or ');
    const { rows } = await backend.db.query<{ n: string }>(`
      select count(*) as n from (
        select account_id, m${k}, ${sums} from (
          select account_id, date_trunc('month', day)::date as m${k}, ${values.join(', ')} from private.${day}
          union all
          select account_id, month${k}, ${negated} from private.${month}) x
        group by 1, 2${keys ? `, ${keys}` : ''} having ${nonzero}) d`);
    differing += Number(rows[0].n);
  }
  return differing;
}
