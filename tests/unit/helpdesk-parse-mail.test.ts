// The helpdesk's MIME reading with postal-mime (decision 071): sender, encoded words,
// threading ids, the text part preferred, HTML reduced to text with scripts
// dropped, attachments skipped, a message without a sender refused, the 1 MB
// cap; and the threading headers of a reply refuse anything that would start
// a header of its own.
import { describe, expect, it } from 'vitest';
import { htmlToText, MalformedMail, MAX_PARTS, parseFrom, parseMail, passedAuthentication } from '../../app/features/helpdesk/inbound/parse-mail';
import { ALTERNATIVE, ATTACHMENT_BYTES, deeplyNested, HTML_ONLY, manyParts, WITH_ATTACHMENT } from '../support/mail-samples';
import { buildMessage, MailHeaderError } from '../../app/lib/mail/mime';

describe('parseMail (postal-mime, decision 071)', () => {
  it('reads the sender, subject, ids and the text part of a real-shaped message', async () => {
    const mail = await parseMail(
      [
        'From: "Ana =?UTF-8?Q?L=C3=B3pez?=" <Ana@Example.TEST>',
        'Subject: =?UTF-8?B?UmU6IGNhZsOp?=',
        'Message-ID: <m2@example.test>',
        'In-Reply-To: <m1@example.test>',
        'References: <m0@example.test>',
        '  <m1@example.test>',
        'Content-Type: multipart/mixed; boundary=outer',
        '',
        '--outer',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<div>Hello<script>steal()</script><br>there &amp; here</div>',
        '--outer',
        'Content-Type: application/pdf',
        'Content-Disposition: attachment; filename="a.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        'JVBERi0=',
        '--outer--',
      ].join('\r\n'),
    );
    expect(mail).toMatchObject({
      fromEmail: 'ana@example.test',
      fromName: 'Ana López',
      subject: 'Re: café',
      messageId: '<m2@example.test>',
      references: ['<m1@example.test>', '<m1@example.test>', '<m0@example.test>'],
      text: 'Hello\nthere & here',
    });
    expect(mail.attachments?.map((a) => [a.filename, a.mimeType, new TextDecoder().decode(a.content)])).toEqual([['a.pdf', 'application/pdf', '%PDF-']]);
  });

  it('multipart/alternative: the text part, encoded words in name and subject, folded references', async () => {
    const mail = await parseMail(new TextEncoder().encode(ALTERNATIVE));
    expect(mail).toMatchObject({
      fromEmail: 'ana@example.test',
      fromName: 'Ana López',
      subject: 'Re: café order €20',
      messageId: '<m2@example.test>',
      references: ['<m1@example.test>', '<m1@example.test>', '<m0@example.test>'],
      text: 'Hello, the café order is late. Fee €20?',
      attachments: [],
    });
  });

  it('HTML only in windows-1252: reduced to text, scripts, images and forms gone', async () => {
    const mail = await parseMail(HTML_ONLY);
    expect(mail.fromName).toBe('Jörg Müller');
    expect(mail.subject).toBe('Lieferung für München');
    expect(mail.text).toBe('Die Lieferung für München & Berlin – wann?');
  });

  it('an attachment with an encoded-word filename keeps its bytes', async () => {
    const mail = await parseMail(WITH_ATTACHMENT);
    expect(mail.text).toBe('The papers are attached.');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments?.[0].filename).toBe('Zollerklärung.pdf');
    expect(mail.attachments?.[0].mimeType).toBe('application/pdf');
    expect(new TextDecoder().decode(mail.attachments?.[0].content)).toBe(ATTACHMENT_BYTES);
  });

  it('refuses a message without a sender, over 1 MB, over the parts cap, nested too deep, or past the deadline, each with its reason', async () => {
    await expect(parseMail('Subject: hi\r\n\r\nbody')).rejects.toThrow(new MalformedMail('The mail has no From header'));
    await expect(parseMail(`From: a@b.test\r\n\r\n${'x'.repeat(1024 * 1024)}`)).rejects.toThrow(new MalformedMail('The mail is larger than 1 MB'));
    await expect(parseMail(manyParts(MAX_PARTS + 1))).rejects.toThrow(new MalformedMail(`The mail has more than ${MAX_PARTS} MIME parts`));
    expect((await parseMail(manyParts(MAX_PARTS - 2))).text).toMatch(/^part 0/);
    await expect(parseMail(deeplyNested(25))).rejects.toThrow(/could not be read: Maximum MIME nesting depth/);
    await expect(parseMail(ALTERNATIVE, 0)).rejects.toThrow(new MalformedMail('Reading the mail took longer than 0 seconds'));
  });

  it('drops scripts, styles, comments and forms from HTML', () => {
    expect(htmlToText('<style>p{}</style><p>Hi</p><!-- x --><form><input value="y"></form><script>1</script>ok')).toBe('Hi\nok');
  });

  it("reads a hook's from with postal-mime's address parser", () => {
    expect(parseFrom('=?UTF-8?B?w5NzY2Fy?= <Oscar@Harbor.test>')).toEqual({ email: 'oscar@harbor.test', name: 'Óscar' });
    expect(parseFrom('plain@addr.test')).toEqual({ email: 'plain@addr.test', name: null });
    expect(() => parseFrom('no address here')).toThrow(MalformedMail);
  });
});

describe("a reply's threading headers", () => {
  const mail = { to: 'a@b.test', subject: 'Re: x', text: 'hi' };
  it('are written when they are message ids, and refused with a line break', () => {
    const built = buildMessage({ ...mail, inReplyTo: '<m1@example.test>', messageId: '<own@opshub.test>', replyTo: 'in+tok@in.test' }, 'from@opshub.test');
    expect(built.data).toContain('In-Reply-To: <m1@example.test>\r\n');
    expect(built.data).toContain('Message-ID: <own@opshub.test>\r\n');
    expect(built.data).toContain('Reply-To: in+tok@in.test\r\n');
    expect(() => buildMessage({ ...mail, inReplyTo: '<m1@x>\r\nBcc: evil@x.test' }, 'from@opshub.test')).toThrow(MailHeaderError);
    expect(() => buildMessage({ ...mail, replyTo: 'a@b.test\r\nBcc: evil@x.test' }, 'from@opshub.test')).toThrow(MailHeaderError);
  });
});

describe('the receiving side’s authentication verdict (decision 071)', () => {
  it('passes on DMARC pass or a DKIM pass signed by the From domain, and nothing else', async () => {
    expect(passedAuthentication(['mx.cloudflare.net; dkim=pass header.d=opshub.test; spf=pass; dmarc=pass header.from=opshub.test'], 'opshub.test')).toBe(true);
    expect(passedAuthentication(['mx.test; dkim=pass header.d=opshub.test; spf=fail'], 'opshub.test')).toBe(true);
    expect(passedAuthentication(['mx.test; dkim=pass header.d=evil.test; spf=fail; dmarc=fail'], 'opshub.test')).toBe(false);
    expect(passedAuthentication([], 'opshub.test')).toBe(false);
    expect((await parseMail(WITH_ATTACHMENT)).authenticated).toBe(false);
    expect((await parseMail(`Authentication-Results: mx.test; dmarc=pass\r\n${WITH_ATTACHMENT}`)).authenticated).toBe(true);
  });
});
