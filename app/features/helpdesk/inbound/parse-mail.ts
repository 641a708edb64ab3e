// Inbound mail read with postal-mime (decision 071, replacing decision 060's
// own reader). What the helpdesk keeps: From, Subject, Message-ID,
// In-Reply-To, References, the text of the body (text/plain preferred, else
// text/html reduced to text) and the attachments (name, type, bytes).
//
// Everything is capped, and a message over a cap fails alone with a
// MalformedMail whose text says which cap (the callers reject it once, never
// retry it): at most 1 MB raw, 64 KB of headers per part, 20 levels of MIME
// nesting, 60 parts (boundary lines counted before parsing, so a message of
// thousands of tiny parts is refused without being walked), 20 attachments,
// and a deadline of PARSE_DEADLINE_MS. postal-mime runs on the Web platform
// only (no node: imports): tests/worker/helpdesk-postal-mime.test.ts reads
// real-shaped messages with it inside workerd.
import PostalMime, { addressParser, decodeWords, type Address, type Email } from 'postal-mime';

export const MAX_MESSAGE_BYTES = 1024 * 1024;
export const MAX_PARTS = 60;
export const MAX_ATTACHMENTS = 20;
const MAX_HEADER_BYTES = 64 * 1024;
const MAX_NESTING = 20;
export const PARSE_DEADLINE_MS = 2000;

export class MalformedMail extends Error {}

export interface InboundAttachment {
  filename: string;
  mimeType: string;
  content: Uint8Array;
}

export interface ParsedMail {
  fromEmail: string;
  fromName: string | null;
  subject: string;
  messageId: string | null;
  /** In-Reply-To then References (newest first), each a <…> id. */
  references: string[];
  text: string;
  attachments?: InboundAttachment[];
  /** From a raw message: did the receiving side's Authentication-Results pass it for the From's domain? Unknown for a JSON hook. */
  authenticated?: boolean;
}

/**
 * The receiving side's verdict (RFC 8601 Authentication-Results, added by
 * Cloudflare Email Routing or the provider): DMARC pass, or a DKIM pass
 * signed by the From's own domain. Anything else, or no header, is not a pass.
 */
export function passedAuthentication(results: string[], fromDomain: string): boolean {
  return results.some((value) => {
    const text = value.toLowerCase();
    if (/\bdmarc=pass\b/.test(text)) return true;
    return [...text.matchAll(/\bdkim=pass\b[^;]*?header\.(?:d|i)=@?([a-z0-9.-]+)/g)].some((m) => m[1] === fromDomain);
  });
}

/** HTML as plain text: scripts, styles and every tag dropped, entities read, blank runs collapsed. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head|template)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(br|\/p|\/div|\/li|\/tr|\/h[1-6])\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&lt;/gi, '<')
    .replace(/&gt;/gi, '>')
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&#(\d{1,6});/g, (_all, code: string) => String.fromCodePoint(Math.min(Number(code), 0x10ffff)))
    .replace(/&amp;/gi, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const ADDRESS = /^[^\s<>",;:()@]+@[^\s<>",;:()@]+$/;

/** The first mailbox of a parsed address list (a group's first member). */
function firstMailbox(address: Address | undefined): { email: string; name: string | null } | null {
  const box = address?.group ? address.group[0] : address;
  const email = box?.address?.trim().toLowerCase() ?? '';
  if (!ADDRESS.test(email)) return null;
  return { email, name: box?.name?.trim() || null };
}

/** The first address of a From header and its display name (the JSON hook's `from`), read by postal-mime's address parser. */
export function parseFrom(value: string): { email: string; name: string | null } {
  const found = firstMailbox(addressParser(decodeWords(value))[0]);
  if (!found) throw new MalformedMail('The mail has no sender address');
  return found;
}

const ids = (value: string | undefined) => (value ? [...value.matchAll(/<[^<>\s]{1,900}>/g)].map((m) => m[0]) : []);

