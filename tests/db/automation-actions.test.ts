// Automations, decision 080: a failure that may pass is retried with backoff and
// the third is final ('Failed' with its error on the automation); Run now queues
// one run per idempotency key, performed by the runner's due-runs step;
// create_invoice writes a draft invoice for the accepted quote in the run's
// transaction (once per quote); generate_report queues the analytics export job
// of the contract (kind analytics.export_report, key automation:<run>); every
// event kind the migrations emit is a trigger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

type Run = { id: string; automation_id: string; status: string; error: string | null; attempts: number; next_attempt_at: string | null; output: Record<string, unknown> };

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;
let auditor: Member;
let member: Member;
let other: Member;

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'act-admin');
  auditor = await addMember(backend, admin, 'auditor', 'act-auditor');
  member = await addMember(backend, admin, 'member', 'act-member');
  other = await signUpFreshAdmin(backend, 'act-other');
});
afterAll(async () => backend?.stop());

const row = (who: Member, changes: Record<string, unknown> = {}) => ({
  account_id: who.accountId, name: `A ${randomBytes(3).toString('hex')}`, trigger_kind: 'lead_created', status: 'active',
  action_kind: 'assign_task', action_settings: { assignee_id: who.userId, title: 'Call {{name}}' }, ...changes,
});
async function create(who: Member, changes: Record<string, unknown> = {}): Promise<string> {
  const { data, error } = await who.client.from('automations').insert(row(who, changes)).select('id').single();
  if (error) throw new Error(error.message);
  return data.id as string;
}
async function runEvents(): Promise<Run[]> {
  const { data, error } = await service.rpc('run_automations', { p_limit: 1000 });
  if (error) throw new Error(error.message);
  return data as Run[];
}
async function runDue(): Promise<Run[]> {
  const { data, error } = await service.rpc('run_due_automation_runs', { p_limit: 1000 });
  if (error) throw new Error(error.message);
  return data as Run[];
}
const pause = (id: string) => backend.db.query(`update public.automations set status = 'paused' where id = $1`, [id]);
const lastError = async (id: string) =>
  (await backend.db.query<{ last_error: string | null }>('select last_error from public.automations where id = $1', [id])).rows[0].last_error;

describe('retries with backoff', () => {
  it('retries a passing failure after 1, then 4 minutes; the third failure is final and the automation shows its error', async () => {
    // A stand-in for a failure that may pass: the tasks table refuses for a while.
    await backend.db.query(`create table public.test_refuse_tasks (on_ boolean)`);
    await backend.db.query(`insert into public.test_refuse_tasks values (true)`);
    await backend.db.query(`create function public.test_refuse_task() returns trigger language plpgsql as $$
      begin if exists (select 1 from public.test_refuse_tasks) then raise exception 'tasks are busy' using errcode = '55P03'; end if; return new; end $$`);
    await backend.db.query(`create trigger test_refuse before insert on public.tasks for each row execute function public.test_refuse_task()`);
    try {
      const id = await create(admin);
      await admin.client.from('leads').insert({ account_id: admin.accountId, name: 'Retry', email: 'retry@lead.test', company: 'R' });
      const [first] = (await runEvents()).filter((r) => r.automation_id === id);
      expect(first).toMatchObject({ status: 'retrying', attempts: 1, error: 'tasks are busy' });
      const wait = (new Date(first.next_attempt_at!).getTime() - Date.now()) / 60_000;
      expect(wait).toBeGreaterThan(0.9);
      expect(wait).toBeLessThan(1.1);
      // Not due yet: nothing is taken; not 'Failed' yet.
      expect((await runDue()).filter((r) => r.automation_id === id)).toEqual([]);
      expect(await lastError(id)).toBeNull();
      // The test clock: its time has come.
      await backend.db.query(`update public.automation_runs set next_attempt_at = now() - interval '1 second' where id = $1`, [first.id]);
      const [second] = (await runDue()).filter((r) => r.automation_id === id);
      expect(second).toMatchObject({ status: 'retrying', attempts: 2 });
      const secondWait = (new Date(second.next_attempt_at!).getTime() - Date.now()) / 60_000;
      expect(secondWait).toBeGreaterThan(3.9);
      await backend.db.query(`update public.automation_runs set next_attempt_at = now() - interval '1 second' where id = $1`, [first.id]);
      const [third] = (await runDue()).filter((r) => r.automation_id === id);
      expect(third).toMatchObject({ status: 'failed', attempts: 3, error: 'tasks are busy', next_attempt_at: null });
      expect(await lastError(id)).toBe('tasks are busy');
      expect((await runDue()).filter((r) => r.automation_id === id)).toEqual([]);

      // A second automation succeeds on its retry: one task, the run succeeded.
      const healing = await create(admin);
      await admin.client.from('leads').insert({ account_id: admin.accountId, name: 'Heal', email: 'heal@lead.test', company: 'H' });
      const [pending] = (await runEvents()).filter((r) => r.automation_id === healing);
      expect(pending.status).toBe('retrying');
      await backend.db.query(`delete from public.test_refuse_tasks`);
      await backend.db.query(`update public.automation_runs set next_attempt_at = now() where id = $1`, [pending.id]);
      const [healed] = (await runDue()).filter((r) => r.automation_id === healing);
      expect(healed).toMatchObject({ status: 'succeeded', attempts: 2 });
      const { rows } = await backend.db.query('select title from public.tasks where automation_run_id = $1', [pending.id]);
      expect(rows).toEqual([{ title: 'Call Heal' }]);
      // Editing the failed automation clears its 'Failed'.
      await admin.client.from('automations').update({ name: 'Edited' }).eq('id', id);
      expect(await lastError(id)).toBe('tasks are busy');
      await admin.client.from('automations').update({ action_settings: { assignee_id: admin.userId, title: 'Phone {{name}}' } }).eq('id', id);
      expect(await lastError(id)).toBeNull();
      await pause(id);
      await pause(healing);
    } finally {
      await backend.db.query(`drop trigger test_refuse on public.tasks`);
      await backend.db.query(`drop function public.test_refuse_task()`);
      await backend.db.query(`drop table public.test_refuse_tasks`);
    }
  });

  it('a refusal (a missing variable) fails at once, with no retry', async () => {
    const { data: template } = await admin.client.from('templates')
      .insert({ account_id: admin.accountId, name: 'Broken', type: 'email', subject: 'Hi', content: 'Order {{order_number}}' }).select('id').single();
    const id = await create(admin, { action_kind: 'send_email', action_settings: { template_id: template!.id, recipient: 'event_contact' } });
    await admin.client.from('leads').insert({ account_id: admin.accountId, name: 'Nope', email: 'nope@lead.test', company: 'N' });
    const [run] = (await runEvents()).filter((r) => r.automation_id === id);
    expect(run).toMatchObject({ status: 'failed', attempts: 1, error: 'Missing variable: order_number' });
    await pause(id);
  });
});

