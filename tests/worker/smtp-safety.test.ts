// Mail through an account's SMTP server, attacked (issue 30, items 2, 4, 10;
// decision 039), in the Worker as production runs it:
// - a server that closes the connection (at once, or after its greeting) is a
//   failed attempt of that job alone: the runner's tick ends, the other jobs
//   of the batch are delivered, the Worker keeps answering pages;
// - a header value with CR/LF is refused before anything is sent, on both
//   routes; the subject is always an RFC 2047 encoded word, folded;
// - the route is the integration an admin chose, else the platform's mail API;
// - SMTP ports and public addresses only, on saving and at send time; the
//   screen shows a fixed error class, never the server's banner.
import { env, exports } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { readOutbox } from '../support/confirmation-mail';
import { pageText, signUpFreshAdmin, Visitor } from './support/app';
import { accountOf, serviceClient } from './support/backend';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Provided by global-setup.ts: the backend's SMTP listener and the broken servers next to it. */
    smtpPort: number;
    smtpClosePort: number;
    smtpBannerClosePort: number;
    smtpSilentPort: number;
    smtpDeadPort: number;
  }
}

const LIST = '/settings/integrations';
const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
const runCron = () => worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });

interface SmtpMail {
  to: string;
  subject: string;
  text: string;
  via?: string;
  rawHeaders?: string;
  rcptTo?: string[];
}

const outbox = async () => (await readOutbox(env.SUPABASE_URL)) as unknown as SmtpMail[];

async function freshAccount(): Promise<{ visitor: Visitor; email: string; accountId: string }> {
  const { visitor, email } = await signUpFreshAdmin();
  const { accountId } = await accountOf(email);
  return { visitor, email, accountId };
}

