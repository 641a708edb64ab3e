// Automations in the database (decision 067): the action's settings and the
// conditions checked by the table; who reads and writes; run_automations
// performs each (automation, event) exactly once (a replay, and two runners at
// the same moment on PostgreSQL, insert nothing more); conditions on the
// payload; assign_task, update_status and send_email (a missing variable
// fails the run naming it); scheduled runs once per time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const targets = [
  { name: 'PGlite', on: 'pglite' as const, skip: false },
  { name: 'PostgreSQL', on: 'postgres' as const, skip: !process.env.TEST_POSTGRES_URL },
];

type Run = { id: string; automation_id: string; event_id: string | null; status: string; error: string | null; output: Record<string, unknown> };

for (const target of targets) {
  describe.skipIf(target.skip)(`automations on ${target.name}`, () => {
    let backend: TestBackend;
    let service: SupabaseClient;
    let admin: Member;
    let member: Member;
    let auditor: Member;
    let client: Member;
    let other: Member;

    beforeAll(async () => {
      backend = await startBackend({ on: target.on });
      service = serviceClient(backend);
      admin = await signUpFreshAdmin(backend, 'auto-admin');
      member = await addMember(backend, admin, 'member', 'auto-member');
      auditor = await addMember(backend, admin, 'auditor', 'auto-auditor');
      client = await addMember(backend, admin, 'client', 'auto-client');
      other = await signUpFreshAdmin(backend, 'auto-other');
    });
    afterAll(async () => backend?.stop());

    const task = (who: Member, changes: Record<string, unknown> = {}) => ({
      account_id: who.accountId, name: `Task ${randomBytes(3).toString('hex')}`, trigger_kind: 'lead_created', status: 'active',
      action_kind: 'assign_task', action_settings: { assignee_id: who.userId, title: 'Call {{name}}' }, ...changes,
    });
    async function create(who: Member, row: Record<string, unknown>): Promise<string> {
      const { data, error } = await who.client.from('automations').insert(row).select('id').single();
      if (error) throw new Error(error.message);
      return data.id as string;
    }
    async function lead(who: Member, name = 'Lee', email = 'lee@lead.test', company = 'Lead Co'): Promise<string> {
      const { data, error } = await who.client.from('leads').insert({ account_id: who.accountId, name, email, company }).select('id').single();
      if (error) throw new Error(error.message);
      return data.id as string;
    }
    async function run(): Promise<Run[]> {
      const { data, error } = await service.rpc('run_automations', { p_limit: 1000 });
      if (error) throw new Error(error.message);
      return data as Run[];
    }
    async function runsOf(automationId: string): Promise<Run[]> {
      const { rows } = await backend.db.query<Run>('select * from public.automation_runs where automation_id = $1 order by started_at', [automationId]);
      return rows;
    }
    async function pause(...ids: string[]) {
      await backend.db.query(`update public.automations set status = 'paused' where id = any($1::uuid[])`, [ids]);
    }

    it('refuses settings the engine cannot perform and conditions it cannot read', async () => {
      const bad = [
        task(admin, { action_settings: { title: 'No assignee' } }),
        task(admin, { action_kind: 'update_status', action_settings: { status: 'Not A Status!' } }),
        task(admin, { action_kind: 'send_email', action_settings: { template_id: 'nope', recipient: 'event_contact' } }),
        task(admin, { conditions: [{ field: 'name', operator: 'like', value: 'x' }] }),
        task(admin, { conditions: [{ field: 'Bad Field', operator: 'equals', value: 'x' }] }),
        task(admin, { trigger_kind: 'scheduled_time' }),
        task(admin, { trigger_kind: 'scheduled_time', frequency: 'custom' }),
        task(admin, { action_kind: 'fly' }),
      ];
      for (const row of bad) {
        const { error } = await admin.client.from('automations').insert(row);
        expect(error, JSON.stringify(row)).not.toBeNull();
      }
      // A template of another account, or a recipient with a header break.
      const { data: template } = await other.client.from('templates').insert({ account_id: other.accountId, name: 'Theirs', type: 'email', subject: 'Hi', content: 'x' }).select('id').single();
      const foreign = await admin.client.from('automations').insert(task(admin, { action_kind: 'send_email', action_settings: { template_id: template!.id, recipient: 'event_contact' } }));
      expect(foreign.error?.message).toMatch(/e-mail templates/);
      const injected = await admin.client.from('automations').insert(task(admin, { action_kind: 'send_email', action_settings: { template_id: template!.id, recipient: 'a@b.test\r\nBcc: x@y.test' } }));
      expect(injected.error).not.toBeNull();
      const foreignAssignee = await admin.client.from('automations').insert(task(admin, { action_settings: { assignee_id: other.userId, title: 'x' } }));
      expect(foreignAssignee.error?.message).toMatch(/assign/);
    });

    it('staff read, admins and members write, auditors and clients cannot, another account sees nothing', async () => {
      const id = await create(member, task(member, { status: 'draft' }));
      expect((await auditor.client.from('automations').select('id').eq('id', id)).data).toHaveLength(1);
      expect((await client.client.from('automations').select('id').eq('id', id)).data).toEqual([]);
      expect((await other.client.from('automations').select('id').eq('id', id)).data).toEqual([]);
      expect((await auditor.client.from('automations').insert(task(admin))).error).not.toBeNull();
      expect((await client.client.from('automations').insert(task(admin))).error).not.toBeNull();
      await auditor.client.from('automations').update({ name: 'Hijacked' }).eq('id', id);
      await other.client.from('automations').delete().eq('id', id);
      const { rows } = await backend.db.query<{ name: string }>('select name from public.automations where id = $1', [id]);
      expect(rows[0].name).not.toBe('Hijacked');
      expect((await admin.client.from('automations').update({ status: 'paused' }).eq('id', id).select('id')).data).toHaveLength(1);
      // Runs are the engine's: nobody inserts one through the API.
      expect((await admin.client.from('automation_runs').insert({ account_id: admin.accountId, automation_id: id })).error).not.toBeNull();
      const { rows: audit } = await backend.db.query<{ action: string }>(
        `select action from public.audit_logs where resource_id = $1 order by created_at`, [id]);
      expect(audit.map((a) => a.action)).toEqual(['automation_created', 'automation_updated']);
      await pause(id);
    });

    it('assigns a task once per (automation, event), in the run\'s transaction; a replay adds nothing', async () => {
      const id = await create(admin, task(admin));
      const leadId = await lead(admin, 'Ada');
      const runs = (await run()).filter((r) => r.automation_id === id);
      expect(runs).toHaveLength(1);
      expect(runs[0].status).toBe('succeeded');
      const { rows: tasks } = await backend.db.query<{ title: string; resource_id: string; automation_run_id: string }>(
        'select title, resource_id, automation_run_id from public.tasks where automation_run_id = $1', [runs[0].id]);
      expect(tasks).toEqual([{ title: 'Call Ada', resource_id: leadId, automation_run_id: runs[0].id }]);
      expect(runs[0].output).toMatchObject({ task_id: expect.any(String) });
      expect((await run()).filter((r) => r.automation_id === id)).toEqual([]);
      // A run forced again by hand hits the unique constraint.
      const again = await backend.db.query('insert into public.automation_runs (account_id, automation_id, event_id) values ($1, $2, $3) on conflict do nothing returning id',
        [admin.accountId, id, runs[0].event_id]);
      expect(again.rows).toEqual([]);
      expect(await runsOf(id)).toHaveLength(1);
      await pause(id);
    });

    it('checks conditions on the payload: a lead that does not match is skipped', async () => {
      const id = await create(admin, task(admin, { conditions: [{ field: 'email', operator: 'contains', value: '@vip.test' }] }));
      await lead(admin, 'Vip', 'boss@vip.test');
      await lead(admin, 'Plain', 'plain@else.test');
      const runs = (await run()).filter((r) => r.automation_id === id);
      expect(runs.map((r) => r.status).sort()).toEqual(['skipped', 'succeeded']);
      await pause(id);
    });

    it('updates the lead\'s status; events from before the activation are not replayed', async () => {
      const before = await lead(admin, 'Early');
      const id = await create(admin, task(admin, { action_kind: 'update_status', action_settings: { status: 'qualified' } }));
      const leadId = await lead(admin, 'Late');
      const runs = (await run()).filter((r) => r.automation_id === id);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: 'succeeded', output: { resource_id: leadId, status: 'qualified' } });
      const { rows } = await backend.db.query<{ id: string; status: string }>('select id, status from public.leads where id = any($1::uuid[])', [[before, leadId]]);
      expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [before]: 'new', [leadId]: 'qualified' });
      await pause(id);
    });

    it('send_email queues one mail from the template; a missing variable fails the run with its name', async () => {
      const { data: good } = await admin.client.from('templates').insert({ account_id: admin.accountId, name: 'Welcome', type: 'email', subject: 'Welcome {{name}}', content: 'Hello {{name}}, from {{email}}' }).select('id').single();
      const { data: bad } = await admin.client.from('templates').insert({ account_id: admin.accountId, name: 'Broken', type: 'email', subject: 'Hi', content: 'Your order {{order_number}}' }).select('id').single();
      const mailing = await create(admin, task(admin, { action_kind: 'send_email', action_settings: { template_id: good!.id, recipient: 'event_contact' } }));
      const failing = await create(admin, task(admin, { action_kind: 'send_email', action_settings: { template_id: bad!.id, recipient: 'ops@fixed.test' } }));
      await lead(admin, 'Mia', 'mia@lead.test');
      const runs = await run();
      const sent = runs.find((r) => r.automation_id === mailing)!;
      expect(sent.status).toBe('succeeded');
      const { rows: jobs } = await backend.db.query<{ kind: string; payload: Record<string, string>; idempotency_key: string }>(
        'select kind, payload, idempotency_key from public.jobs where id = $1', [sent.output.mail_job_id]);
      expect(jobs[0]).toEqual({ kind: 'mail.send', idempotency_key: `automation:${sent.id}`, payload: { to: 'mia@lead.test', subject: 'Welcome Mia', text: 'Hello Mia, from mia@lead.test' } });
      const failed = runs.find((r) => r.automation_id === failing)!;
      expect(failed.status).toBe('failed');
      expect(failed.error).toBe('Missing variable: order_number');
      const { rows: queued } = await backend.db.query(`select 1 from public.jobs where idempotency_key = $1`, [`automation:${failed.id}`]);
      expect(queued).toEqual([]);
      const { rows: [automation] } = await backend.db.query<{ last_error: string }>('select last_error from public.automations where id = $1', [failing]);
      expect(automation.last_error).toBe('Missing variable: order_number');
      await pause(mailing, failing);
    });

    it('runs a scheduled automation once per scheduled time', async () => {
      const id = await create(admin, task(admin, { trigger_kind: 'scheduled_time', frequency: 'daily', action_settings: { assignee_id: admin.userId, title: 'Daily check' } }));
      const at = '2026-03-29T07:00:00Z';
      const first = await service.rpc('run_scheduled_automation', { p_automation_id: id, p_scheduled_for: at }).single<Run>();
      expect(first.data, first.data?.error ?? '').toMatchObject({ status: 'succeeded' });
      const second = await service.rpc('run_scheduled_automation', { p_automation_id: id, p_scheduled_for: at });
      expect(second.data?.id ?? null).toBeNull();
      expect(await runsOf(id)).toHaveLength(1);
      expect((await admin.client.rpc('run_scheduled_automation', { p_automation_id: id, p_scheduled_for: at })).error).not.toBeNull();
      await pause(id);
    });

    it.skipIf(target.on !== 'postgres')('two runners at the same moment make one run per (automation, event)', async () => {
      const ids = await Promise.all([1, 2, 3].map(() => create(admin, task(admin))));
      for (let i = 0; i < 20; i++) await lead(admin, `Racer ${i}`);
      const url = new URL(process.env.TEST_POSTGRES_URL!);
      const { rows: [{ db }] } = await backend.db.query<{ db: string }>('select current_database() as db');
      url.pathname = `/${db}`;
      const clients = [new pg.Client({ connectionString: url.toString() }), new pg.Client({ connectionString: url.toString() })];
      await Promise.all(clients.map((c) => c.connect()));
      try {
        const results = await Promise.all(clients.map((c) => c.query<Run>('select * from public.run_automations(1000)')));
        const mine = results.flatMap((r) => r.rows).filter((r) => ids.includes(r.automation_id));
        expect(mine).toHaveLength(60);
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
      const { rows } = await backend.db.query<{ n: number }>(
        `select count(*)::int as n from public.automation_runs where automation_id = any($1::uuid[]) group by automation_id, event_id having count(*) <> 1`, [ids]);
      expect(rows).toEqual([]);
      const { rows: [{ n }] } = await backend.db.query<{ n: number }>(
        `select count(*)::int as n from public.tasks t join public.automation_runs r on r.id = t.automation_run_id where r.automation_id = any($1::uuid[])`, [ids]);
      expect(n).toBe(60);
      await pause(...ids);
    });
  });
}
