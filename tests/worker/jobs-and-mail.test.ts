// The jobs runner and mail through the real Worker (decisions 021, 022): the
// Cron Trigger's scheduled handler runs queued jobs with the service role; an
// account's active email integration sends through its SMTP server (the local
// backend's SMTP listener, reached over cloudflare:sockets), other mail
// through the platform's HTTP mail API; an unreachable server is retried,
// recorded, and shown on the Integrations screen. Send test mail with and
// without a session, and for a role that may not.
import { env, exports } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { DEMO_MEMBER } from '../support/accounts';
import { readOutbox } from '../support/confirmation-mail';
import { pageText, signIn, signUpFreshAdmin, Visitor } from './support/app';
import { accountOf, serviceClient } from './support/backend';
import { joinAs } from './support/settings';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Provided by global-setup.ts: the backend's SMTP listener, and a loopback port nothing listens on. */
    smtpPort: number;
    smtpDeadPort: number;
  }
}

const LIST = '/settings/integrations';

// The pool calls the Worker's own scheduled handler, which its typed exports do not list.
const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };

/** One tick of the Cron Trigger: the Worker's scheduled handler, awaited to the end of its run. */
async function runCron(): Promise<void> {
  await worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
}

/**
 * The action's kick (ctx.waitUntil) may hold the job when the test's own tick
 * runs: wait until the job about `subjectId` has finished, whoever ran it.
 */
async function settled(subjectId: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { data } = await serviceClient().from('jobs').select('status').eq('subject_id', subjectId);
    if (data && data.length > 0 && data.every((j) => j.status === 'done' || j.status === 'failed')) return;
    if (Date.now() > deadline) throw new Error(`jobs of ${subjectId} still ${JSON.stringify(data)}`);
    await runCron();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function mailsTo(email: string) {
  return (await readOutbox(env.SUPABASE_URL)).filter((m) => m.to === email) as unknown as {
    to: string;
    subject: string;
    text: string;
    via?: string;
  }[];
}

/** An email integration made the account's mail route (decision 039), at a loopback port the tests allow. */
async function emailIntegration(accountId: string, port: number, name = 'Office SMTP') {
  const { data, error } = await serviceClient()
    .from('integrations')
    .insert({
      account_id: accountId,
      name,
      type: 'email',
      is_active: true,
      is_default_mail_route: true,
      config: { smtp_host: '127.0.0.1', smtp_port: port, smtp_user: 'office', smtp_password: 'pw', from_email: 'office@ops-hub.test' },
    })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

describe('Send test mail through the account\'s SMTP server', () => {
  it('says the integration carries the mail, queues a test mail and the runner delivers it once over SMTP', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const id = await emailIntegration(accountId, inject('smtpPort'));

    const page = await pageText(await visitor.get(LIST));
    expect(page).toContain('Mail from this account is sent through this server');
    expect(page).toContain('Send test mail');

    const posted = await visitor.post(LIST, { intent: 'test-mail', id });
    expect(posted.status).toBe(302);
    await settled(id);
    await runCron();
    const mails = (await mailsTo(email)).filter((m) => m.subject === 'Test mail from OpsHub');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ via: 'smtp' });
    expect(await pageText(await visitor.get(LIST))).toContain('Last test mail: delivered to the server');
  });

  it('an unreachable server fails the test mail, and the screen says why', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    // A loopback port nothing listens on.
    const id = await emailIntegration(accountId, inject('smtpDeadPort'), 'Broken SMTP');
    expect((await visitor.post(LIST, { intent: 'test-mail', id })).status).toBe(302);
    await settled(id);
    const { data: job } = await serviceClient().from('jobs').select('status, last_error, attempts').eq('subject_id', id).single();
    expect(job).toMatchObject({ status: 'failed', attempts: 1 });
    expect(job!.last_error).toBeTruthy();
    expect(await pageText(await visitor.get(LIST))).toContain('Last test mail: delivery failed:');
    expect((await mailsTo(email)).filter((m) => m.subject === 'Test mail from OpsHub')).toEqual([]);
  });

  it('without a session the post goes to sign-in; a member is refused and nothing is queued', async () => {
    const anonymous = await new Visitor().post(LIST, { intent: 'test-mail', id: crypto.randomUUID() });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('Location')).toMatch(/^\/auth/);
    const member = await signIn(DEMO_MEMBER);
    const { count: before } = await serviceClient().from('jobs').select('*', { count: 'exact', head: true }).eq('kind', 'mail.test');
    const refused = await member.post(LIST, { intent: 'test-mail', id: crypto.randomUUID() });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const { count: after } = await serviceClient().from('jobs').select('*', { count: 'exact', head: true }).eq('kind', 'mail.test');
    expect(after).toBe(before);
  });
});