async function integration(accountId: string, host: string, port: number, options: { route?: boolean; name?: string } = {}) {
  const { data, error } = await serviceClient()
    .from('integrations')
    .insert({
      account_id: accountId,
      name: options.name ?? 'Office SMTP',
      type: 'email',
      is_active: true,
      is_default_mail_route: options.route ?? true,
      config: { smtp_host: host, smtp_port: port, smtp_user: 'office', smtp_password: 'pw', from_email: 'office@ops-hub.test' },
    })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

async function queueMail(accountId: string, mail: { to?: string; subject?: string; text?: string } = {}) {
  const key = crypto.randomUUID();
  const { error } = await serviceClient().rpc('enqueue_job', {
    p_kind: 'mail.send',
    p_idempotency_key: key,
    p_account_id: accountId,
    p_payload: { to: 'client@ops-hub.test', subject: `Hello ${key}`, text: 'Body', ...mail },
  });
  if (error) throw new Error(error.message);
  return key;
}

const job = async (key: string) =>
  (await serviceClient().from('jobs').select('status, attempts, last_error').eq('idempotency_key', key).single()).data!;

describe('an SMTP server that closes the connection', () => {
  it('fails its own job with a fixed class; the batch and the Worker go on', async () => {
    const closing = await freshAccount();
    const greeting = await freshAccount();
    const healthy = await freshAccount();
    await integration(closing.accountId, '127.0.0.1', inject('smtpClosePort'));
    await integration(greeting.accountId, '127.0.0.1', inject('smtpBannerClosePort'));
    await integration(healthy.accountId, '127.0.0.1', inject('smtpPort'));
    const keys = {
      closing: await queueMail(closing.accountId),
      greeting: await queueMail(greeting.accountId),
      healthy: await queueMail(healthy.accountId),
    };

    const started = Date.now();
    await runCron();
    expect(Date.now() - started).toBeLessThan(20_000);

    for (const key of [keys.closing, keys.greeting]) {
      expect(await job(key)).toMatchObject({ status: 'queued', attempts: 1, last_error: 'Connection closed' });
    }
    expect(await job(keys.healthy)).toMatchObject({ status: 'done' });
    expect((await outbox()).filter((m) => m.subject === `Hello ${keys.healthy}`)).toHaveLength(1);
    // The Worker still answers a page.
    expect((await new Visitor().get('/auth')).status).toBe(200);
  });

  it('a server that never answers times out on a real timer; the rest of the batch is delivered', async () => {
    const silent = await freshAccount();
    const healthy = await freshAccount();
    await integration(silent.accountId, '127.0.0.1', inject('smtpSilentPort'));
    await integration(healthy.accountId, '127.0.0.1', inject('smtpPort'));
    const stuck = await queueMail(silent.accountId);
    const fine = await queueMail(healthy.accountId);
    const started = Date.now();
    await runCron();
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(await job(stuck)).toMatchObject({ status: 'queued', attempts: 1, last_error: 'Timed out' });
    expect(await job(fine)).toMatchObject({ status: 'done' });
  });

  it('the Integrations screen shows the error class, never the server\'s banner', async () => {
    const { visitor, accountId } = await freshAccount();
    const id = await integration(accountId, '127.0.0.1', inject('smtpBannerClosePort'));
    expect((await visitor.post(LIST, { intent: 'test-mail', id })).status).toBe(302);
    for (let tick = 0; tick < 10; tick++) {
      await runCron();
      const { data } = await serviceClient().from('jobs').select('status').eq('subject_id', id).single();
      if (data?.status === 'failed') break;
    }
    const page = await pageText(await visitor.get(LIST));
    expect(page).toContain('Last test mail: delivery failed: Connection closed');
    expect(page).not.toContain('SECRET-BANNER');
    const { data: jobs } = await serviceClient().from('jobs').select('last_error').eq('subject_id', id);
    expect(JSON.stringify(jobs)).not.toContain('SECRET-BANNER');
  });
});

describe('headers', () => {
  it('a subject or address with CR/LF is refused before sending, over SMTP and the mail API, for good', async () => {
    const viaSmtp = await freshAccount();
    await integration(viaSmtp.accountId, '127.0.0.1', inject('smtpPort'));
    const viaApi = await freshAccount();
    const injected = 'Quote Q-1 was accepted by Bob\r\nBcc: x@evil.example\r\n\r\nInjected body';
    const keys = [
      await queueMail(viaSmtp.accountId, { subject: injected }),
      await queueMail(viaSmtp.accountId, { to: 'client@ops-hub.test\r\nBcc: x@evil.example' }),
      await queueMail(viaApi.accountId, { subject: injected }),
    ];
    await runCron();
    for (const key of keys) {
      const row = await job(key);
      expect(row.status, key).toBe('failed');
      expect(row.last_error).toMatch(/contains a control character/);
    }
    const mails = await outbox();
    // Only this test's injected values (another file's mail may carry a neutralised 'Bcc' in its subject, as one line).
    expect(mails.filter((m) => m.text.includes('Injected body') || m.subject.includes('x@evil.example') || m.to.includes('evil.example'))).toEqual([]);
  });

  it('the subject is always an encoded word, folded: it arrives as written, in one header, to one recipient', async () => {
    const { accountId } = await freshAccount();
    await integration(accountId, '127.0.0.1', inject('smtpPort'));
    const subject = `Angebot für Müller & Söhne – ✓ ${'sehr lang '.repeat(12)}${crypto.randomUUID()}`;
    await queueMail(accountId, { subject, text: '.Leading dot\nline two' });
    await runCron();
    const [mail] = (await outbox()).filter((m) => m.subject === subject);
    expect(mail).toBeDefined();
    expect(mail.via).toBe('smtp');
    expect(mail.rcptTo).toEqual(['client@ops-hub.test']);
    expect(mail.text.trim()).toBe('.Leading dot\nline two');
    const lines = mail.rawHeaders!.split('\r\n');
    const at = lines.findIndex((l) => l.startsWith('Subject: '));
    expect(lines[at]).toMatch(/^Subject: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
    // Continuation lines start with a space; no line is longer than 78 characters.
    expect(lines[at + 1]).toMatch(/^ =\?UTF-8\?B\?/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(78);
    // A plain ASCII subject is encoded too.
    const plain = `Plain ${crypto.randomUUID().slice(0, 8)}`;
    await queueMail(accountId, { subject: plain });
    await runCron();
    const [second] = (await outbox()).filter((m) => m.subject === plain);
    expect(second.rawHeaders).toContain(`Subject: =?UTF-8?B?${btoa(plain)}?=`);
  });
});

describe('the mail route', () => {
  it('an email integration nobody chose carries nothing; once an admin chooses it, it carries all mail', async () => {
    const { visitor, accountId } = await freshAccount();
    const id = await integration(accountId, '127.0.0.1', inject('smtpPort'), { route: false, name: 'Chosen SMTP' });
    const before = await queueMail(accountId);
    await runCron();
    expect((await outbox()).find((m) => m.subject === `Hello ${before}`)?.via).toBe('http');
    const screen = await pageText(await visitor.get(LIST));
    expect(screen).toContain('Mail from this account goes through OpsHub until you choose one of your email integrations');
    expect(screen).toContain('Use for all mail');

    expect((await visitor.post(LIST, { intent: 'mail-route', id })).status).toBe(302);
    expect(await pageText(await visitor.get(LIST))).toContain('Mail from this account is sent through this server');
    const after = await queueMail(accountId);
    await runCron();
    expect((await outbox()).find((m) => m.subject === `Hello ${after}`)?.via).toBe('smtp');

    // Back to OpsHub's own mail.
    expect((await visitor.post(LIST, { intent: 'mail-route' })).status).toBe(302);
    const last = await queueMail(accountId);
    await runCron();
    expect((await outbox()).find((m) => m.subject === `Hello ${last}`)?.via).toBe('http');
  });
});

describe('where an SMTP integration may connect', () => {
  const save = (visitor: Visitor, host: string, port: string) =>
    visitor.post(`${LIST}?new`, {
      intent: 'save', name: 'Probe', type: 'email', editor: 'fields',
      'email.smtp_host': host, 'email.smtp_port': port, 'email.smtp_user': 'u', 'email.smtp_password': 'p', 'email.from_email': 'a@example.com',
    });

  it('saving: SMTP ports only, no private, loopback or link-local address; a clear error and nothing saved', async () => {
    const { visitor, accountId } = await freshAccount();
    const cases: [string, string, string][] = [
      ['smtp.example.com', '22', 'Use an SMTP port: 25, 465, 587, 2525'],
      ['smtp.example.com', '6379', 'Use an SMTP port'],
      ['127.0.0.1', '587', 'Use the address of a public mail server'],
      ['localhost', '25', 'Use the address of a public mail server'],
      ['10.1.2.3', '587', 'Use the address of a public mail server'],
      ['192.168.0.10', '465', 'Use the address of a public mail server'],
      ['169.254.169.254', '25', 'Use the address of a public mail server'],
      ['[::1]', '587', 'Use the address of a public mail server'],
      ['::ffff:127.0.0.1', '587', 'Use the address of a public mail server'],
      ['fe80::1', '587', 'Use the address of a public mail server'],
      ['2130706433', '587', 'Enter a host name'],
      // The test harness allows its own listener, and only on its port.
      ['127.0.0.1', String(inject('smtpPort') + 1), 'Use an SMTP port'],
    ];
    for (const [host, port, message] of cases) {
      const response = await save(visitor, host, port);
      expect(response.status, `${host}:${port}`).toBe(400);
      expect(await pageText(response), `${host}:${port}`).toContain(message);
    }
    const { count } = await serviceClient().from('integrations').select('*', { count: 'exact', head: true }).eq('account_id', accountId);
    expect(count).toBe(0);
    expect((await save(visitor, 'smtp.example.com', '587')).status).toBe(302);
    expect((await save(visitor, '127.0.0.1', String(inject('smtpPort')))).status).toBe(302);
  });

  it('sending: a route written around the form (service role) to a private address fails at once, without connecting', async () => {
    const { accountId } = await freshAccount();
    await integration(accountId, '169.254.169.254', 25);
    const key = await queueMail(accountId);
    await runCron();
    expect(await job(key)).toMatchObject({ status: 'failed', attempts: 1, last_error: 'Not allowed: Use the address of a public mail server' });
  });
});

describe('Send test mail', () => {
  it('at most 5 an hour per account: the sixth is refused with a clear message', async () => {
    const { visitor, accountId } = await freshAccount();
    const id = await integration(accountId, '127.0.0.1', inject('smtpPort'));
    for (let i = 0; i < 5; i++) expect((await visitor.post(LIST, { intent: 'test-mail', id })).status).toBe(302);
    const sixth = await visitor.post(LIST, { intent: 'test-mail', id });
    expect(sixth.status).toBe(429);
    expect(await pageText(sixth)).toContain('At most 5 test mails an hour: try again later');
    const { count } = await serviceClient().from('audit_logs').select('*', { count: 'exact', head: true })
      .eq('account_id', accountId).eq('action', 'test_mail_requested');
    expect(count).toBe(5);
  });
});
