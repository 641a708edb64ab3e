// The local backend's SMTP listener: what the app's Worker sends through an
// account's `email` integration (our SMTP client over cloudflare:sockets) lands
// in the same outbox as the auth mails, so a test reads what a person would
// receive. With `auth` set, a wrong user or password is refused as a real
// server would (535), so a test can see a delivery fail.
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Outbox } from './context.ts';

export interface SmtpListener {
  port: number;
  stop(): Promise<void>;
}

export interface SmtpOptions {
  port?: number;
  host?: string;
  /** Required credentials; without them any (or no) login is accepted. */
  auth?: { user: string; pass: string };
}

const addresses = (value: AddressObject | AddressObject[] | undefined): string =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) => a.value.map((v) => v.address ?? '')).filter(Boolean).join(', ');

export async function startSmtpListener(outbox: Outbox, options: SmtpOptions = {}): Promise<SmtpListener> {
  const server = new SMTPServer({
    // Loopback only: no TLS to offer, and no reason for one.
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    size: 10 * 1024 * 1024,
    logger: false,
    onAuth(auth, _session, callback) {
      if (!options.auth || (auth.username === options.auth.user && auth.password === options.auth.pass)) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onData(stream, session, callback) {
      // Read whole first: a test reads the header block exactly as the client wrote it.
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      new Promise<Buffer>((resolve, reject) => {
        stream.once('end', () => resolve(Buffer.concat(chunks)));
        stream.once('error', reject);
      })
        .then(async (raw) => ({ raw, mail: await simpleParser(raw) }))
        .then(async ({ raw, mail }) => {
          const text = raw.toString('utf8');
          const headerEnd = text.indexOf('\r\n\r\n');
          await outbox.send({
            to: addresses(mail.to) || session.envelope.rcptTo.map((r) => r.address).join(', '),
            from: addresses(mail.from) || (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : undefined,
            attachments: mail.attachments.map((a) => ({
              filename: a.filename ?? '',
              contentType: a.contentType,
              size: a.size,
              content: a.content.toString('base64'),
            })),
            via: 'smtp',
            rawHeaders: headerEnd >= 0 ? text.slice(0, headerEnd) : text,
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  // A client that resets its connection (a Worker torn down mid-send) is that
  // connection's end, not the listener's: without a handler the error event
  // would end the whole backend process.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') console.error(`SMTP listener: ${error.message}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
