// The local backend's SMTP listener (decision 022): a message a client hands
// it over SMTP lands in the outbox, parsed (recipient, subject, text,
// attachments); with required credentials a wrong password is refused (535)
// and nothing is kept. A plain socket client speaks the protocol, as
// the Worker's SMTP client does (decision 039).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { createOutbox } from '../../supabase/local/outbox.ts';
import { startSmtpListener, type SmtpListener } from '../../supabase/local/smtp.ts';

/** Sends one SMTP command and reads the reply (multi-line replies end at "NNN "). */
function conversation(socket: Socket) {
  let buffer = '';
  const waiters: ((line: string) => void)[] = [];
  socket.on('data', (chunk) => {
    buffer += chunk.toString();
    for (;;) {
      const end = buffer.search(/^\d{3} .*\r\n/m);
      if (end < 0) break;
      const lineEnd = buffer.indexOf('\r\n', end);
      const reply = buffer.slice(0, lineEnd);
      buffer = buffer.slice(lineEnd + 2);
      waiters.shift()?.(reply);
    }
  });
  const next = () => new Promise<string>((resolve) => waiters.push(resolve));
  return {
    greeting: next(),
    async say(line: string): Promise<string> {
      const reply = next();
      socket.write(`${line}\r\n`);
      return reply;
    },
  };
}

async function send(port: number, auth: { user: string; pass: string } | null, message: string) {
  const socket = connect(port, '127.0.0.1');
  const smtp = conversation(socket);
  const replies: string[] = [await smtp.greeting, await smtp.say('EHLO test')];
  if (auth) replies.push(await smtp.say(`AUTH PLAIN ${Buffer.from(`\0${auth.user}\0${auth.pass}`).toString('base64')}`));
  replies.push(await smtp.say('MAIL FROM:<office@ops-hub.test>'));
  replies.push(await smtp.say('RCPT TO:<client@ops-hub.test>'));
  replies.push(await smtp.say('DATA'));
  replies.push(await smtp.say(`${message}\r\n.`));
  replies.push(await smtp.say('QUIT'));
  socket.end();
  return replies.map((r) => r.slice(0, 3));
}

const MESSAGE = [
  'From: Office <office@ops-hub.test>',
  'To: client@ops-hub.test',
  'Subject: Your quote',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="b"',
  '',
  '--b',
  'Content-Type: text/plain',
  '',
  'Please find it attached.',
  '--b',
  'Content-Type: application/pdf; name="quote.pdf"',
  'Content-Disposition: attachment; filename="quote.pdf"',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from('%PDF-1.7 test').toString('base64'),
  '--b--',
].join('\r\n');

describe('the SMTP listener', () => {
  const outbox = createOutbox({ quiet: true });
  let open: SmtpListener;
  let guarded: SmtpListener;
  beforeAll(async () => {
    open = await startSmtpListener(outbox);
    guarded = await startSmtpListener(outbox, { auth: { user: 'office', pass: 'right' } });
  });
  afterAll(async () => {
    await open?.stop();
    await guarded?.stop();
  });

  it('keeps what it is sent in the outbox, parsed', async () => {
    outbox.clear();
    expect(await send(open.port, null, MESSAGE)).toEqual(['220', '250', '250', '250', '354', '250', '221']);
    const [mail] = outbox.list();
    expect(mail).toMatchObject({ to: 'client@ops-hub.test', from: 'office@ops-hub.test', subject: 'Your quote', via: 'smtp' });
    expect(mail.text.trim()).toBe('Please find it attached.');
    expect(mail.attachments).toEqual([expect.objectContaining({ filename: 'quote.pdf', contentType: 'application/pdf' })]);
    expect(Buffer.from(mail.attachments![0].content, 'base64').toString()).toBe('%PDF-1.7 test');
  });

  it('with credentials required, refuses a wrong password and keeps nothing', async () => {
    outbox.clear();
    const replies = await send(guarded.port, { user: 'office', pass: 'wrong' }, MESSAGE);
    expect(replies[2]).toBe('535');
    expect(outbox.list()).toEqual([]);
    expect((await send(guarded.port, { user: 'office', pass: 'right' }, MESSAGE))[2]).toBe('235');
    expect(outbox.list()).toHaveLength(1);
  });
});
