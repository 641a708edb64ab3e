// An evidence file and its row together: the type checked by the bytes (PDF,
// PNG, JPEG, UTF-8 text or JSON: the evidence bucket's list), stored at
// <account_id>/<uuid>/<name> in the evidence bucket, then its row (a new
// version when the title exists: the old one stays). Runs as the signed-in
// user: storage.objects' and evidence's policies decide (an auditor is refused
// by both).
import { safeFileName, sha256Hex } from '~/lib/file-names';
import type { Supabase } from '~/lib/supabase.server';
import { EVIDENCE_WRONG_TYPE, MAX_EVIDENCE_BYTES, EVIDENCE_TOO_LARGE } from './schema';

export const EVIDENCE_BUCKET = 'evidence';

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((b, i) => bytes[i] === b);
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const strict = new TextDecoder('utf-8', { fatal: true });

function textOf(bytes: Uint8Array): string | null {
  try {
    const text = strict.decode(bytes);
    return text.includes('\u0000') ? null : text;
  } catch {
    return null;
  }
}

/** The evidence's MIME type from its name and bytes; null when they disagree or the type is not accepted. */
export function evidenceType(fileName: string, bytes: Uint8Array): string | null {
  const extension = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase() : '';
  switch (extension) {
    case 'pdf':
      return startsWith(bytes, PDF) ? 'application/pdf' : null;
    case 'png':
      return startsWith(bytes, PNG) ? 'image/png' : null;
    case 'jpg':
    case 'jpeg':
      return startsWith(bytes, JPEG) ? 'image/jpeg' : null;
    case 'txt':
      return textOf(bytes) === null ? null : 'text/plain';
    case 'json': {
      const text = textOf(bytes);
      if (text === null) return null;
      try {
        JSON.parse(text);
        return 'application/json';
      } catch {
        return null;
      }
    }
    default:
      return null;
  }
}

export type EvidenceOutcome = { ok: true; version: number } | { ok: false; field: 'file' | 'form'; message: string; status?: number };

export async function storeEvidence(
  supabase: Supabase,
  input: { accountId: string; itemId: string; reviewId: string | null; title: string; fileName: string; bytes: Uint8Array; effectiveOn: string; expiresOn: string | null },
): Promise<EvidenceOutcome> {
  if (input.bytes.length > MAX_EVIDENCE_BYTES) return { ok: false, field: 'file', message: EVIDENCE_TOO_LARGE };
  const mimeType = evidenceType(input.fileName, input.bytes);
  if (!mimeType) return { ok: false, field: 'file', message: EVIDENCE_WRONG_TYPE };
  const fileName = safeFileName(input.fileName);
  // Under the compliance prefix: objects there are insert-only (migration 20261204210002).
  const path = `${input.accountId}/compliance/${crypto.randomUUID()}/${fileName}`;
  const stored = await supabase.storage
    .from(EVIDENCE_BUCKET)
    .upload(path, new Blob([input.bytes as Uint8Array<ArrayBuffer>], { type: mimeType }), { contentType: mimeType });
  if (stored.error) {
    console.error(`evidence upload refused by storage: ${stored.error.message}`);
    return { ok: false, field: 'form', message: 'Failed to add the evidence' };
  }
  const inserted = await supabase
    .from('evidence')
    .insert({
      item_id: input.itemId,
      review_id: input.reviewId,
      title: input.title,
      file_path: path,
      file_name: fileName,
      file_size: input.bytes.length,
      mime_type: mimeType,
      sha256: await sha256Hex(input.bytes),
      effective_on: input.effectiveOn,
      expires_on: input.expiresOn,
    })
    .select('version')
    .single();
  if (inserted.error) {
    // No row, no file: the object would otherwise be orphaned.
    await supabase.storage.from(EVIDENCE_BUCKET).remove([path]);
    // The item is not one of the account's (another's, or gone): a 404, as its page would answer.
    if (inserted.error.code === '23503') return { ok: false, field: 'form', message: 'Compliance requirement not found', status: 404 };
    console.error(`evidence row refused: ${inserted.error.message}`);
    return { ok: false, field: 'form', message: 'Failed to add the evidence' };
  }
  return { ok: true, version: inserted.data.version };
}
