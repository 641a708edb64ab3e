// The helpdesk's small MIME reader (decision 060): sender, encoded words,
// threading ids, the text part preferred, HTML reduced to text with scripts
// dropped, attachments skipped, a message without a sender refused, the 1 MB
// cap; and the threading headers of a reply refuse anything that would start
// a header of its own.
import { describe, expect, it } from 'vitest';
import { htmlToText, MalformedMail, parseMail } from '../../app/features/helpdesk/inbound/parse-mail';
import { buildMessage, MailHeaderError } from '../../app/lib/mail/mime';

describe('parseMail', () => {
  it('reads the sender, subject, ids and the text part', () => {
    const mail = parseMail(
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
    expect(mail).toEqual({
      fromEmail: 'ana@example.test',
      fromName: 'Ana López',
      subject: 'Re: café',
      messageId: '<m2@example.test>',
      references: ['<m1@example.test>', '<m1@example.test>', '<m0@example.test>'],
      text: 'Hello\nthere & here',
    });
  });

  it('refuses a message without a sender and one over 1 MB', () => {
    expect(() => parseMail('Subject: hi\r\n\r\nbody')).toThrow(MalformedMail);
    expect(() => parseMail(`From: a@b.test\r\n\r\n${'x'.repeat(1024 * 1024)}`)).toThrow(MalformedMail);
  });

  it('drops scripts, styles, comments and forms from HTML', () => {
    expect(htmlToText('<style>p{}</style><p>Hi</p><!-- x --><form><input value="y"></form><script>1</script>ok')).toBe('Hi\nok');
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
