// The helpdesk through the Worker (decision 060): the signed POST /hooks/email
// (wrong signature, old timestamp, oversized body refused with a clear 4xx; a
// valid one stored once), the Worker's `email` handler (Cloudflare Email
// Workers) with threading by the reply address's token, the inbox (unread in
// bold, filters, search), a conversation's reply mailed by the jobs runner
// (read in the backend's outbox) and a note that never leaves, and who may do what.
import { env, exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, signIn, type Visitor } from './support/app';
import { outbox, serviceClient } from './support/backend';
import { demoAdmin, page, readable } from './support/module-screens';
import { DEMO_AUDITOR, DEMO_CLIENT } from '../support/accounts';

// The demo account's mailbox and secret (supabase/seed.sql).
const MAILBOX = 'demo-inbox@inbound.opshub.test';
const SECRET = 'local-demo-inbound-secret-0123456789abcdef';

async function sign(secret: string, timestamp: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${timestamp}.${body}`)));
  return `sha256=${[...mac].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

async function hook(body: string, options: { secret?: string; timestamp?: number; signature?: string } = {}): Promise<Response> {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = options.signature ?? (await sign(options.secret ?? SECRET, timestamp, body));
  // A provider's post: no Origin, no cookies.
  return exports.default.fetch(
    new Request(`${ORIGIN}/hooks/email`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'X-OpsHub-Timestamp': timestamp, 'X-OpsHub-Signature': signature },
    }),
  );
}

type Handler = { email(message: unknown, env: unknown, ctx: unknown): Promise<void> };
async function worker(): Promise<Handler> {
  const path = (env as unknown as { WORKER_MAIN_FOR_TESTS: string }).WORKER_MAIN_FOR_TESTS;
  return ((await import(/* @vite-ignore */ path)) as { default: Handler }).default;
}

/** What Cloudflare Email Workers hands the `email` handler: the envelope and the raw message. */
function emailMessage(to: string, raw: string) {
  const bytes = new TextEncoder().encode(raw);
  const rejected: string[] = [];
  return {
    rejected,
    message: {
      from: 'sender@envelope.test',
      to,
      headers: new Headers(),
      raw: new Response(bytes).body,
      rawSize: bytes.length,
      setReject: (reason: string) => void rejected.push(reason),
      forward: async () => {},
      reply: async () => {},
    },
  };
}

async function runJobs(): Promise<void> {
  const tick = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
  await tick.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
}

const conversationOf = async (externalId: string) => {
  const { data } = await serviceClient().from('messages').select('conversation_id').eq('external_id', externalId).single();
  return (data as { conversation_id: string }).conversation_id;
};

let admin: Visitor;
beforeAll(async () => {
  admin = await demoAdmin();
});

describe('POST /hooks/email', () => {
  const mail = (id: string, changes: Record<string, unknown> = {}) =>
    JSON.stringify({
      to: MAILBOX, from: 'Nora Field <nora@fieldco.test>', subject: `Damaged crate ${id}`,
      html: '<p>The crate <b>arrived</b> broken.</p><script>alert(1)</script><img src="https://tracker.test/x.png">',
      message_id: `<${id}@fieldco.test>`, ...changes,
    });

  it('refuses a wrong signature, a signature of another secret and an unknown mailbox with 401', async () => {
    const body = mail('wrong');
    const wrong = await hook(body, { signature: 'sha256=' + '0'.repeat(64) });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'Wrong signature' });
    expect((await hook(body, { secret: 'another-secret-another-secret-another' })).status).toBe(401);
    expect((await hook(mail('nobody', { to: 'nobody@inbound.opshub.test' }))).status).toBe(401);
    const { count } = await serviceClient().from('messages').select('id', { count: 'exact', head: true }).eq('external_id', '<wrong@fieldco.test>');
    expect(count).toBe(0);
  });

  it('refuses a timestamp more than 5 minutes away, a body over 1 MB and a body that is not JSON', async () => {
    const old = await hook(mail('old'), { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(old.status).toBe(401);
    expect(await old.json()).toEqual({ error: 'The timestamp is more than 5 minutes away' });
    const big = await hook(mail('big', { text: 'x'.repeat(1024 * 1024) }));
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: 'The body is larger than 1 MB' });
    expect((await hook('[1, 2]')).status).toBe(400);
    expect((await hook(mail('nofrom', { from: 'no address here' }))).status).toBe(400);
  });

  it('stores a valid delivery once, HTML as text, and the conversation shows in the inbox, unread and in bold', async () => {
    const body = mail('valid-1');
    const first = await hook(body);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ stored: true, duplicate: false });
    const again = await hook(body);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ stored: false, duplicate: true });
    const { data: rows } = await serviceClient().from('messages').select('body').eq('external_id', '<valid-1@fieldco.test>');
    expect(rows).toEqual([{ body: 'The crate arrived broken.' }]);

    const html = await page(admin, '/messages?q=valid-1');
    expect(readable(html)).toContain('Nora Field');
    expect(html).toMatch(/<strong[^>]*>Damaged crate valid-1<\/strong>/);
    expect(html).toContain('aria-label="Unread"');
    // The filters narrow it out and back in.
    expect(readable(await page(admin, '/messages?q=valid-1&status=resolved'))).toContain('No conversations match your search.');
    expect(readable(await page(admin, '/messages?q=valid-1&who=unassigned&channel=email'))).toContain('Damaged crate valid-1');
    expect(readable(await page(admin, '/messages?q=valid-1&who=mine'))).toContain('No conversations match your search.');
  });
});

