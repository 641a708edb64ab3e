// Real-shaped inbound messages (as mail clients write them) for the helpdesk's
// parser (decision 071): read under node (tests/unit) and inside workerd
// (tests/worker), so both layers check the same bytes.
const lines = (...rows: string[]) => rows.join('\r\n');

/** Thunderbird-style multipart/alternative: quoted-printable text, base64 HTML, an encoded-word name and subject, folded References. */
export const ALTERNATIVE = lines(
  'Return-Path: <ana@example.test>',
  'Received: from mx.example.test (mx.example.test [192.0.2.10])',
  '\tby mx.inbound.opshub.test with ESMTPS id abc123',
  '\tfor <demo-inbox@inbound.opshub.test>; Thu, 26 Nov 2026 09:00:00 +0000',
  'From: "Ana =?UTF-8?Q?L=C3=B3pez?=" <Ana@Example.TEST>',
  'To: Support <demo-inbox@inbound.opshub.test>',
  'Subject: =?UTF-8?B?UmU6IGNhZsOp?= =?UTF-8?Q?_order_=E2=82=AC20?=',
  'Date: Thu, 26 Nov 2026 09:00:00 +0000',
  'Message-ID: <m2@example.test>',
  'In-Reply-To: <m1@example.test>',
  'References: <m0@example.test>',
  ' <m1@example.test>',
  'MIME-Version: 1.0',
  'Content-Type: multipart/alternative;',
  ' boundary="------------alt0123456789"',
  '',
  'This is a multi-part message in MIME format.',
  '--------------alt0123456789',
  'Content-Type: text/plain; charset=UTF-8; format=flowed',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  'Hello, the caf=C3=A9 order is late. Fee =E2=82=AC20?',
  '',
  '--------------alt0123456789',
  'Content-Type: text/html; charset=UTF-8',
  'Content-Transfer-Encoding: base64',
  '',
  'PGh0bWw+PGJvZHk+PHA+SGVsbG8sIHRoZSBjYWbDqSBvcmRlciBpcyBsYXRlLjwvcD48L2JvZHk+PC9odG1sPg==',
  '',
  '--------------alt0123456789--',
  '',
);

/** Outlook-style HTML only: a script, a remote image, a form, entities; Windows-1252 encoded. */
export const HTML_ONLY = lines(
  'From: =?iso-8859-1?Q?J=F6rg_M=FCller?= <joerg@lager.test>',
  'To: demo-inbox@inbound.opshub.test',
  'Subject: =?iso-8859-1?Q?Lieferung_f=FCr_M=FCnchen?=',
  'Message-ID: <AM0PR01MB1234.eurprd01.prod.outlook.test>',
  'MIME-Version: 1.0',
  'Content-Type: text/html; charset="windows-1252"',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  '<html><head><style>p{color:red}</style></head><body><p>Die Lieferung f=FC=',
  'r M=FCnchen &amp; Berlin =96 wann?</p><script>alert(1)</script>',
  '<img src=3D"https://tracker.test/pixel.png"><form action=3D"https://evil.test"><input value=3D"x"></form>',
  '</body></html>',
  '',
);

/** Apple Mail-style multipart/mixed: a text part and a PDF attachment with an encoded-word filename. */
export const WITH_ATTACHMENT = lines(
  'From: Oscar Reyes <oscar@harbor.test>',
  'To: demo-inbox@inbound.opshub.test',
  'Subject: Customs papers',
  'Message-Id: <6E0C1F3A-1B2C-4D5E-8F90-ABCDEF012345@harbor.test>',
  'Mime-Version: 1.0 (Mac OS X Mail 16.0)',
  'Content-Type: multipart/mixed; boundary="Apple-Mail=_1A2B3C"',
  '',
  '--Apple-Mail=_1A2B3C',
  'Content-Transfer-Encoding: 7bit',
  'Content-Type: text/plain; charset=us-ascii',
  '',
  'The papers are attached.',
  '',
  '--Apple-Mail=_1A2B3C',
  'Content-Disposition: attachment;',
  ' filename="=?UTF-8?Q?Zollerkl=C3=A4rung.pdf?="',
  'Content-Type: application/pdf;',
  ' name="=?UTF-8?Q?Zollerkl=C3=A4rung.pdf?="',
  'Content-Transfer-Encoding: base64',
  '',
  'JVBERi0xLjQKJcOkw7zDtsOfCg==',
  '--Apple-Mail=_1A2B3C--',
  '',
);

/** The bytes of WITH_ATTACHMENT's PDF ("%PDF-1.4\n%äüöß\n" in UTF-8). */
export const ATTACHMENT_BYTES = '%PDF-1.4\n%äüöß\n';

/** A message of `parts` tiny MIME parts: over the parts cap well inside 1 MB. */
export function manyParts(parts: number): string {
  const body: string[] = [];
  for (let i = 0; i < parts; i++) body.push('--b', 'Content-Type: text/plain', '', `part ${i}`);
  return lines('From: many@parts.test', 'Subject: parts', 'Content-Type: multipart/mixed; boundary=b', '', ...body, '--b--', '');
}

/** MIME nested `depth` levels deep (multipart inside multipart). */
export function deeplyNested(depth: number): string {
  const head: string[] = ['From: deep@nest.test', 'Subject: deep', `Content-Type: multipart/mixed; boundary=b0`, ''];
  const tail: string[] = [];
  for (let i = 1; i < depth; i++) {
    head.push(`--b${i - 1}`, `Content-Type: multipart/mixed; boundary=b${i}`, '');
    tail.unshift(`--b${i - 1}--`);
  }
  head.push(`--b${depth - 1}`, 'Content-Type: text/plain', '', 'deep', `--b${depth - 1}--`);
  return lines(...head, ...tail, '');
}
