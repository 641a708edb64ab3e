// Our own small SMTP client over cloudflare:sockets (decision 039), in place of
// worker-mailer, whose read loop spun on a closed stream (`done: true` read
// again and again in microtasks, so no timer could fire and the whole Worker
// stopped answering). Here a closed stream is an error, every read waits on a
// real timer, and the whole conversation has a hard deadline. The errors it
// throws carry a fixed class (never the remote server's own words), which is
// what a job records and the Integrations screen shows.
import { connect } from 'cloudflare:sockets';
import { dotStuff, type BuiltMessage } from './mime';

export type SmtpFailure =
  | 'Connection refused'
  | 'Connection closed'
  | 'Timed out'
  | 'TLS failed'
  | 'Authentication failed'
  | 'Rejected by server';

/** A delivery that failed, with its fixed class as the message; `permanent` when retrying cannot help. */
export class SmtpError extends Error {
  constructor(
    readonly failure: SmtpFailure,
    readonly permanent = false,
  ) {
    super(failure);
    this.name = 'SmtpError';
  }
}

export interface SmtpServer {
  host: string;
  port: number;
  user: string;
  password: string;
}

export interface SmtpTimeouts {
  /** Each reply (and the connection) within this. */
  readMs: number;
  /** The whole send within this, whatever the server does. */
  totalMs: number;
}

export const SMTP_TIMEOUTS: SmtpTimeouts = { readMs: 10_000, totalMs: 30_000 };

type Socket = ReturnType<typeof connect>;

interface Reply {
  code: number;
  lines: string[];
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** A promise that rejects after `ms` on a real timer (the caller clears it). */
function timer(ms: number): { promise: Promise<never>; clear: () => void } {
  let id: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<never>((_, reject) => {
    id = setTimeout(() => reject(new SmtpError('Timed out')), ms);
  });
  return { promise, clear: () => clearTimeout(id) };
}

async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  const t = timer(ms);
  try {
    return await Promise.race([work, t.promise]);
  } finally {
    t.clear();
  }
}

class Conversation {
  private reader: ReadableStreamDefaultReader<Uint8Array>;
  private writer: WritableStreamDefaultWriter<Uint8Array>;
  private buffer = '';

  constructor(
    private socket: Socket,
    private readonly timeouts: SmtpTimeouts,
  ) {
    this.reader = socket.readable.getReader();
    this.writer = socket.writable.getWriter();
  }

  /** One reply, all its lines (`250-…` … `250 …`); a stream that ends first is an error, not a wait. */
  async reply(): Promise<Reply> {
    const lines: string[] = [];
    for (;;) {
      const end = this.buffer.indexOf('\r\n');
      if (end >= 0) {
        const line = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        lines.push(line);
        if (!/^\d{3}-/.test(line)) {
          const code = Number(line.slice(0, 3));
          if (!Number.isInteger(code) || code < 200) throw new SmtpError('Rejected by server');
          return { code, lines };
        }
        continue;
      }
      if (this.buffer.length > 64 * 1024) throw new SmtpError('Rejected by server');
      const { done, value } = await within(this.reader.read(), this.timeouts.readMs);
      if (done) throw new SmtpError('Connection closed');
      this.buffer += decoder.decode(value, { stream: true });
    }
  }

  async write(text: string): Promise<void> {
    await within(this.writer.write(encoder.encode(text)), this.timeouts.readMs);
  }

  /** Sends a command and reads its reply, which must have the expected first digit. */
  async command(line: string, expect: number, failure: SmtpFailure = 'Rejected by server'): Promise<Reply> {
    await this.write(`${line}\r\n`);
    const reply = await this.reply();
    if (Math.floor(reply.code / 100) !== expect) throw new SmtpError(failure, reply.code >= 500);
    return reply;
  }

  /** STARTTLS: the same connection, upgraded; the old reader and writer are let go first. */
  upgrade(hostname: string): void {
    this.reader.releaseLock();
    this.writer.releaseLock();
    this.socket = this.socket.startTls({ expectedServerHostname: hostname });
    this.reader = this.socket.readable.getReader();
    this.writer = this.socket.writable.getWriter();
    this.buffer = '';
  }