describe("the Worker's email handler", () => {
  it('stores a raw message sent to the mailbox, and a reply to the conversation address threads into it', async () => {
    const handler = await worker();
    const raw = [
      'From: =?UTF-8?B?w5NzY2Fy?= <oscar@harbor.test>',
      'To: demo-inbox@inbound.opshub.test',
      'Subject: Customs papers',
      'Message-ID: <raw-1@harbor.test>',
      'Content-Type: multipart/alternative; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Where are the customs papers? =E2=82=AC20 fee?',
      '--b1',
      'Content-Type: text/html',
      '',
      '<p>html copy</p>',
      '--b1--',
      '',
    ].join('\r\n');
    const first = emailMessage('demo-inbox@inbound.opshub.test', raw);
    await handler.email(first.message, env, {});
    expect(first.rejected).toEqual([]);
    const conversationId = await conversationOf('<raw-1@harbor.test>');
    const { data: stored } = await serviceClient().from('messages').select('body, sender_name, sender_email').eq('external_id', '<raw-1@harbor.test>').single();
    expect(stored).toEqual({ body: 'Where are the customs papers? €20 fee?', sender_name: 'Óscar', sender_email: 'oscar@harbor.test' });

    const { data: token } = await serviceClient().from('conversations').select('reply_token').eq('id', conversationId).single();
    const reply = emailMessage(
      `demo-inbox+${(token as { reply_token: string }).reply_token}@inbound.opshub.test`,
      'From: oscar@harbor.test\r\nSubject: Something unrelated\r\nMessage-ID: <raw-2@harbor.test>\r\n\r\nAnd the fee?\r\n',
    );
    await handler.email(reply.message, env, {});
    expect(await conversationOf('<raw-2@harbor.test>')).toBe(conversationId);
  });

  it('rejects mail to an unknown mailbox and mail without a sender, storing nothing', async () => {
    const handler = await worker();
    const unknown = emailMessage('nobody@inbound.opshub.test', 'From: a@b.test\r\nMessage-ID: <raw-3@b.test>\r\n\r\nHi\r\n');
    await handler.email(unknown.message, env, {});
    expect(unknown.rejected).toEqual(['No such mailbox']);
    const malformed = emailMessage('demo-inbox@inbound.opshub.test', 'Subject: no sender\r\n\r\nHi\r\n');
    await handler.email(malformed.message, env, {});
    expect(malformed.rejected[0]).toMatch(/^Malformed message/);
  });
});

describe('a conversation', () => {
  it('sends a reply through the jobs runner (read in the outbox) and keeps a note inside', async () => {
    const ok = await hook(
      JSON.stringify({ to: MAILBOX, from: 'rita@reply.test', subject: 'Invoice copy', text: 'Please resend the invoice.', message_id: '<reply-case@reply.test>' }),
    );
    expect(ok.status).toBe(200);
    const id = await conversationOf('<reply-case@reply.test>');
    const html = await page(admin, `/messages/${id}`);
    expect(readable(html)).toContain('Please resend the invoice.');
    // Opened: read.
    const { data: read } = await serviceClient().from('conversations').select('unread').eq('id', id).single();
    expect(read).toEqual({ unread: false });

    const note = await admin.post(`/messages/${id}`, { intent: 'note', body: 'Finance says the PDF is fine' });
    expect(note.status).toBe(302);
    const replied = await admin.post(`/messages/${id}`, { intent: 'reply', body: 'Here it is again, Rita.' });
    expect(replied.status).toBe(302);
    // The action kicked the runner after its answer; a tick runs whatever it left.
    let sent: Awaited<ReturnType<typeof outbox>> = [];
    for (let i = 0; i < 50 && sent.length === 0; i++) {
      await runJobs();
      sent = (await outbox()).filter((m) => m.to === 'rita@reply.test');
      if (sent.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(sent).toHaveLength(1);
    expect(sent[0].subject).toBe('Re: Invoice copy');
    expect(sent[0].text).toContain('Here it is again, Rita.');
    expect(JSON.stringify(await outbox())).not.toContain('Finance says the PDF is fine');
    const { data: messages } = await serviceClient().from('messages').select('direction, delivery_status').eq('conversation_id', id).order('created_at');
    expect(messages).toEqual([
      { direction: 'inbound', delivery_status: null },
      { direction: 'note', delivery_status: null },
      { direction: 'outbound', delivery_status: 'sent' },
    ]);
    expect(readable(await page(admin, `/messages/${id}`))).toContain('Sent');

    // An empty reply is refused with the reason; resolve and reopen.
    const empty = await admin.post(`/messages/${id}`, { intent: 'reply', body: '   ' });
    expect(empty.status).toBe(400);
    expect(readable(await empty.text())).toContain('Write a message first');
    expect((await admin.post(`/messages/${id}`, { intent: 'resolve' })).status).toBe(302);
    const { data: resolved } = await serviceClient().from('conversations').select('status').eq('id', id).single();
    expect(resolved).toEqual({ status: 'resolved' });
  });

  it('an auditor reads it without the reply form and cannot reply; a client is sent to its portal; a signed-out visitor to sign in', async () => {
    const { data } = await serviceClient().from('conversations').select('id').limit(1).single();
    const id = (data as { id: string }).id;
    const auditor = await signIn(DEMO_AUDITOR);
    const html = await page(auditor, `/messages/${id}`);
    expect(html).not.toContain('name="body"');
    const refused = await auditor.post(`/messages/${id}`, { intent: 'reply', body: 'x' });
    expect(refused.status).toBe(403);
    const client = await signIn(DEMO_CLIENT);
    const away = await client.get(`/messages/${id}`);
    expect(away.status).toBe(302);
    expect(away.headers.get('Location')).not.toContain('/messages');
    const anonymous = await exports.default.fetch(new Request(`${ORIGIN}/messages/${id}`, { redirect: 'manual' }));
    expect(anonymous.status).toBe(302);
  });
});
