// POST /hooks/email (decision 060): inbound mail a provider posts as JSON,
// signed with the inbound secret of the mailbox it is addressed to.
//   X-OpsHub-Timestamp: unix seconds, within 5 minutes of now
//   X-OpsHub-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">
// Body: { "to", "from", "subject", "text" or "html", "message_id",
// "in_reply_to", "references" } or { "to", "raw": "<the RFC 5322 message>" }.
// Answered by the Worker before React Router (a provider sends no Origin):
// 413 over 1 MB, 400 not such JSON, 401 a wrong or old signature, 404 an
// unknown mailbox, 200 stored (or already stored: the same Message-ID).
import { serviceClient } from '~/jobs/runner.server';
import { MAX_MESSAGE_BYTES, MalformedMail, htmlToText, parseFrom, parseMail, type ParsedMail } from './parse-mail';
import { readCapped, storeInboundMail, UnknownMailbox } from './receive.server';

export const EMAIL_HOOK_PATH = '/hooks/email';
const MAX_SKEW_SECONDS = 5 * 60;

const answer = (status: number, body: Record<string, unknown>) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
const refuse = (status: number, error: string) => answer(status, { error });

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

export async function signEmailHook(secret: string, timestamp: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return `sha256=${hex(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${timestamp}.${body}`)))}`;
}

function equalInConstantTime(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const text = (value: unknown, max: number): string | null => (typeof value === 'string' && value.length <= max ? value : null);
const idList = (value: unknown): string[] =>
  (Array.isArray(value) ? value : typeof value === 'string' ? value.split(/\s+/) : []).filter((v): v is string => typeof v === 'string' && /^<[^<>\s]{1,900}>$/.test(v)).slice(0, 50);

async function mailOf(json: Record<string, unknown>): Promise<ParsedMail> {
  const raw = text(json.raw, MAX_MESSAGE_BYTES);
  // JSON carries text: the raw message as UTF-8 bytes.
  if (raw !== null) return parseMail(new TextEncoder().encode(raw));
  const from = text(json.from, 1000);
  if (!from) throw new MalformedMail('"from" is missing');
  const sender = parseFrom(from);
  const plain = text(json.text, MAX_MESSAGE_BYTES);
  const html = text(json.html, MAX_MESSAGE_BYTES);
  const messageId = text(json.message_id, 998);
  return {
    fromEmail: sender.email,
    fromName: text(json.from_name, 200) ?? sender.name,
    subject: text(json.subject, 1000) ?? '',
    messageId: messageId && /^<[^<>\s]+>$/.test(messageId) ? messageId : messageId ? `<${messageId}>` : null,
    references: [...idList(json.in_reply_to), ...idList(json.references).reverse()].slice(0, 50),
    text: plain ?? (html !== null ? htmlToText(html) : ''),
  };
}

export async function handleEmailHook(request: Request, env: Env, now = Date.now()): Promise<Response> {
  if (request.method !== 'POST') return refuse(405, 'Use POST');
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  if (declared > MAX_MESSAGE_BYTES) return refuse(413, 'The body is larger than 1 MB');
  const binary = await readCapped(request.body);
  if (binary === null) return refuse(413, 'The body is larger than 1 MB');
  const body = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));

  const timestamp = request.headers.get('X-OpsHub-Timestamp') ?? '';
  const signature = request.headers.get('X-OpsHub-Signature') ?? '';
  if (!/^\d{1,12}$/.test(timestamp) || !signature) return refuse(401, 'Missing signature or timestamp');
  if (Math.abs(now / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return refuse(401, 'The timestamp is more than 5 minutes away');

  let json: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(body);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error();
    json = parsed as Record<string, unknown>;
  } catch {
    return refuse(400, 'The body is not a JSON object');
  }
  const to = text(json.to, 320);
  if (!to) return refuse(400, '"to" is missing');

  const admin = serviceClient(env);
  if (!admin) return refuse(503, 'Inbound mail is not set up (no service role key)');
  const { data: secret, error } = await admin.rpc('inbound_secret', { p_to: to });
  if (error) throw new Error(`reading the mailbox failed: ${error.message}`);
  // An unknown mailbox answers as a wrong signature does: nothing to learn by guessing.
  if (typeof secret !== 'string' || !equalInConstantTime(await signEmailHook(secret, timestamp, body), signature)) {
    return refuse(401, 'Wrong signature');
  }

  try {
    const stored = await storeInboundMail(env, to, await mailOf(json));
    return answer(200, { stored: !stored.duplicate, duplicate: stored.duplicate, conversation_id: stored.conversation_id });
  } catch (caught) {
    if (caught instanceof MalformedMail) return refuse(400, caught.message);
    if (caught instanceof UnknownMailbox) return refuse(404, caught.message);
    throw caught;
  }
}