describe('Run now', () => {
  it('queues one run per key for a business writer; the runner performs it once', async () => {
    const id = await create(admin, { status: 'draft', action_settings: { assignee_id: admin.userId, title: 'Weekly review' } });
    const key = `k${randomBytes(8).toString('hex')}`;
    const first = await admin.client.rpc('run_automation_now', { p_automation_id: id, p_key: key }).single<Run>();
    expect(first.error).toBeNull();
    expect(first.data!.status).toBe('queued');
    const again = await admin.client.rpc('run_automation_now', { p_automation_id: id, p_key: key }).single<Run>();
    expect(again.data!.id).toBe(first.data!.id);
    expect((await auditor.client.rpc('run_automation_now', { p_automation_id: id, p_key: `a${key}` })).error).not.toBeNull();
    expect((await other.client.rpc('run_automation_now', { p_automation_id: id, p_key: `o${key}` })).error?.message).toMatch(/not found/);
    expect((await admin.client.rpc('run_automation_now', { p_automation_id: id, p_key: 'bad key\r\n' })).error).not.toBeNull();
    const done = (await runDue()).filter((r) => r.automation_id === id);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ status: 'succeeded', output: { task_id: expect.any(String) } });
    expect((await runDue()).filter((r) => r.automation_id === id)).toEqual([]);
    const { rows } = await backend.db.query('select count(*)::int as n from public.automation_runs where automation_id = $1', [id]);
    expect(rows).toEqual([{ n: 1 }]);
    // The list's figures (automation_list): finished runs and how many succeeded, under the reader's RLS.
    expect((await auditor.client.from('automation_list').select('run_count, succeeded_count').eq('id', id).single()).data).toEqual({ run_count: 1, succeeded_count: 1 });
    expect((await other.client.from('automation_list').select('id').eq('id', id)).data).toEqual([]);
  });

  it('refuses Run now for Update Status and Create Invoice, which act on their event\'s record', async () => {
    const status = await create(admin, { status: 'draft', action_kind: 'update_status', action_settings: { status: 'qualified' } });
    const invoice = await create(admin, { status: 'draft', trigger_kind: 'quote_accepted', action_kind: 'create_invoice', action_settings: {} });
    const key = `k${randomBytes(8).toString('hex')}`;
    expect((await admin.client.rpc('run_automation_now', { p_automation_id: status, p_key: key })).error?.message).toMatch(/^Run now is not offered for Update Status: .* only when a lead is created\.$/);
    expect((await admin.client.rpc('run_automation_now', { p_automation_id: invoice, p_key: key })).error?.message).toMatch(/^Run now is not offered for Create Invoice: .* only when a quote is accepted\.$/);
    const { rows } = await backend.db.query('select count(*)::int as n from public.automation_runs where automation_id in ($1, $2)', [status, invoice]);
    expect(rows).toEqual([{ n: 0 }]);
  });
});

