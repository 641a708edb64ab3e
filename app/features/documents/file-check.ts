// What an uploaded file really is, decided by its bytes (not its name or the
// browser's say-so). Its storage-safe name and SHA-256 are in app/lib/file-names.ts.
// Runs in the Worker: plain byte checks, no Node APIs.
import { ACCEPTED_TYPES, type DocumentMimeType, MAX_DOCUMENT_BYTES } from './values.ts';
import { extensionOf } from '../../lib/file-names.ts';

export type FileCheck =
  | { ok: true; mimeType: DocumentMimeType; extension: keyof typeof ACCEPTED_TYPES }
  | { ok: false; reason: 'empty' | 'too_large' | 'unsupported_extension' | 'content_mismatch' };

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const ZIP = [0x50, 0x4b, 0x03, 0x04]; // PK.. (docx, xlsx)
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]; // doc, xls
const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Whether the bytes are text: valid UTF-8 with no control characters but tab, CR, LF and form feed. */
function isText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 64 * 1024));
  } catch (error) {
    // A multi-byte character cut at the sample's end is still text.
    if (bytes.length <= 64 * 1024) return false;
    text = new TextDecoder('utf-8').decode(bytes.subarray(0, 64 * 1024 - 4));
    void error;
  }
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

/** Which zip-based Office file a zip is, by the part names in its central directory. */
function officeKind(bytes: Uint8Array): 'docx' | 'xlsx' | null {
  const tail = new TextDecoder('latin1').decode(bytes.subarray(Math.max(0, bytes.length - 256 * 1024)));
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 64 * 1024));
  const names = head + tail;
  if (names.includes('word/document.xml')) return 'docx';
  if (names.includes('xl/workbook.xml')) return 'xlsx';
  return null;
}


export function checkFile(fileName: string, bytes: Uint8Array): FileCheck {
  if (bytes.length === 0) return { ok: false, reason: 'empty' };
  if (bytes.length > MAX_DOCUMENT_BYTES) return { ok: false, reason: 'too_large' };
  const extension = extensionOf(fileName);
  if (!Object.hasOwn(ACCEPTED_TYPES, extension)) return { ok: false, reason: 'unsupported_extension' };
  const ext = extension as keyof typeof ACCEPTED_TYPES;
  const matches: Record<keyof typeof ACCEPTED_TYPES, () => boolean> = {
    pdf: () => startsWith(bytes, PDF),
    doc: () => startsWith(bytes, OLE),
    xls: () => startsWith(bytes, OLE),
    docx: () => startsWith(bytes, ZIP) && officeKind(bytes) === 'docx',
    xlsx: () => startsWith(bytes, ZIP) && officeKind(bytes) === 'xlsx',
    txt: () => isText(bytes),
    csv: () => isText(bytes),
    jpg: () => startsWith(bytes, JPEG),
    jpeg: () => startsWith(bytes, JPEG),
    png: () => startsWith(bytes, PNG),
  };
  if (!matches[ext]()) return { ok: false, reason: 'content_mismatch' };
  return { ok: true, mimeType: ACCEPTED_TYPES[ext], extension: ext };
}

