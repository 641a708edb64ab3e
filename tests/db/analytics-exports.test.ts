// Queued report exports (decision 081): the Export Report dialog queues
// analytics.export_report with the payload agreed with automations, for the
// account's staff only, once per double submission, at most five waiting;
// the job reads the figures as the recipient through analytics_page_for_user,
// which only the service role may call and only for a staff member of the
// job's account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;
let other: Member;

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'exports');
  other = await signUpFreshAdmin(backend, 'exports-other');
  await backend.db.query(
    `insert into public.leads (account_id, name, email, company, source, status, created_at) values ($1, 'A', 'a@l.test', 'Co', 'website', 'new', '2026-04-02T12:00:00Z')`,
    [admin.accountId],
  );
});
afterAll(async () => backend?.stop());

const ARGS = {
  p_report_type: 'leads',
  p_format: 'xlsx',
  p_date_range: 'custom',
  p_from: '2026-04-01',
  p_to: '2026-04-30',
  p_include_charts: true,
  p_include_summary: false,
};

async function exportJobs(accountId: string) {
  const { rows } = await backend.db.query<{ payload: Record<string, unknown>; subject_id: string }>(
    `select payload, subject_id from public.jobs where account_id = $1 and kind = 'analytics.export_report' order by created_at`,
    [accountId],
  );
  return rows;
}

describe('queue_report_export', () => {
  it('queues the contract payload for staff, once for a double submission', async () => {
    const first = await admin.client.rpc('queue_report_export', ARGS);
    expect(first.error).toBeNull();
    const again = await admin.client.rpc('queue_report_export', ARGS);
    expect(again.error).toBeNull();
    const jobs = await exportJobs(admin.accountId);
    expect(jobs).toHaveLength(1);
    expect(jobs[0].payload).toEqual({
      report_type: 'leads',
      format: 'xlsx',
      date_range: 'custom',
      from: '2026-04-01',
      to: '2026-04-30',
      include_charts: true,
      include_summary: false,
      recipient_user_id: admin.userId,
    });
    // A preset carries no dates.
    const auditor = await addMember(backend, admin, 'auditor');
    expect((await auditor.client.rpc('queue_report_export', { ...ARGS, p_date_range: 'last_year', p_from: null, p_to: null })).error).toBeNull();
    const preset = (await exportJobs(admin.accountId)).at(-1)!;
    expect(preset.payload).toMatchObject({ date_range: 'last_year', from: null, to: null, recipient_user_id: auditor.userId });
  });

  it('refuses clients, anonymous callers and wrong values, and more than five waiting', async () => {
    const client = await addMember(backend, admin, 'client');
    expect((await client.client.rpc('queue_report_export', ARGS)).error?.message).toMatch(/team/);
    expect((await anonClient(backend).rpc('queue_report_export', ARGS)).error).not.toBeNull();
    expect((await admin.client.rpc('queue_report_export', { ...ARGS, p_format: 'html' })).error?.message).toBe('Choose a format');
    expect((await admin.client.rpc('queue_report_export', { ...ARGS, p_to: '2026-03-01' })).error?.message).toMatch(/start and an end date/);
    for (const month of ['05', '06', '07']) {
      expect((await admin.client.rpc('queue_report_export', { ...ARGS, p_from: `2026-${month}-01`, p_to: `2026-${month}-28` })).error).toBeNull();
    }
    const sixth = await admin.client.rpc('queue_report_export', { ...ARGS, p_from: '2026-08-01', p_to: '2026-08-28' });
    expect(sixth.error?.message).toMatch(/Five reports are being prepared already/);
    expect(await exportJobs(other.accountId)).toEqual([]);
  });
});

