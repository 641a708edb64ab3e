// The lead figures' rollup (migration 20261129100003): the leads screen's
// cards and the dashboard's lead counts read lead_stats, kept by statement
// triggers on leads, instead of counting every lead on every view. The
// figures must stay what counting would say through inserts, status
// changes, deletes and leads of other months.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'lead-stats');
});
afterAll(async () => backend?.stop());

interface LeadSummary {
  total_count: number;
  new_this_week: number;
  qualified_count: number;
  conversion_rate: number;
  status_counts: Record<string, number>;
}

async function summary() {
  const { data, error } = await admin.client.rpc('lead_summary').single<LeadSummary>();
  if (error) throw error;
  return { total: Number(data.total_count), week: Number(data.new_this_week), qualified: Number(data.qualified_count), rate: Number(data.conversion_rate) };
}

/** lead_summary's count per status (the Leads list's total when filtered by one). */
async function byStatus() {
  const { data, error } = await admin.client.rpc('lead_summary').single<LeadSummary>();
  if (error) throw error;
  return data.status_counts;
}

async function dashboard() {
  const { data, error } = await admin.client.rpc('dashboard_overview');
  if (error) throw error;
  const overview = data as { active_leads: number; total_leads: number; this_month: { leads: number } };
  return { active: Number(overview.active_leads), total: Number(overview.total_leads), month: Number(overview.this_month.leads) };
}

/** What counting the account's leads says, as the database's owner. */
async function counted() {
  const { rows } = await backend.db.query<{ total: string; qualified: string; active: string }>(
    `select count(*) as total, count(*) filter (where status = 'qualified') as qualified, count(*) filter (where status <> 'lost') as active
       from public.leads where account_id = $1`,
    [admin.accountId],
  );
  const { rows: statuses } = await backend.db.query<{ status: string; n: string }>(
    'select status, count(*) as n from public.leads where account_id = $1 group by status',
    [admin.accountId],
  );
  const byStatus = Object.fromEntries(statuses.map((row) => [row.status, Number(row.n)]));
  return { total: Number(rows[0].total), qualified: Number(rows[0].qualified), active: Number(rows[0].active), byStatus };
}

describe('lead figures from the rollup', () => {
  it('follow inserts, status changes, deletes and leads of other months as counting would', async () => {
    expect(await summary()).toEqual({ total: 0, week: 0, qualified: 0, rate: 0 });
    expect(await byStatus()).toEqual({});

    const lead = (name: string, status = 'new') => ({ account_id: admin.accountId, name, email: `${name}@lead.test`, company: 'Co', status });
    const { data: inserted, error } = await admin.client
      .from('leads')
      .insert([lead('a'), lead('b'), lead('c'), lead('d', 'qualified'), lead('e', 'qualified')])
      .select('id, name');
    expect(error).toBeNull();
    expect(await summary()).toEqual({ total: 5, week: 5, qualified: 2, rate: 40 });
    expect(await dashboard()).toEqual({ active: 5, total: 5, month: 5 });

    const id = (name: string) => inserted!.find((row) => row.name === name)!.id;
    expect((await admin.client.from('leads').update({ status: 'qualified' }).eq('id', id('a'))).error).toBeNull();
    expect((await admin.client.from('leads').update({ status: 'lost' }).in('id', [id('b'), id('c')])).error).toBeNull();
    expect((await admin.client.from('leads').delete().eq('id', id('d'))).error).toBeNull();
    expect(await summary()).toEqual({ total: 4, week: 4, qualified: 2, rate: 50 });
    // No 'new' lead is left: the status is not listed, not listed at 0.
    expect(await byStatus()).toEqual({ qualified: 2, lost: 2 });
    expect(await dashboard()).toEqual({ active: 2, total: 4, month: 4 });

    // A lead of last year: in the totals, not in this week's or this month's.
    await backend.db.query(
      `insert into public.leads (account_id, name, email, company, status, created_at) values ($1, 'old', 'old@lead.test', 'Co', 'qualified', now() - interval '400 days')`,
      [admin.accountId],
    );
    expect(await summary()).toEqual({ total: 5, week: 4, qualified: 3, rate: 60 });
    expect(await dashboard()).toEqual({ active: 3, total: 5, month: 4 });
    // Moving a lead to another month moves its count.
    await backend.db.query(`update public.leads set created_at = now() - interval '400 days' where id = $1`, [id('e')]);
    expect(await dashboard()).toEqual({ active: 3, total: 5, month: 3 });

    const figures = await counted();
    expect(await summary()).toMatchObject({ total: figures.total, qualified: figures.qualified });
    expect(await byStatus()).toEqual(figures.byStatus);
    expect((await dashboard()).active).toBe(figures.active);
  });

  it('hold for every account, the demo data included, as the backfill and triggers left them', async () => {
    const { rows } = await backend.db.query<{ account_id: string; status: string; month: string; counted: string; rolled: string }>(
      `select coalesce(c.account_id, s.account_id) as account_id, coalesce(c.status, s.status) as status, coalesce(c.month, s.month)::text as month,
              coalesce(c.n, 0) as counted, coalesce(s.lead_count, 0) as rolled
         from (select account_id, status, date_trunc('month', created_at at time zone 'UTC')::date as month, count(*) as n
                 from public.leads group by 1, 2, 3) c
         full join public.lead_stats s on s.account_id = c.account_id and s.status = c.status and s.month = c.month
        where coalesce(c.n, 0) <> coalesce(s.lead_count, 0)`,
    );
    expect(rows).toEqual([]);
    const { rows: demo } = await backend.db.query<{ n: string }>(`select count(*) as n from public.lead_stats`);
    expect(Number(demo[0].n)).toBeGreaterThan(0);
  });
});
