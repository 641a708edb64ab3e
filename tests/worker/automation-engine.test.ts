// The automations engine through the real jobs runner (decision 067): a lead
// created fires a send_email automation whose mail is read from the local
// outbox, once however often the runner runs; a scheduled automation runs once
// per due time, and a daily 09:00 one at 09:00 local on both sides of a
// daylight-saving change, driven by the runner's test clock (the Cron
// Trigger's scheduledTime); croner itself runs in workerd. A generate_report
// automation is followed to the end: its run queues the analytics export job,
// which stores the file in the `reports` bucket and mails a signed link to it,
// once however often the runner runs.
import { env, exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../support/confirmation-mail';
import { signUpFreshAdmin } from './support/app';
import { accountOf, serviceClient } from './support/backend';
import { checkSchedule } from '../../app/features/automations/schedule.ts';

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
const runCron = (at = Date.now()) => worker.scheduled({ cron: '* * * * *', scheduledTime: at });
// The engine's step is queued once a minute (its key carries the minute), and another file may have ticked this
// one: a test runs it now with the test-only cron `force:<kind>` (forcedPeriodicJobs; no Cron Trigger carries it).
const runEngineNow = () => worker.scheduled({ cron: 'force:automations.run', scheduledTime: Date.now() });

let account: { accountId: string; userId: string };
let adminEmail: string;
beforeAll(async () => {
  const fresh = await signUpFreshAdmin();
  adminEmail = fresh.email;
  account = await accountOf(fresh.email);
});

describe('the automations engine', () => {
  it('croner computes schedules inside workerd', () => {
    const check = checkSchedule('0 9 * * *', 'America/New_York', new Date('2026-11-01T00:00:00Z'));
    expect(check.ok && check.next.map((d) => d.toISOString()).slice(0, 2)).toEqual(['2026-11-01T14:00:00.000Z', '2026-11-02T14:00:00.000Z']);
  });

  it('mails a new lead once through the template, however often the runner runs', async () => {
    const service = serviceClient();
    const { data: template, error: templateError } = await service.from('templates').insert({
      account_id: account.accountId, name: 'Lead welcome', type: 'email', subject: 'Thanks, {{name}}', content: 'Hello {{name}}, we will be in touch.',
    }).select('id').single();
    if (templateError) throw new Error(templateError.message);
    const { error } = await service.from('automations').insert({
      account_id: account.accountId, name: 'Welcome leads', trigger_kind: 'lead_created', status: 'active', action_kind: 'send_email',
      action_settings: { template_id: template!.id, recipient: 'event_contact' },
    });
    if (error) throw new Error(error.message);
    const to = `lead-${Date.now()}@engine.test`;
    const { error: leadError } = await service.from('leads').insert({ account_id: account.accountId, name: 'Robin', email: to, company: 'Engine Co' });
    if (leadError) throw new Error(leadError.message);
    const mails = async () => ((await readOutbox(env.SUPABASE_URL)) as unknown as { to: string; subject: string; text: string }[]).filter((m) => m.to === to);
    for (let tries = 0; tries < 10 && (await mails()).length < 1; tries++) await runEngineNow();
    await runEngineNow();
    await runCron(Date.now() + 60_000);
    await runCron(Date.now() + 120_000);
    const sent = await mails();
    expect(sent.map((m) => m.subject)).toEqual(['Thanks, Robin']);
  });

  it('runs a scheduled automation once per due time', async () => {
    const service = serviceClient();
    const { data, error } = await service.from('automations').insert({
      account_id: account.accountId, name: 'Every five minutes', trigger_kind: 'scheduled_time', frequency: 'custom', cron: '*/5 * * * *',
      status: 'active', action_kind: 'assign_task', action_settings: { assignee_id: account.userId, title: 'Check the queue' },
    }).select('id').single();
    if (error) throw new Error(error.message);
    const later = Date.now() + 10 * 60_000;
    await runCron(later);
    await runCron(later + 1000);
    const { data: runs } = await service.from('automation_runs').select('status, scheduled_for').eq('automation_id', data!.id);
    expect(runs).toHaveLength(1);
    expect(runs![0].status).toBe('succeeded');
    expect(new Date(runs![0].scheduled_for!).getUTCMinutes() % 5).toBe(0);
  });

  it('runs a daily 09:00 automation once a day at 09:00 local across a daylight-saving change (test clock)', async () => {
    const service = serviceClient();
    // New York springs forward on 2027-03-14: 09:00 is 14:00 UTC before, 13:00 UTC after.
    const { error: tzError } = await service.from('accounts').update({ timezone: 'America/New_York' }).eq('id', account.accountId);
    if (tzError) throw new Error(tzError.message);
    const { data, error } = await service.from('automations').insert({
      account_id: account.accountId, name: 'Daily standup', trigger_kind: 'scheduled_time', frequency: 'daily',
      status: 'active', action_kind: 'assign_task', action_settings: { assignee_id: account.userId, title: 'Standup notes' },
    }).select('id').single();
    if (error) throw new Error(error.message);
    // The runner ticks at these instants (UTC), as the Cron Trigger would.
    const ticks = [
      '2027-03-13T14:30:00Z', // 09:30 EST: the 13th's run
      '2027-03-13T20:00:00Z', // later that day: nothing new
      '2027-03-14T12:30:00Z', // 08:30 EDT: not yet
      '2027-03-14T13:05:00Z', // 09:05 EDT: the 14th's run, an hour earlier in UTC
      '2027-03-14T14:05:00Z', // 10:05 EDT (09:05 by the old offset): nothing new
      '2027-03-15T13:01:00Z', // 09:01 EDT: the 15th's run
    ];
    for (const tick of ticks) await runCron(Date.parse(tick));
    const { data: runs } = await service.from('automation_runs').select('status, scheduled_for').eq('automation_id', data!.id).order('scheduled_for');
    expect(runs!.map((r) => [r.status, new Date(r.scheduled_for!).toISOString()])).toEqual([
      ['succeeded', '2027-03-13T14:00:00.000Z'],
      ['succeeded', '2027-03-14T13:00:00.000Z'],
      ['succeeded', '2027-03-15T13:00:00.000Z'],
    ]);
    const local = runs!.map((r) => new Date(r.scheduled_for!).toLocaleTimeString('en-GB', { timeZone: 'America/New_York', hour: '2-digit', minute: '2-digit' }));
    expect(local).toEqual(['09:00', '09:00', '09:00']);
    await service.from('automations').update({ status: 'paused' }).eq('id', data!.id);
  });

  it('generate_report: a new lead fires it, the export job stores the CSV in `reports` and mails a signed link to it, once', async () => {
    const service = serviceClient();
    const { data: automation, error } = await service.from('automations').insert({
      account_id: account.accountId, name: 'Report on new leads', trigger_kind: 'lead_created', status: 'active', action_kind: 'generate_report',
      action_settings: { report_type: 'leads', format: 'csv', date_range: 'last_7_days', assignee_id: account.userId },
    }).select('id').single();
    if (error) throw new Error(error.message);
    const leadName = `Reported ${crypto.randomUUID().slice(0, 8)}`;
    const { error: leadError } = await service.from('leads').insert({ account_id: account.accountId, name: leadName, email: 'reported@engine.test', company: 'Report Co' });
    if (leadError) throw new Error(leadError.message);
    type Mail = { to: string; subject: string; text: string };
    const reportMails = async () => ((await readOutbox(env.SUPABASE_URL)) as unknown as Mail[]).filter((m) => m.to === adminEmail && /is ready$/.test(m.subject));
    for (let tick = 0; tick < 10 && (await reportMails()).length === 0; tick++) await runEngineNow();

    const { data: runs } = await service.from('automation_runs').select('id, status, output').eq('automation_id', automation!.id);
    expect(runs).toHaveLength(1);
    expect(runs![0].status).toBe('succeeded');
    const jobId = (runs![0].output as { report_job_id: string }).report_job_id;
    const { data: job } = await service.from('jobs').select('kind, status, idempotency_key').eq('id', jobId).single();
    expect(job).toEqual({ kind: 'analytics.export_report', status: 'done', idempotency_key: `automation:${runs![0].id}` });
    // The file is in the private bucket, under the account and the job.
    const { data: stored, error: listError } = await service.storage.from('reports').list(`${account.accountId}/${jobId}`);
    if (listError) throw new Error(listError.message);
    expect(stored!.map((file) => file.name)).toEqual([expect.stringMatching(/^leads-report-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/)]);
    const [mail] = await reportMails();
    expect(mail.subject).toBe('Your Leads Report is ready');
    const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
    expect(link).toContain(`/storage/v1/object/sign/reports/${account.accountId}/${jobId}/${stored![0].name}`);
    // The signed link gives the report itself, with the new lead in it.
    const file = await fetch(link!);
    expect(file.status).toBe(200);
    const lines = (await file.text()).split('\r\n');
    expect(lines[0]).toBe('Leads Report');
    expect(lines).toContain('Name,Company,Email,Source,Status,Created');
    expect(lines.some((line) => line.startsWith(`${leadName},Report Co,reported@engine.test,`))).toBe(true);

    // Exactly once: the runner again sends nothing more, and queues no second run or job.
    await runEngineNow();
    await runCron(Date.now() + 60_000);
    expect(await reportMails()).toHaveLength(1);
    expect((await service.from('automation_runs').select('id').eq('automation_id', automation!.id)).data).toHaveLength(1);
    expect((await service.from('jobs').select('id').eq('account_id', account.accountId).eq('kind', 'analytics.export_report')).data).toHaveLength(1);
    await service.from('automations').update({ status: 'paused' }).eq('id', automation!.id);
  }, 120_000);

  it('queues each periodic step once a minute on the production path; only the test-only force cron runs it again', async () => {
    // A minute of the past no other test ticks (its steps find nothing due then).
    const at = Date.parse('2020-01-01T00:00:00Z') + Math.floor(Math.random() * 500_000) * 60_000;
    const minute = new Date(at).toISOString().slice(0, 16);
    const keys = async () => {
      const { data, error } = await serviceClient().from('jobs').select('idempotency_key').like('idempotency_key', `automations.run:${minute}%`);
      if (error) throw new Error(error.message);
      return data.map((job) => (job.idempotency_key === `automations.run:${minute}` ? 'minute' : job.idempotency_key.replace(/[0-9a-f-]{36}$/, '<uuid>')));
    };
    // The Cron Trigger's cron, three ticks in one minute: one step.
    for (const offset of [0, 20_000, 59_000]) await runCron(at + offset);
    expect(await keys()).toEqual(['minute']);
    // A cron that is no test's force: as the Cron Trigger.
    await worker.scheduled({ cron: 'force:no.such_kind', scheduledTime: at });
    expect(await keys()).toEqual(['minute']);
    // The force cron, twice in the same minute: a step each time.
    for (let i = 0; i < 2; i++) await worker.scheduled({ cron: 'force:automations.run', scheduledTime: at });
    expect((await keys()).sort()).toEqual([`automations.run:${minute}:forced:<uuid>`, `automations.run:${minute}:forced:<uuid>`, 'minute']);
  });
});