  async opened(): Promise<void> {
    await within(this.socket.opened, this.timeouts.readMs);
  }

  close(): void {
    this.socket.close().catch(() => {});
  }
}

const capabilities = (reply: Reply) => reply.lines.map((l) => l.slice(4).toUpperCase());

async function greetAndHello(smtp: Conversation): Promise<string[]> {
  const greeting = await smtp.reply();
  if (greeting.code !== 220) throw new SmtpError('Rejected by server');
  return capabilities(await smtp.command('EHLO opshub.app', 2));
}

async function authenticate(smtp: Conversation, server: SmtpServer, caps: string[]): Promise<void> {
  if (!server.user) return;
  const auth = caps.find((c) => c.startsWith('AUTH')) ?? '';
  if (!auth) return;
  if (/\bPLAIN\b/.test(auth)) {
    const token = btoaUtf8(`\0${server.user}\0${server.password}`);
    await smtp.command(`AUTH PLAIN ${token}`, 2, 'Authentication failed');
  } else if (/\bLOGIN\b/.test(auth)) {
    await smtp.command('AUTH LOGIN', 3, 'Authentication failed');
    await smtp.command(btoaUtf8(server.user), 3, 'Authentication failed');
    await smtp.command(btoaUtf8(server.password), 2, 'Authentication failed');
  } else {
    throw new SmtpError('Authentication failed', true);
  }
}

function btoaUtf8(text: string): string {
  return btoa(String.fromCharCode(...encoder.encode(text)));
}

async function converse(smtp: Conversation, server: SmtpServer, message: BuiltMessage, tls: 'on' | 'starttls'): Promise<void> {
  try {
    await smtp.opened();
  } catch (error) {
    throw error instanceof SmtpError ? error : new SmtpError('Connection refused');
  }
  let caps = await greetAndHello(smtp);
  // STARTTLS when the server offers it (465 is TLS from the first byte).
  if (tls === 'starttls' && caps.includes('STARTTLS')) {
    await smtp.command('STARTTLS', 2, 'TLS failed');
    try {
      smtp.upgrade(server.host);
      caps = capabilities(await smtp.command('EHLO opshub.app', 2));
    } catch (error) {
      throw error instanceof SmtpError && error.failure === 'Timed out' ? error : new SmtpError('TLS failed');
    }
  }
  await authenticate(smtp, server, caps);
  await smtp.command(`MAIL FROM:<${message.from.address}>`, 2);
  await smtp.command(`RCPT TO:<${message.to.address}>`, 2);
  await smtp.command('DATA', 3);
  await smtp.write(`${dotStuff(message.data)}${message.data.endsWith('\r\n') ? '' : '\r\n'}.\r\n`);
  const accepted = await smtp.reply();
  if (accepted.code !== 250) throw new SmtpError('Rejected by server', accepted.code >= 500);
  await smtp.command('QUIT', 2).catch(() => {});
}

/**
 * Hands one message to an SMTP server. Resolves once the server accepted it
 * (250 after DATA); rejects with an SmtpError otherwise, at the latest after
 * `totalMs`, and the socket is closed either way.
 */
export async function sendOverSmtp(server: SmtpServer, message: BuiltMessage, timeouts: SmtpTimeouts = SMTP_TIMEOUTS): Promise<void> {
  const tls = server.port === 465 ? 'on' : 'starttls';
  let smtp: Conversation;
  try {
    smtp = new Conversation(connect({ hostname: server.host, port: server.port }, { secureTransport: tls, allowHalfOpen: false }), timeouts);
  } catch {
    throw new SmtpError('Connection refused');
  }
  try {
    await within(converse(smtp, server, message, tls), timeouts.totalMs);
  } catch (error) {
    if (error instanceof SmtpError) throw error;
    // A socket error mid-way (reset, TLS alert): the connection is gone.
    throw new SmtpError(tls === 'on' ? 'TLS failed' : 'Connection closed');
  } finally {
    smtp.close();
  }
}
