// Uploaded files judged by their bytes: the type their content bears out,
// storage-safe names, and their SHA-256.
import { describe, expect, it } from 'vitest';
import { checkFile } from '../../app/features/documents/file-check.ts';
import { safeFileName, sha256Hex } from '../../app/lib/file-names.ts';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));
const zipWith = (entry: string) => bytes([0x50, 0x4b, 0x03, 0x04], [20, 0, 0, 0], entry, 'payload');

describe('checkFile', () => {
  it.each([
    ['report.pdf', bytes('%PDF-1.7\n...'), 'application/pdf'],
    ['letter.docx', zipWith('word/document.xml'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['sheet.XLSX', zipWith('xl/workbook.xml'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['old.doc', bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 'x'), 'application/msword'],
    ['old.xls', bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], 'x'), 'application/vnd.ms-excel'],
    ['notes.txt', bytes('Invoice total: 12,50 €\r\n\tthanks'), 'text/plain'],
    ['lines.csv', bytes('sku,qty\nA-1,2\n'), 'text/csv'],
    ['scan.jpg', bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'), 'image/jpeg'],
    ['scan.png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'IHDR'), 'image/png'],
  ])('accepts %s as %s by its content', (name, content, mimeType) => {
    expect(checkFile(name, content)).toMatchObject({ ok: true, mimeType });
  });

  it.each([
    ['an .exe renamed .pdf', 'invoice.pdf', bytes('MZ\x90\x00program'), 'content_mismatch'],
    ['a zip that is not a Word file', 'letter.docx', zipWith('evil/payload.bin'), 'content_mismatch'],
    ['a Word file named .xlsx', 'sheet.xlsx', zipWith('word/document.xml'), 'content_mismatch'],
    ['binary named .txt', 'notes.txt', bytes([0, 1, 2, 3]), 'content_mismatch'],
    ['a PNG named .jpg', 'scan.jpg', bytes([0x89, 0x50, 0x4e, 0x47]), 'content_mismatch'],
    ['an executable extension', 'setup.exe', bytes('MZ'), 'unsupported_extension'],
    ['no extension', 'README', bytes('text'), 'unsupported_extension'],
    ['an empty file', 'empty.pdf', new Uint8Array(), 'empty'],
    ['over 10 MB', 'big.txt', new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61), 'too_large'],
  ])('refuses %s', (_case, name, content, reason) => {
    expect(checkFile(name, content)).toEqual({ ok: false, reason });
  });

  it('takes exactly 10 MB', () => {
    expect(checkFile('big.txt', new Uint8Array(10 * 1024 * 1024).fill(0x61))).toMatchObject({ ok: true });
  });
});

describe('safeFileName', () => {
  it.each([
    ['../../etc/passwd.pdf', 'passwd.pdf'],
    ['C:\\Users\\me\\Invoice 12.pdf', 'Invoice 12.pdf'],
    ['bad\u0000na\u0007me\n.pdf', 'badname.pdf'],
    ['Facture été #3.PDF', 'Facture ete _3.pdf'],
    ['Счёт.pdf', 'document.pdf'],
    ['.hidden.txt', 'hidden.txt'],
    ['a'.repeat(300) + '.txt', 'a'.repeat(90) + '.txt'],
  ])('%j is stored as %j', (input, expected) => {
    expect(safeFileName(input)).toBe(expected);
  });

  it("only ever yields characters Storage accepts in a key", () => {
    for (const input of ['x?y*z.pdf', 'quote"s<>|.pdf', '💾 disk.pdf', 'tab\tname.pdf']) {
      expect(safeFileName(input)).toMatch(/^[A-Za-z0-9_.() -]+$/);
    }
  });
});

it('sha256Hex is the SHA-256 of the bytes', async () => {
  const content = bytes('same bytes');
  // SHA-256 of "same bytes", as `printf 'same bytes' | sha256sum` prints it.
  expect(await sha256Hex(content)).toBe('58100dc8fc06562ce3e578231dc948e083520ee49c4b4ee5a5a28bb4b4003feb');
});
