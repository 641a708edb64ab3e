// A small RFC 5322 / MIME reader for inbound mail (decision 060). postal-mime
// is not in the project's dependencies, so this reads what the helpdesk keeps:
// From, Subject, Message-ID, In-Reply-To, References and the text of the body
// (text/plain preferred, else text/html reduced to text). Everything is capped:
// a message over 1 MB is refused before parsing, at most 200 headers and 50
// MIME parts are read, and attachments are skipped. Plain functions, no
// runtime API: the unit tests read them under node.

export const MAX_MESSAGE_BYTES = 1024 * 1024;
const MAX_HEADERS = 200;
const MAX_PARTS = 50;

export class MalformedMail extends Error {}

export interface ParsedMail {
  fromEmail: string;
  fromName: string | null;
  subject: string;
  messageId: string | null;
  /** In-Reply-To then References, each a <…> id. */
  references: string[];
  text: string;
}

type Headers = Map<string, string[]>;

function splitHead(raw: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { head: raw, body: '' };
  return { head: raw.slice(0, match.index), body: raw.slice(match.index + match[0].length) };
}

function parseHeaders(head: string): Headers {
  const headers: Headers = new Map();
  // Unfold: a line starting with white space continues the one before.
  const lines = head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/);
  for (const line of lines.slice(0, MAX_HEADERS)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const list = headers.get(name) ?? [];
    list.push(line.slice(colon + 1).trim());
    headers.set(name, list);
  }
  return headers;
}

const first = (headers: Headers, name: string) => headers.get(name)?.[0] ?? null;

function bytesToText(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset || 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function latin1Bytes(value: string): Uint8Array {
  const bytes = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) bytes[i] = value.charCodeAt(i) & 0xff;
  return bytes;
}

function base64Bytes(value: string): Uint8Array {
  const clean = value.replace(/[^A-Za-z0-9+/]/g, '');
  try {
    return latin1Bytes(atob(clean.slice(0, clean.length - (clean.length % 4))));
  } catch {
    return new Uint8Array();
  }
}

function quotedPrintableBytes(value: string, header = false): Uint8Array {
  const source = header ? value.replace(/_/g, ' ') : value.replace(/=\r?\n/g, '');
  const out: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const hex = source[i] === '=' ? source.slice(i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else {
      out.push(source.charCodeAt(i) & 0xff);
    }
  }
  return new Uint8Array(out);
}

/** RFC 2047 encoded words (=?charset?B|Q?…?=) decoded; adjacent words join without the space between. */
export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?*]+)(?:\*[^?]*)?\?([BbQq])\?([^?]*)\?=/g, (_all, charset: string, encoding: string, text: string) =>
      bytesToText(encoding.toUpperCase() === 'B' ? base64Bytes(text) : quotedPrintableBytes(text, true), charset.toLowerCase()),
    );
}

/** The first address of a From header, and its display name. */
export function parseFrom(value: string): { email: string; name: string | null } {
  const decoded = decodeWords(value);
  const angle = /<([^<>\s]+@[^<>\s]+)>/.exec(decoded);
  if (angle) {
    const name = decoded.slice(0, angle.index).trim().replace(/^"(.*)"$/, '$1').trim();
    return { email: angle[1].toLowerCase(), name: name || null };
  }
  const bare = /[^\s<>",;:()]+@[^\s<>",;:()]+/.exec(decoded);
  if (!bare) throw new MalformedMail('The mail has no sender address');
  return { email: bare[0].toLowerCase(), name: null };
}

function contentType(headers: Headers): { type: string; params: Record<string, string> } {
  const value = first(headers, 'content-type') ?? 'text/plain';
  const [type, ...rest] = value.split(';');
  const params: Record<string, string> = {};
  for (const param of rest) {
    const eq = param.indexOf('=');
    if (eq > 0) params[param.slice(0, eq).trim().toLowerCase()] = param.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
  }
  return { type: type.trim().toLowerCase(), params };
}

function decodeBody(headers: Headers, body: string): string {
  const encoding = (first(headers, 'content-transfer-encoding') ?? '').toLowerCase();
  const charset = (contentType(headers).params.charset ?? 'utf-8').toLowerCase();
  if (encoding === 'base64') return bytesToText(base64Bytes(body), charset);
  if (encoding === 'quoted-printable') return bytesToText(quotedPrintableBytes(body), charset);
  return bytesToText(latin1Bytes(body), charset);
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

/** The text of a part tree: the first text/plain, else the first text/html as text. */
function bodyText(headers: Headers, body: string, budget: { parts: number }): { plain?: string; html?: string } {
  if (--budget.parts < 0) return {};
  const { type, params } = contentType(headers);
  const disposition = (first(headers, 'content-disposition') ?? '').toLowerCase();
  if (disposition.startsWith('attachment')) return {};
  if (type.startsWith('multipart/') && params.boundary) {
    const found: { plain?: string; html?: string } = {};
    const delimiter = `--${params.boundary}`;
    for (const chunk of body.split(delimiter).slice(1)) {
      if (chunk.startsWith('--')) break;
      const part = splitHead(chunk.replace(/^\r?\n/, ''));
      const inner = bodyText(parseHeaders(part.head), part.body, budget);
      found.plain ??= inner.plain;
      found.html ??= inner.html;
      if (found.plain) break;
    }
    return found;
  }
  if (type === 'text/plain') return { plain: decodeBody(headers, body) };
  if (type === 'text/html') return { html: decodeBody(headers, body) };
  return {};
}

const ids = (value: string | null) => (value ? [...value.matchAll(/<[^<>\s]{1,900}>/g)].map((m) => m[0]) : []);

/** Reads a raw message (as a binary string or UTF-8 text). Throws MalformedMail when it has no sender. */
export function parseMail(raw: string): ParsedMail {
  if (raw.length > MAX_MESSAGE_BYTES) throw new MalformedMail('The mail is larger than 1 MB');
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const from = first(headers, 'from');
  if (!from) throw new MalformedMail('The mail has no From header');
  const sender = parseFrom(from);
  const found = bodyText(headers, body, { parts: MAX_PARTS });
  const text = found.plain ?? (found.html !== undefined ? htmlToText(found.html) : '');
  return {
    fromEmail: sender.email,
    fromName: sender.name,
    subject: decodeWords(first(headers, 'subject') ?? ''),
    messageId: ids(first(headers, 'message-id'))[0] ?? null,
    references: [...ids(first(headers, 'in-reply-to')), ...ids(first(headers, 'references')).reverse()].slice(0, 50),
    text: text.replace(/\r\n/g, '\n').trim(),
  };
}
