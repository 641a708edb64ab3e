// The message an SMTP server is handed (decision 039): headers refused when
// they carry a control character (a CR/LF would start a header or the body of
// its own), the subject always an RFC 2047 encoded word, every part base64.
// Plain functions, no runtime API: the unit tests read them under node.
import type { OutgoingMail } from '../../../supabase/functions/_shared/mail-api';
import { assertHeaderSafe, MailHeaderError } from '../../../supabase/functions/_shared/mail-api';

export { MailHeaderError };

const encoder = new TextEncoder();

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Base64 in lines of 76 characters, as RFC 2045 asks. */
function base64Lines(value: string | Uint8Array): string {
  const encoded = base64(typeof value === 'string' ? encoder.encode(value) : value);
  return encoded.replace(/.{1,76}/g, '$&\r\n');
}

/**
 * A header value as RFC 2047 encoded words (UTF-8, B encoding), never
 * splitting a character, folded onto continuation lines so that no line
 * (the first one holds `used` characters already, e.g. "Subject: ") is
 * longer than 76: whatever the text holds, the header stays one header.
 */
export function encodeWords(value: string, used = 0): string {
  // Each word is "=?UTF-8?B?" + base64 + "?=": 12 characters around the base64.
  const bytesFor = (room: number) => Math.max(3, Math.floor((room - 12) / 4) * 3);
  const words: number[][] = [];
  let limit = bytesFor(76 - used);
  let chunk: number[] = [];
  for (const char of value) {
    const bytes = encoder.encode(char);
    if (chunk.length + bytes.length > limit && chunk.length > 0) {
      words.push(chunk);
      chunk = [];
      // A continuation line starts with one space.
      limit = bytesFor(75);
    }
    chunk.push(...bytes);
  }
  if (chunk.length > 0 || words.length === 0) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${base64(new Uint8Array(w))}?=`).join('\r\n ');
}

const ADDRESS = /^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\]+\.[^\s@<>()[\],;:"\\]+$/;

export interface Mailbox {
  name: string;
  address: string;
}

/** `Name <a@b.c>` or `a@b.c`; a control character or an unusable address is refused. */
export function parseMailbox(value: string, header: string): Mailbox {
  assertHeaderSafe(header, value);
  const trimmed = value.trim();
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(trimmed);
  const name = named ? named[1].trim().replace(/^"(.*)"$/, '$1') : '';
  const address = named ? named[2].trim() : trimmed;
  if (!ADDRESS.test(address)) throw new MailHeaderError(`${header}: not a usable address`);
  return { name, address };
}

function formatMailbox(mailbox: Mailbox): string {
  if (!mailbox.name) return mailbox.address;
  // Printable ASCII without quotes or backslashes may stand quoted; anything else is encoded.
  const plain = /^[\x20-\x7e]*$/.test(mailbox.name) && !/["\\]/.test(mailbox.name);
  return `${plain ? `"${mailbox.name}"` : encodeWords(mailbox.name, 6)} <${mailbox.address}>`;
}

export interface BuiltMessage {
  from: Mailbox;
  to: Mailbox;
  /** The message as handed to DATA (CRLF line ends, not yet dot-stuffed). */
  data: string;
}

function boundary(): string {
  return `opshub-${crypto.randomUUID()}`;
}

function textPart(type: string, content: string): string {
  return `Content-Type: ${type}; charset=UTF-8\r\nContent-Transfer-Encoding: base64\r\n\r\n${base64Lines(content)}`;
}

/** Builds the whole message; throws MailHeaderError before anything is sent when a header is unsafe. */
export function buildMessage(mail: OutgoingMail, fromValue: string, now = new Date()): BuiltMessage {
  const from = parseMailbox(fromValue, 'From');
  const to = parseMailbox(mail.to, 'To');
  assertHeaderSafe('Subject', mail.subject);
  let body = mail.html
    ? (() => {
        const b = boundary();
        return {
          type: `multipart/alternative; boundary="${b}"`,
          content: `--${b}\r\n${textPart('text/plain', mail.text)}--${b}\r\n${textPart('text/html', mail.html)}--${b}--\r\n`,
        };
      })()
    : { type: 'text/plain; charset=UTF-8', content: base64Lines(mail.text), base64: true };
  if (mail.attachments?.length) {
    const b = boundary();
    const first = `Content-Type: ${body.type}\r\n${'base64' in body ? 'Content-Transfer-Encoding: base64\r\n' : ''}\r\n${body.content}`;
    const parts = mail.attachments.map((a) => {
      assertHeaderSafe('Attachment name', a.filename);
      assertHeaderSafe('Attachment type', a.contentType);
      if (!/^[\w.+-]+\/[\w.+-]+$/.test(a.contentType)) throw new MailHeaderError('Attachment type: not a media type');
      const name = /^[\x20-\x7e]*$/.test(a.filename) && !/["\\]/.test(a.filename) ? a.filename : encodeWords(a.filename);
      return (
        `Content-Type: ${a.contentType}; name="${name}"\r\nContent-Disposition: attachment; filename="${name}"\r\n` +
        `Content-Transfer-Encoding: base64\r\n\r\n${a.content.replace(/\s+/g, '').replace(/.{1,76}/g, '$&\r\n')}`
      );
    });
    body = { type: `multipart/mixed; boundary="${b}"`, content: [first, ...parts].map((p) => `--${b}\r\n${p}`).join('') + `--${b}--\r\n` };
  }
  const threading: string[] = [];
  if (mail.replyTo) threading.push(`Reply-To: ${formatMailbox(parseMailbox(mail.replyTo, 'Reply-To'))}`);
  for (const [name, value] of [['In-Reply-To', mail.inReplyTo], ['Message-ID', mail.messageId]] as const) {
    if (value === undefined) continue;
    assertHeaderSafe(name, value);
    if (!/^<[^<>\s]{1,900}>$/.test(value)) throw new MailHeaderError(`${name}: not a message id`);
  }
  if (mail.inReplyTo) threading.push(`In-Reply-To: ${mail.inReplyTo}`, `References: ${mail.inReplyTo}`);
  const headers = [
    `From: ${formatMailbox(from)}`,
    `To: ${formatMailbox(to)}`,
    `Subject: ${encodeWords(mail.subject, 'Subject: '.length)}`,
    `Date: ${now.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: ${mail.messageId ?? `<${crypto.randomUUID()}@${from.address.split('@')[1]}>`}`,
    ...threading,
    'MIME-Version: 1.0',
    `Content-Type: ${body.type}`,
    ...('base64' in body ? ['Content-Transfer-Encoding: base64'] : []),
  ];
  return { from, to, data: `${headers.join('\r\n')}\r\n\r\n${body.content}` };
}

/** DATA's transparency (RFC 5321 4.5.2): a line starting with a dot gets another. */
export function dotStuff(data: string): string {
  return data.replace(/(^|\r\n)\./g, '$1..');
}