describe('mail jobs', () => {
  async function queueMail(accountId: string, to: string, key = crypto.randomUUID()) {
    const { error } = await serviceClient().rpc('enqueue_job', {
      p_kind: 'mail.send',
      p_idempotency_key: key,
      p_account_id: accountId,
      p_payload: { to, subject: `Hello ${key}`, text: 'Body' },
    });
    if (error) throw new Error(error.message);
    return key;
  }

  it('an account without an email integration sends through the platform mail API', async () => {
    const { email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const key = await queueMail(accountId, 'someone@ops-hub.test');
    await runCron();
    const mails = (await readOutbox(env.SUPABASE_URL)).filter((m) => m.subject === `Hello ${key}`) as unknown as { via: string }[];
    expect(mails).toHaveLength(1);
    expect(mails[0].via).toBe('http');
  });

  it('SMTP down: the job is queued again with backoff and its run record says why', async () => {
    const { email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    await emailIntegration(accountId, inject('smtpDeadPort'), 'Down');
    const key = await queueMail(accountId, 'someone@ops-hub.test');
    await runCron();
    const service = serviceClient();
    const { data: job } = await service.from('jobs').select('id, status, attempts, run_at, last_error').eq('idempotency_key', key).single();
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(new Date(job!.run_at).getTime()).toBeGreaterThan(Date.now());
    const { data: runs } = await service.from('job_runs').select('outcome, error').eq('job_id', job!.id);
    expect(runs).toEqual([{ outcome: 'retry', error: job!.last_error }]);
  });
});

describe('failed jobs on the Integrations screen', () => {
  /** A mail job the runner can only fail: its payload lacks `missing`. */
  async function queueBrokenMail(accountId: string, missing: 'to' | 'subject') {
    const payload: Record<string, string> = { to: 'someone@ops-hub.test', subject: 'Hello', text: 'Body' };
    delete payload[missing];
    const key = crypto.randomUUID();
    const { error } = await serviceClient().rpc('enqueue_job', {
      p_kind: 'mail.send', p_idempotency_key: key, p_account_id: accountId, p_payload: payload,
    });
    if (error) throw new Error(error.message);
    return key;
  }

  async function waitForFailure(key: string) {
    for (let tick = 0; tick < 20; tick++) {
      await runCron();
      const { data } = await serviceClient().from('jobs').select('status').eq('idempotency_key', key).single();
      if (data?.status === 'failed') return;
    }
    throw new Error(`job ${key} did not fail`);
  }

  it('the account\'s admins see its failed jobs with the last error; its auditor and other accounts do not', async () => {
    const ours = await signUpFreshAdmin();
    const { accountId } = await accountOf(ours.email);
    const auditor = await joinAs(accountId, 'auditor');
    const theirs = await signUpFreshAdmin();
    const { accountId: theirAccount } = await accountOf(theirs.email);

    expect(await pageText(await ours.visitor.get(LIST))).not.toContain('Failed jobs');
    const key = await queueBrokenMail(accountId, 'to');
    const otherKey = await queueBrokenMail(theirAccount, 'subject');
    await waitForFailure(key);
    await waitForFailure(otherKey);

    const page = await pageText(await ours.visitor.get(LIST));
    expect(page).toContain('Failed jobs');
    const card = page.slice(page.indexOf('id="failed-jobs-title"'));
    expect(card).toMatch(/<td[^>]*>Mail<\/td><td[^>]*>1<\/td><td[^>]*>The job has no to<\/td>/);
    expect(page).not.toContain('The job has no subject');

    const audited = await pageText(await auditor.visitor.get(LIST));
    expect(audited).not.toContain('Failed jobs');
    expect(audited).not.toContain('The job has no to');

    const other = await pageText(await theirs.visitor.get(LIST));
    expect(other).toContain('The job has no subject');
    expect(other).not.toContain('The job has no to');
  });
});