describe('create_invoice and generate_report', () => {
  it('writes a draft invoice for the accepted quote in the run, once per quote; refuses other triggers', async () => {
    expect((await admin.client.from('automations').insert(row(admin, { action_kind: 'create_invoice', action_settings: {} }))).error?.message)
      .toMatch(/Quote Accepted/);
    const id = await create(admin, { trigger_kind: 'quote_accepted', action_kind: 'create_invoice', action_settings: {} });
    const { data: contact } = await admin.client.from('contacts').insert({ account_id: admin.accountId, name: 'Acme Buyer', email: 'buyer@acme.test', company: 'Acme' }).select('id').single();
    const { data: quote } = await service.from('quotes').insert({ account_id: admin.accountId, contact_id: contact!.id, currency: 'EUR', status: 'signed' }).select('id').single();
    await service.from('quote_items').insert({ quote_id: quote!.id, description: 'Consulting', qty: 2, unit_price: 5000, total: 10000 });
    await backend.db.query(`select private.emit_event($1, 'quote_accepted', 'quotes', $2, '{"quote_number":"Q-1"}')`, [admin.accountId, quote!.id]);
    // The same quote accepted twice (a replayed event): the second run fails, no second invoice.
    await backend.db.query(`select private.emit_event($1, 'quote_accepted', 'quotes', $2, '{"quote_number":"Q-1"}')`, [admin.accountId, quote!.id]);
    const runs = (await runEvents()).filter((r) => r.automation_id === id);
    expect(runs.map((r) => r.status)).toEqual(['succeeded', 'failed']);
    expect(runs[1].error).toMatch(/Already converted to INV-/);
    const { rows: invoices } = await backend.db.query<{ id: string; status: string; client_email: string; currency: string; subtotal: number }>(
      'select id, status, client_email, currency, subtotal from public.invoices where quote_id = $1', [quote!.id]);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'draft', client_email: 'buyer@acme.test', currency: 'EUR' });
    expect(Number(invoices[0].subtotal)).toBe(10000);
    expect(runs[0].output).toMatchObject({ invoice_id: invoices[0].id, invoice_number: expect.stringMatching(/^INV-/) });
    await pause(id);
  });

  it('writes the invoice through the one writer of Convert to invoice: both paths make identical rows and lines', async () => {
    const id = await create(admin, { trigger_kind: 'quote_accepted', action_kind: 'create_invoice', action_settings: {} });
    const { data: contact } = await admin.client.from('contacts').insert({ account_id: admin.accountId, name: 'Twin Buyer', email: 'Twin@Buyer.test', company: 'Twins' }).select('id').single();
    // Two signed quotes alike in everything the invoice takes: the contact, currency, rates, notes and lines (out of order).
    const signedQuote = async () => {
      const { data: quote, error } = await service.from('quotes').insert({
        account_id: admin.accountId, contact_id: contact!.id, currency: 'GBP', tax_rate: 20, discount: 5, notes: 'Net 30', status: 'signed',
      }).select('id').single();
      if (error) throw new Error(error.message);
      const items = await service.from('quote_items').insert([
        { quote_id: quote.id, description: 'Design', qty: 3, unit_price: 12000, total: 36000, position: 1 },
        { quote_id: quote.id, description: 'Build', qty: 1, unit_price: 50000, total: 50000, position: 0 },
      ]);
      if (items.error) throw new Error(items.error.message);
      return quote.id as string;
    };
    const byHand = await signedQuote();
    const byRun = await signedQuote();
    const converted = await admin.client.rpc('convert_quote_to_invoice', { p_quote_id: byHand });
    expect(converted.error).toBeNull();
    await backend.db.query(`select private.emit_event($1, 'quote_accepted', 'quotes', $2, '{}')`, [admin.accountId, byRun]);
    const [run] = (await runEvents()).filter((r) => r.automation_id === id);
    expect(run.status).toBe('succeeded');
    const { rows } = await backend.db.query<{ quote_id: string; invoice: Record<string, unknown>; items: Record<string, unknown>[] }>(
      `select i.quote_id, to_jsonb(i) - array['id', 'invoice_number', 'quote_id', 'created_at', 'updated_at'] as invoice,
              (select jsonb_agg(to_jsonb(it) - array['id', 'invoice_id', 'created_at', 'updated_at'] order by it.position)
                 from public.invoice_items it where it.invoice_id = i.id) as items
         from public.invoices i where i.quote_id in ($1, $2) order by i.quote_id = $1 desc`, [byHand, byRun]);
    expect(rows.map((r) => r.quote_id)).toEqual([byHand, byRun]);
    expect(rows[1].invoice).toEqual(rows[0].invoice);
    expect(rows[1].items).toEqual(rows[0].items);
    // What they both are: the automation's creator (the admin) as the author, the contact's address in lower case, totals by the triggers.
    expect(rows[0].invoice).toMatchObject({
      account_id: admin.accountId, contact_id: contact!.id, created_by: admin.userId, client_name: 'Twin Buyer', client_email: 'twin@buyer.test',
      currency: 'GBP', status: 'draft', notes: 'Net 30', subtotal: 86000,
    });
    expect(rows[0].items.map((item) => item.description)).toEqual(['Build', 'Design']);
    await pause(id);
  });

  it('queues the analytics export job of the contract with the run as its key, mailed to the chosen person or the owner', async () => {
    expect((await admin.client.from('automations').insert(row(admin, { action_kind: 'generate_report', action_settings: { report_type: 'weird' } }))).error).not.toBeNull();
    expect((await admin.client.from('automations').insert(row(admin, { action_kind: 'generate_report', action_settings: { report_type: 'sales', assignee_id: other.userId } }))).error?.message)
      .toMatch(/mail the report/);
    const id = await create(admin, {
      trigger_kind: 'scheduled_time', frequency: 'weekly', action_kind: 'generate_report',
      action_settings: { report_type: 'financial', format: 'xlsx', date_range: 'last_7_days', assignee_id: auditor.userId },
    });
    const { data: run } = await service.rpc('run_scheduled_automation', { p_automation_id: id, p_scheduled_for: '2026-12-07T09:00:00Z' }).single<Run>();
    expect(run!.status).toBe('succeeded');
    const { rows: jobs } = await backend.db.query<{ kind: string; account_id: string; payload: Record<string, unknown>; idempotency_key: string }>(
      'select kind, account_id, payload, idempotency_key from public.jobs where id = $1', [run!.output.report_job_id]);
    expect(jobs[0]).toEqual({
      kind: 'analytics.export_report', account_id: admin.accountId, idempotency_key: `automation:${run!.id}`,
      payload: { report_type: 'financial', format: 'xlsx', date_range: 'last_7_days', from: null, to: null, include_charts: true, include_summary: true, recipient_user_id: auditor.userId },
    });
    // Without a chosen person, the owner gets it.
    const owned = await create(admin, { trigger_kind: 'lead_created', action_kind: 'generate_report', action_settings: { report_type: 'leads' } });
    await admin.client.from('leads').insert({ account_id: admin.accountId, name: 'Rep', email: 'rep@lead.test', company: 'R' });
    const [ownedRun] = (await runEvents()).filter((r) => r.automation_id === owned);
    expect(ownedRun.output).toMatchObject({ recipient_user_id: admin.userId });
    await pause(id);
    await pause(owned);
  });
});

