// Automations, decision 085: the loop guard. An event written while an
// automation ran carries the run's depth (its event's depth + 1) and the run;
// a run on an event at depth 3 is recorded skipped with the reason and its
// action is never performed, so a chain that would loop stops after three runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

type Run = { id: string; automation_id: string; status: string; error: string | null; output: Record<string, unknown> };
type EventRow = { id: string; kind: string; automation_depth: number; caused_by_run_id: string | null };

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'loop-admin');
});
afterAll(async () => backend?.stop());

async function create(changes: Record<string, unknown>): Promise<string> {
  const { data, error } = await admin.client.from('automations').insert({
    account_id: admin.accountId, name: 'Loop test', status: 'active', trigger_kind: 'lead_created',
    action_kind: 'assign_task', action_settings: { assignee_id: admin.userId, title: 'Call {{name}}' }, ...changes,
  }).select('id').single();
  if (error) throw new Error(error.message);
  return data.id as string;
}
async function runEvents(): Promise<Run[]> {
  const { data, error } = await service.rpc('run_automations', { p_limit: 1000 });
  if (error) throw new Error(error.message);
  return data as Run[];
}
const events = async (kind: string) => (await backend.db.query<EventRow>(
  'select id, kind, automation_depth, caused_by_run_id from public.events where account_id = $1 and kind = $2 order by created_at, id',
  [admin.accountId, kind])).rows;
const pause = (id: string) => backend.db.query(`update public.automations set status = 'paused' where id = $1`, [id]);

describe('the loop guard', () => {
  it('stops an automation whose action emits its own trigger at depth 3: three runs, then a skipped run with the reason', async () => {
    // A chain that would loop: here a task's insert emits lead_created (as a module
    // whose record an action writes could emit the automation's own trigger).
    await backend.db.query(`create function public.test_task_emits_lead() returns trigger language plpgsql as $$
      begin perform private.emit_event(new.account_id, 'lead_created', 'tasks', new.id, jsonb_build_object('name', new.title)); return new; end $$`);
    await backend.db.query(`create trigger test_task_emits_lead after insert on public.tasks for each row execute function public.test_task_emits_lead()`);
    try {
      const id = await create({});
      await admin.client.from('leads').insert({ account_id: admin.accountId, name: 'Loop', email: 'loop@lead.test', company: 'L' });
      const [origin] = await events('lead_created');
      expect(origin).toMatchObject({ automation_depth: 0, caused_by_run_id: null });

      // The runner steps again and again, as it does every minute.
      const runs: Run[] = [];
      for (let step = 0; step < 6; step++) runs.push(...(await runEvents()).filter((r) => r.automation_id === id));
      expect(runs.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'skipped']);
      expect(runs[3].error).toBe('Stopped: this event was written by a chain of 3 automation runs, which would loop');
      expect(runs[3].output).toMatchObject({ loop_guard: true, depth: 3, caused_by_run_id: runs[2].id });

      // Each event names the run that wrote it and is one deeper; the skipped run wrote nothing.
      const chain = await events('lead_created');
      expect(chain.map((e) => e.automation_depth)).toEqual([0, 1, 2, 3]);
      expect(chain.slice(1).map((e) => e.caused_by_run_id)).toEqual(runs.slice(0, 3).map((r) => r.id));
      const { rows: tasks } = await backend.db.query<{ n: number }>(
        'select count(*)::int as n from public.tasks t join public.automation_runs r on r.id = t.automation_run_id where r.automation_id = $1', [id]);
      expect(tasks).toEqual([{ n: 3 }]);
      // Not a failure: the automation does not show 'Failed'.
      const { rows } = await backend.db.query<{ last_error: string | null }>('select last_error from public.automations where id = $1', [id]);
      expect(rows).toEqual([{ last_error: null }]);
      await pause(id);
    } finally {
      await backend.db.query(`drop trigger test_task_emits_lead on public.tasks`);
      await backend.db.query(`drop function public.test_task_emits_lead()`);
    }
  });

  it("carries the depth through another module's own triggers (an accepted quote's invoice) and leaves no depth behind", async () => {
    const invoicing = await create({ trigger_kind: 'quote_accepted', action_kind: 'create_invoice', action_settings: {} });
    const follow = await create({ trigger_kind: 'invoice_created', action_settings: { assignee_id: admin.userId, title: 'Check {{invoice_number}}' } });
    const { data: quote } = await service.from('quotes').insert({ account_id: admin.accountId, signer_email: 'buyer@acme.test', currency: 'EUR', status: 'signed' }).select('id').single();
    await backend.db.query(`select private.emit_event($1, 'quote_accepted', 'quotes', $2, '{}')`, [admin.accountId, quote!.id]);
    const [invoiceRun] = (await runEvents()).filter((r) => r.automation_id === invoicing);
    expect(invoiceRun.status).toBe('succeeded');
    const created = await events('invoice_created');
    expect(created.at(-1)).toMatchObject({ automation_depth: 1, caused_by_run_id: invoiceRun.id });
    // The next automation in the chain runs (depth 1 is under the limit).
    const [followRun] = (await runEvents()).filter((r) => r.automation_id === follow);
    expect(followRun.status).toBe('succeeded');

    // In one transaction, after a run that succeeded and one that failed, an event of no automation is at depth 0 again.
    await backend.db.query('begin');
    try {
      await backend.db.query(`select private.emit_event($1, 'invoice_created', 'invoices', null, '{"invoice_number":"INV-X"}')`, [admin.accountId]);
      await backend.db.query(`select private.emit_event($1, 'quote_accepted', 'quotes', $2, '{}')`, [admin.accountId, quote!.id]);
      const { rows: inside } = await backend.db.query<{ status: string }>('select status from public.run_automations(10) order by status');
      expect(inside.map((r) => r.status)).toEqual(['failed', 'succeeded']);
      const { rows: setting } = await backend.db.query<{ depth: string | null }>(`select current_setting('opshub.automation_depth', true) as depth`);
      expect(setting[0].depth ?? '').toBe('');
      await backend.db.query(`select private.emit_event($1, 'lead_created', 'leads', null, '{}')`, [admin.accountId]);
      const last = (await events('lead_created')).at(-1)!;
      expect(last).toMatchObject({ automation_depth: 0, caused_by_run_id: null });
    } finally {
      await backend.db.query('rollback');
    }
    await pause(invoicing);
    await pause(follow);
  });
});
