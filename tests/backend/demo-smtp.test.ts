// The demo account's "Company SMTP" integration mails through the listener of
// the backend it lives in (issue 30): the seed says port 54325, and with
// another SMTP port quote mails with live signing links went to whatever
// listened on 54325 (another instance on the same machine).
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import type { Backend } from '../../supabase/local/index.ts';
import { startTestBackend } from '../../supabase/local/testing.ts';
import { pointDemoSmtpAt } from '../../supabase/local/demo-smtp.ts';

interface SmtpConfig {
  smtp_host: string;
  smtp_port: number;
  smtp_user: string;
  smtp_password: string;
  from_email: string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One SMTP conversation, as worker-mailer holds it from the Worker: each command and its reply code. */
async function sendMail(config: SmtpConfig, to: string, subject: string): Promise<string[]> {
  const socket: Socket = connect(config.smtp_port, config.smtp_host);
  let buffer = '';
  const waiters: ((line: string) => void)[] = [];
  socket.on('data', (chunk) => {
    buffer += chunk.toString();
    for (let end = buffer.search(/^\d{3} .*\r\n/m); end >= 0; end = buffer.search(/^\d{3} .*\r\n/m)) {
      const lineEnd = buffer.indexOf('\r\n', end);
      waiters.shift()?.(buffer.slice(0, lineEnd));
      buffer = buffer.slice(lineEnd + 2);
    }
  });
  const next = () => new Promise<string>((resolve) => waiters.push(resolve));
  const say = (line: string) => {
    const reply = next();
    socket.write(`${line}\r\n`);
    return reply;
  };
  const replies = [await next(), await say('EHLO test')];
  replies.push(await say(`AUTH PLAIN ${Buffer.from(`\0${config.smtp_user}\0${config.smtp_password}`).toString('base64')}`));
  replies.push(await say(`MAIL FROM:<${config.from_email}>`), await say(`RCPT TO:<${to}>`), await say('DATA'));
  replies.push(await say(`From: ${config.from_email}\r\nTo: ${to}\r\nSubject: ${subject}\r\n\r\nYour quote link.\r\n.`), await say('QUIT'));
  socket.end();
  return replies.map((reply) => reply.slice(0, 3));
}

describe('the demo SMTP integration', () => {
  let backend: Backend;
  let other: Server;
  let otherPort: number;
  const strayed: string[] = [];

  beforeAll(async () => {
    // Another "instance" on the seed's port would be this: it records whoever connects.
    other = createServer((socket) => {
      strayed.push('connected');
      socket.end('220 not yours\r\n');
    });
    await new Promise<void>((resolve, reject) => {
      other.once('error', reject);
      other.listen(0, '127.0.0.1', resolve);
    });
    otherPort = (other.address() as AddressInfo).port;
    backend = await startTestBackend({ seed: true, smtpPort: await freePort() });
  });
  afterAll(async () => {
    await backend?.stop();
    await new Promise((resolve) => other?.close(resolve));
  });

  const demoIntegration = async () => {
    const service = createClient(backend.url, backend.serviceRoleKey, { auth: { persistSession: false } });
    const { data: row } = await service.from('integrations').select('id, is_active').eq('name', 'Company SMTP').single();
    const { data: config, error } = await service.rpc('integration_credentials', { p_integration_id: row!.id });
    if (error) throw error;
    return { id: row!.id as string, active: row!.is_active as boolean, config: config as SmtpConfig };
  };

  it("points at this backend's own listener, and a mail sent through it arrives in this backend's outbox", async () => {
    const { config, active } = await demoIntegration();
    expect(active).toBe(true);
    expect(backend.smtpPort).not.toBe(54325);
    expect(config).toMatchObject({ smtp_host: '127.0.0.1', smtp_port: backend.smtpPort });
    const subject = `Quote Q-1 ${Date.now()}`;
    expect(await sendMail(config, 'client@acme.test', subject)).toEqual(['220', '250', '235', '250', '250', '354', '250', '221']);
    expect(backend.outbox.list().some((mail) => mail.subject === subject && mail.to.includes('client@acme.test'))).toBe(true);
  });

  it('follows the listener when it moves, keeps its secrets, and writes the change to the audit log', async () => {
    const before = await demoIntegration();
    expect(await pointDemoSmtpAt(backend.db, otherPort)).toBe('pointed');
    expect(await pointDemoSmtpAt(backend.db, otherPort)).toBe('unchanged');
    const after = await demoIntegration();
    expect(after.config).toEqual({ ...before.config, smtp_port: otherPort });
    const { rows } = await backend.db.query<{ old_values: { config: SmtpConfig }; new_values: { config: SmtpConfig } }>(
      `select old_values, new_values from public.audit_logs where resource_id = $1 and action = 'integration_updated' order by created_at desc limit 1`,
      [after.id],
    );
    expect(rows[0].new_values.config.smtp_port).toBe(otherPort);
    // Back where it belongs, for the rest of the file.
    expect(await pointDemoSmtpAt(backend.db, backend.smtpPort!)).toBe('pointed');
    expect(strayed).toEqual([]);
  });

  it("leaves an integration someone pointed at another host alone", async () => {
    const { id } = await demoIntegration();
    await backend.db.query(`update public.integrations set config = jsonb_set(config, '{smtp_host}', '"smtp.example.test"') where id = $1`, [id]);
    expect(await pointDemoSmtpAt(backend.db, otherPort)).toBe('unchanged');
    expect((await demoIntegration()).config).toMatchObject({ smtp_host: 'smtp.example.test', smtp_port: backend.smtpPort });
  });

  it('is switched off, never left on another listener, when the new port is refused', async () => {
    const { id } = await demoIntegration();
    await backend.db.query(`update public.integrations set config = jsonb_set(config, '{smtp_host}', '"127.0.0.1"') where id = $1`, [id]);
    // A rule this code does not know (say, allowed SMTP ports only) refuses the port.
    await backend.db.exec(`
      create function public.test_refuse_port() returns trigger language plpgsql as $$
      begin
        if new.config ->> 'smtp_port' = '9999' then raise exception 'port 9999 is not allowed'; end if;
        return new;
      end $$;
      create trigger test_refuse_port before update on public.integrations for each row execute function public.test_refuse_port();`);
    try {
      expect(await pointDemoSmtpAt(backend.db, 9999)).toEqual({ deactivated: 'port 9999 is not allowed' });
      expect(await demoIntegration()).toMatchObject({ active: false, config: { smtp_port: backend.smtpPort } });
    } finally {
      await backend.db.exec('drop trigger test_refuse_port on public.integrations; drop function public.test_refuse_port();');
    }
  });
});
