// The message an SMTP server is handed and where it may be sent (decision
// 039): header values with control characters refused, the subject always
// RFC 2047 words that decode to what was written, dot-stuffing; SMTP ports and
// public addresses only, the local listener by exact host:port.
import { describe, expect, it } from 'vitest';
import { buildMessage, dotStuff, encodeWords, MailHeaderError } from '../../app/lib/mail/mime';
import { allowedHosts, smtpTargetProblem } from '../../app/lib/mail/smtp-policy';

const decodeWords = (header: string) =>
  header
    .split('\r\n ')
    .map((word) => /^=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=$/.exec(word)![1])
    .flatMap((b64) => [...atob(b64)].map((c) => c.charCodeAt(0)))
    .reduce((text, byte, i, all) => (i === all.length - 1 ? new TextDecoder().decode(new Uint8Array(all)) : text), '');

describe('encodeWords', () => {
  it('decodes to the text, never splits a character, keeps every line within 76', () => {
    for (const text of ['', 'Hi', 'Angebot für Müller – ✓ '.repeat(9), '😀'.repeat(40), 'a\r\nBcc: x'.repeat(3)]) {
      const encoded = encodeWords(text, 'Subject: '.length);
      expect(decodeWords(encoded)).toBe(text);
      const lines = `Subject: ${encoded}`.split('\r\n');
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(76);
      expect(lines.slice(1).every((l) => l.startsWith(' '))).toBe(true);
    }
  });
});

describe('buildMessage', () => {
  const mail = { to: 'client@example.com', subject: 'Quote Q-1', text: 'Hello' };
  it('refuses a control character in the subject, the recipient, the sender or an attachment name', () => {
    const bad = [
      { ...mail, subject: 'Hi\r\nBcc: x@evil.example' },
      { ...mail, to: 'client@example.com\r\nBcc: x@evil.example' },
      { ...mail, to: 'client@example.com>\nRCPT TO:<x@evil.example' },
      { ...mail, attachments: [{ filename: 'a\r\n.pdf', content: 'AA==', contentType: 'application/pdf' }] },
    ];
    for (const m of bad) expect(() => buildMessage(m, 'office@example.com')).toThrow(MailHeaderError);
    expect(() => buildMessage(mail, 'Office\r\nBcc: x <office@example.com>')).toThrow(MailHeaderError);
    expect(() => buildMessage({ ...mail, to: 'a@b.c, d@e.f' }, 'office@example.com')).toThrow(MailHeaderError);
  });

  it('writes one Subject header as encoded words and the addresses as parsed', () => {
    const built = buildMessage({ ...mail, subject: 'Für Sie' }, 'Böse Firma <office@example.com>');
    expect(built.from).toEqual({ name: 'Böse Firma', address: 'office@example.com' });
    const headers = built.data.slice(0, built.data.indexOf('\r\n\r\n'));
    expect(headers.match(/^Subject: /gm)).toHaveLength(1);
    expect(headers).toContain(`Subject: =?UTF-8?B?${btoa(String.fromCharCode(...new TextEncoder().encode('Für Sie')))}?=`);
    expect(headers).toMatch(/^From: =\?UTF-8\?B\?.+\?= <office@example.com>$/m);
  });

  it('dot-stuffs lines that start with a dot', () => {
    expect(dotStuff('.a\r\nb\r\n.\r\n..c')).toBe('..a\r\nb\r\n..\r\n...c');
  });
});

describe('smtpTargetProblem', () => {
  const none = allowedHosts(undefined);
  it('allows public hosts on SMTP ports', () => {
    for (const [host, port] of [['smtp.example.com', 587], ['mail.example.co.uk', 465], ['8.8.8.8', 25], ['2001:4860::8888', 2525]] as const) {
      expect(smtpTargetProblem(host, port, none), `${host}:${port}`).toBeNull();
    }
  });
  it('refuses other ports and private, loopback, link-local and odd hosts', () => {
    const refused: [string, number][] = [
      ['smtp.example.com', 22], ['smtp.example.com', 6379], ['127.0.0.1', 587], ['127.1.2.3', 25], ['10.0.0.1', 25],
      ['172.16.5.4', 25], ['192.168.1.1', 25], ['169.254.169.254', 25], ['100.64.0.1', 25], ['0.0.0.0', 25],
      ['localhost', 25], ['mail.localhost', 25], ['printer.local', 25], ['metadata.google.internal', 25],
      ['::1', 25], ['[::1]', 25], ['::', 25], ['fe80::1', 25], ['fd00::1', 25], ['::ffff:127.0.0.1', 25], ['::ffff:7f00:1', 25],
      ['2130706433', 25], ['0x7f.1', 25], ['intranet', 25], ['smtp.example.com/x', 25],
    ];
    for (const [host, port] of refused) expect(smtpTargetProblem(host, port, none), `${host}:${port}`).not.toBeNull();
  });
  it('the allow-list lets exactly its host:port through', () => {
    const allow = allowedHosts('127.0.0.1:54325, bad entry');
    expect(smtpTargetProblem('127.0.0.1', 54325, allow)).toBeNull();
    expect(smtpTargetProblem('127.0.0.1', 54326, allow)).not.toBeNull();
    expect(smtpTargetProblem('localhost', 54325, allow)).not.toBeNull();
  });
});