describe('analytics_page_for_user', () => {
  const args = (userId: string, accountId = admin.accountId) => ({
    p_account_id: accountId,
    p_user_id: userId,
    p_range: 'custom',
    p_from: '2026-04-01',
    p_to: '2026-04-30',
  });

  it('gives the service role the figures as the recipient reads them', async () => {
    const { data, error } = await serviceClient(backend).rpc('analytics_page_for_user', args(admin.userId));
    expect(error).toBeNull();
    expect(data.current.leads.total).toBe(1);
  });

  it('refuses anyone but the service role, and a recipient outside the account', async () => {
    expect((await admin.client.rpc('analytics_page_for_user', args(admin.userId))).error).not.toBeNull();
    const wrong = await serviceClient(backend).rpc('analytics_page_for_user', args(other.userId));
    expect(wrong.error?.message).toMatch(/not on the account's team/);
    const client = (await backend.db.query<{ id: string }>(`select id from public.users where account_id = $1 and role = 'client'`, [admin.accountId])).rows[0];
    if (client) expect((await serviceClient(backend).rpc('analytics_page_for_user', args(client.id))).error).not.toBeNull();
  });
});

// The dialog's post in one call (20261206300002): the range resolved as
// analytics_page does, the report's rows counted as the caller, the job queued
// only above the direct-download limit.
describe('analytics_export_request', () => {
  const REQUEST = { ...ARGS, p_report_type: 'comprehensive', p_format: 'csv', p_from: '2026-09-01', p_to: '2026-09-30', p_direct_rows: 3 };

  it("counts the report's rows in the range by hand, and queues the job only above the limit", async () => {
    const fresh = await signUpFreshAdmin(backend, 'export-request');
    const id = fresh.accountId;
    await backend.db.query(`update public.accounts set timezone = 'America/New_York' where id = $1`, [id]);
    // Two leads in September in New York (one at 03:30 UTC on 1 October, still 30 September there), one in October.
    await backend.db.query(
      `insert into public.leads (account_id, name, email, company, created_at) values
         ($1, 'a', 'a@l.test', 'Co', '2026-09-10T12:00:00Z'), ($1, 'b', 'b@l.test', 'Co', '2026-10-01T03:30:00Z'),
         ($1, 'c', 'c@l.test', 'Co', '2026-10-01T04:30:00Z')`,
      [id],
    );
    await backend.db.query(`insert into public.contacts (account_id, name, email, created_at) values ($1, 'C', 'c@c.test', '2026-09-20T12:00:00Z')`, [id]);
    const leads = await fresh.client.rpc('analytics_export_request', { ...REQUEST, p_report_type: 'leads' });
    expect(leads.error).toBeNull();
    expect(leads.data).toEqual({ from: '2026-09-01', to: '2026-09-30', timezone: 'America/New_York', rows: 2, queued_job_id: null });
    const clients = await fresh.client.rpc('analytics_export_request', { ...REQUEST, p_report_type: 'clients' });
    expect(clients.data.rows).toBe(1);
    // Comprehensive: 2 leads + 1 client (no quotes or invoices) = 3, not above 3; above 2 it is queued.
    const atLimit = await fresh.client.rpc('analytics_export_request', REQUEST);
    expect(atLimit.data).toMatchObject({ rows: 3, queued_job_id: null });
    expect(await exportJobs(id)).toEqual([]);
    // Over the format's most as well (a PDF's): counted, nothing queued.
    const overMost = await fresh.client.rpc('analytics_export_request', { ...REQUEST, p_format: 'pdf', p_direct_rows: 1, p_max_rows: 2 });
    expect(overMost.data).toMatchObject({ rows: 3, queued_job_id: null });
    expect(await exportJobs(id)).toEqual([]);
    const over = await fresh.client.rpc('analytics_export_request', { ...REQUEST, p_direct_rows: 2, p_max_rows: 3 });
    expect(over.error).toBeNull();
    const jobs = await exportJobs(id);
    expect(jobs).toHaveLength(1);
    expect(over.data.queued_job_id).toEqual(expect.any(String));
    expect(jobs[0].payload).toMatchObject({ report_type: 'comprehensive', format: 'csv', from: '2026-09-01', to: '2026-09-30' });
    // Another account counts only its own rows.
    expect((await other.client.rpc('analytics_export_request', { ...REQUEST, p_report_type: 'leads' })).data.rows).toBe(0);
  });

  it('refuses clients, anonymous callers, a wrong range and a wrong limit', async () => {
    const client = (await backend.db.query(`select 1 from public.users where account_id = $1 and role = 'client'`, [admin.accountId])).rows.length
      ? undefined
      : await addMember(backend, admin, 'client', 'client-export');
    if (client) expect((await client.client.rpc('analytics_export_request', REQUEST)).error?.message).toMatch(/team/);
    expect((await anonClient(backend).rpc('analytics_export_request', REQUEST)).error).not.toBeNull();
    expect((await admin.client.rpc('analytics_export_request', { ...REQUEST, p_to: '2026-08-01' })).error?.message).toMatch(/start and an end date/);
    expect((await admin.client.rpc('analytics_export_request', { ...REQUEST, p_date_range: 'forever' })).error?.message).toBe('Choose a date range');
    expect((await admin.client.rpc('analytics_export_request', { ...REQUEST, p_direct_rows: 0 })).error?.code).toBe('22023');
  });
});