describe('recipients', () => {
  it("takes the event's contact or a colleague from anyone who writes, a fixed outside address from an admin only", async () => {
    const { data: template } = await admin.client.from('templates')
      .insert({ account_id: admin.accountId, name: 'Hello', type: 'email', subject: 'Hi', content: 'Hello' }).select('id').single();
    const mail = (recipient: string) => row(member, { status: 'draft', action_kind: 'send_email', action_settings: { template_id: template!.id, recipient } });
    expect((await member.client.from('automations').insert(mail('event_contact'))).error).toBeNull();
    const { data: me } = await backend.db.query<{ email: string }>('select email from public.users where id = $1', [admin.userId]).then((r) => ({ data: r.rows[0] }));
    expect((await member.client.from('automations').insert(mail(me.email.toUpperCase()))).error).toBeNull();
    expect((await member.client.from('automations').insert(mail('someone@outside.test'))).error?.message).toMatch(/Only an admin/);
    expect((await admin.client.from('automations').insert({ ...mail('someone@outside.test'), account_id: admin.accountId })).error).toBeNull();
  });
});

describe('triggers', () => {
  it('offers every event kind the migrations emit', async () => {
    const kinds = ['message_received', 'conversation_resolved', 'shipment_delivered', 'shipment_exception', 'po_sent', 'po_confirmed',
      'review_due', 'document_extracted', 'invoice_sent', 'invoice_void', 'quote_viewed'];
    for (const kind of kinds) {
      const { error } = await admin.client.from('automations').insert(row(admin, { trigger_kind: kind, status: 'draft' }));
      expect(error, kind).toBeNull();
    }
  });
});