/** Boundary delimiter lines ("--…" at a line start), counted on the raw bytes before parsing. */
function countPartLines(raw: string | Uint8Array): number {
  const text = typeof raw === 'string' ? raw : new TextDecoder().decode(raw);
  let count = 0;
  for (const _ of text.matchAll(/(?:^|\n)--[^\r\n]/g)) {
    if (++count > MAX_PARTS) break;
  }
  return count;
}

/**
 * The parse under a deadline: refused when it has not settled in time, or when
 * it settled but took longer (postal-mime reads a buffer without yielding, so
 * a timer alone cannot stop it; inside workerd the clock also stands still
 * during computation, and the Worker's CPU limit is the last guard there: the
 * size, parts and nesting caps keep the work small and linear).
 */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  const tooLong = () => new MalformedMail(`Reading the mail took longer than ${ms / 1000} seconds`);
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(tooLong()), ms);
  });
  try {
    const result = await Promise.race([work, deadline]);
    if (performance.now() - started > ms) throw tooLong();
    return result;
  } finally {
    clearTimeout(timer);
  }
}

function attachmentsOf(email: Email): InboundAttachment[] {
  return email.attachments
    .filter((a) => a.disposition !== 'inline' || a.filename)
    .map((a, index) => ({
      // eslint-disable-next-line no-control-regex -- control characters are what this removes from a sender's file name
      filename: (a.filename ?? `attachment-${index + 1}`).replace(/[\x00-\x1f\x7f/\\]+/g, ' ').trim().slice(0, 200) || `attachment-${index + 1}`,
      mimeType: /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/i.test(a.mimeType) ? a.mimeType.toLowerCase() : 'application/octet-stream',
      content: a.content instanceof Uint8Array ? a.content : typeof a.content === 'string' ? new TextEncoder().encode(a.content) : new Uint8Array(a.content),
    }));
}

/**
 * Reads a raw message (bytes, or a binary string of one char per byte).
 * Throws MalformedMail, with the reason, when it has no sender or goes over a cap.
 */
export async function parseMail(raw: string | Uint8Array, deadlineMs = PARSE_DEADLINE_MS): Promise<ParsedMail> {
  if (raw.length > MAX_MESSAGE_BYTES) throw new MalformedMail('The mail is larger than 1 MB');
  if (countPartLines(raw) > MAX_PARTS) throw new MalformedMail(`The mail has more than ${MAX_PARTS} MIME parts`);
  // A binary string is bytes: postal-mime would read a JS string as UTF-16 text.
  const bytes = typeof raw === 'string' ? Uint8Array.from(raw, (c) => c.charCodeAt(0) & 0xff) : raw;
  let email: Email;
  try {
    email = await withDeadline(
      PostalMime.parse(bytes, { attachmentEncoding: 'arraybuffer', maxHeadersSize: MAX_HEADER_BYTES, maxNestingDepth: MAX_NESTING }),
      deadlineMs,
    );
  } catch (error) {
    if (error instanceof MalformedMail) throw error;
    throw new MalformedMail(`The mail could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (email.attachments.length > MAX_ATTACHMENTS) throw new MalformedMail(`The mail has more than ${MAX_ATTACHMENTS} attachments`);
  const hasFrom = email.headers.some((h) => h.key === 'from');
  if (!hasFrom) throw new MalformedMail('The mail has no From header');
  const sender = firstMailbox(email.from);
  if (!sender) throw new MalformedMail('The mail has no sender address');
  const text = email.text?.trim() ? email.text : email.html !== undefined ? htmlToText(email.html) : '';
  return {
    fromEmail: sender.email,
    fromName: sender.name,
    subject: email.subject ?? '',
    messageId: ids(email.messageId)[0] ?? null,
    references: [...ids(email.inReplyTo), ...ids(email.references).reverse()].slice(0, 50),
    text: text.replace(/\r\n/g, '\n').trim(),
    attachments: attachmentsOf(email),
    authenticated: passedAuthentication(
      email.headers.filter((h) => h.key === 'authentication-results').map((h) => h.value),
      sender.email.split('@')[1],
    ),
  };
}
