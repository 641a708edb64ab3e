// A bid's documents (issue 38; decision 091): a file and its rfp_attachments row together, as the documents
// module stores its own (app/features/documents/store.server.ts): the type decided by the bytes (the documents
// bucket's list: PDF, Word, Excel, text, CSV, JPEG, PNG; 10 MB), the object at
// <account_id>/rfp/<rfp_id>/<uuid>/<name> in the documents bucket, then its row; a link signed for a minute to
// download it; its removal (row, then object). Runs as the signed-in user: Storage's and the table's policies
// decide (an auditor is refused by both). Node tests import this file, hence the relative imports.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../../lib/database.types.ts';
import { safeFileName, sha256Hex } from '../../../lib/file-names.ts';
import { checkFile } from '../../documents/file-check.ts';
import { ATTACHMENT_TEXTS } from './texts.ts';

type Supabase = SupabaseClient<Database>;

export const ATTACHMENTS_BUCKET = 'documents';
/** How long a download link works, in seconds. */
export const ATTACHMENT_LINK_SECONDS = 60;


const REFUSALS = {
  empty: ATTACHMENT_TEXTS.empty,
  too_large: ATTACHMENT_TEXTS.tooLarge,
  unsupported_extension: ATTACHMENT_TEXTS.unsupported,
  content_mismatch: ATTACHMENT_TEXTS.mismatch,
} as const;

export type AttachOutcome = { ok: true; id: string; fileName: string } | { ok: false; field: 'file' | 'form'; message: string; status: number };

export async function attachFile(
  supabase: Supabase,
  input: { accountId: string; rfpId: string; fileName: string; bytes: Uint8Array },
): Promise<AttachOutcome> {
  const check = checkFile(input.fileName, input.bytes);
  if (!check.ok) return { ok: false, field: 'file', message: REFUSALS[check.reason], status: check.reason === 'too_large' ? 413 : 400 };
  const fileName = safeFileName(input.fileName);
  const path = `${input.accountId}/rfp/${input.rfpId}/${crypto.randomUUID()}/${fileName}`;
  const stored = await supabase.storage
    .from(ATTACHMENTS_BUCKET)
    .upload(path, new Blob([input.bytes as Uint8Array<ArrayBuffer>], { type: check.mimeType }), { contentType: check.mimeType });
  if (stored.error) {
    console.error(`bid file upload refused by storage: ${stored.error.message}`);
    return { ok: false, field: 'form', message: ATTACHMENT_TEXTS.failed, status: 500 };
  }
  const inserted = await supabase
    .from('rfp_attachments')
    .insert({
      rfp_id: input.rfpId, file_name: fileName, file_path: path, file_size: input.bytes.length,
      mime_type: check.mimeType, sha256: await sha256Hex(input.bytes),
    })
    .select('id')
    .single();
  if (inserted.error) {
    // No row, no file: the object would otherwise be orphaned.
    await supabase.storage.from(ATTACHMENTS_BUCKET).remove([path]);
    if (inserted.error.code === '23503') return { ok: false, field: 'form', message: ATTACHMENT_TEXTS.bidGone, status: 404 };
    if (inserted.error.code === '23514' && inserted.error.message.includes('at most 50')) {
      return { ok: false, field: 'file', message: ATTACHMENT_TEXTS.tooMany, status: 409 };
    }
    console.error(`bid file row refused: ${inserted.error.message}`);
    return { ok: false, field: 'form', message: ATTACHMENT_TEXTS.failed, status: inserted.error.code === '42501' ? 403 : 500 };
  }
  return { ok: true, id: inserted.data.id, fileName };
}

/** A link that downloads the file (named as attached) for a minute; null when the file cannot be reached. */
export async function attachmentLink(supabase: Supabase, file: { file_path: string; file_name: string }): Promise<string | null> {
  const { data, error } = await supabase.storage
    .from(ATTACHMENTS_BUCKET)
    .createSignedUrl(file.file_path, ATTACHMENT_LINK_SECONDS, { download: file.file_name });
  return error ? null : data.signedUrl;
}

/** Removes the row (audited on the bid) and then its object; false when it was not the caller's to remove. */
export async function removeAttachment(supabase: Supabase, rfpId: string, id: string): Promise<boolean> {
  const { data, error } = await supabase.from('rfp_attachments').delete().eq('id', id).eq('rfp_id', rfpId).select('file_path');
  if (error) console.error(`bid file removal failed: ${error.message}`);
  if (error || !data || data.length === 0) return false;
  const removed = await supabase.storage.from(ATTACHMENTS_BUCKET).remove([data[0].file_path]);
  if (removed.error) console.error(`bid file left behind at ${data[0].file_path}: ${removed.error.message}`);
  return true;
}
