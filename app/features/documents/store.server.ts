// A document's file and row together: the upload (checked by content, stored
// once per account by SHA-256, the file in the documents bucket at
// <account_id>/<uuid>/<name> and then its row), the short-lived link to
// download it, and its deletion (file and row). Runs as the signed-in user:
// storage.objects' and documents' policies decide.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../lib/database.types.ts';
import { checkFile } from './file-check.ts';
import { safeFileName, sha256Hex } from '../../lib/file-names.ts';
import { TEXTS } from './texts.ts';

/** The app's typed client (~/lib/supabase.server's Supabase), named here so Node tests can import this module. */
export type Supabase = SupabaseClient<Database>;

export const DOCUMENTS_BUCKET = 'documents';
/** How long a download link works, in seconds. */
export const DOWNLOAD_LINK_SECONDS = 60;

export interface UploadInput {
  accountId: string;
  title: string;
  type: string;
  description: string | null;
  fileName: string;
  bytes: Uint8Array;
}

export type UploadOutcome = { ok: true; id: string } | { ok: false; field: 'file' | 'form'; message: string };

const REFUSALS = {
  empty: TEXTS.empty,
  too_large: TEXTS.tooLarge,
  unsupported_extension: TEXTS.unsupported,
  content_mismatch: TEXTS.mismatch,
} as const;

export async function storeDocument(supabase: Supabase, input: UploadInput): Promise<UploadOutcome> {
  const check = checkFile(input.fileName, input.bytes);
  if (!check.ok) return { ok: false, field: 'file', message: REFUSALS[check.reason] };
  const sha256 = await sha256Hex(input.bytes);
  const same = await supabase.from('documents').select('title').eq('account_id', input.accountId).eq('sha256', sha256).maybeSingle();
  if (same.error) return { ok: false, field: 'form', message: TEXTS.uploadFailed };
  if (same.data) return { ok: false, field: 'file', message: TEXTS.duplicate(same.data.title) };

  const fileName = safeFileName(input.fileName);
  const path = `${input.accountId}/${crypto.randomUUID()}/${fileName}`;
  const stored = await supabase.storage
    .from(DOCUMENTS_BUCKET)
    .upload(path, new Blob([input.bytes as Uint8Array<ArrayBuffer>], { type: check.mimeType }), { contentType: check.mimeType });
  if (stored.error) {
    console.error(`document upload refused by storage: ${stored.error.message}`);
    return { ok: false, field: 'form', message: TEXTS.uploadFailed };
  }
  const inserted = await supabase
    .from('documents')
    .insert({
      account_id: input.accountId,
      title: input.title,
      type: input.type,
      description: input.description,
      file_path: path,
      file_name: fileName,
      file_size: input.bytes.length,
      mime_type: check.mimeType,
      sha256,
    })
    .select('id')
    .single();
  if (inserted.error) {
    // No row, no file: the object would otherwise be orphaned.
    await supabase.storage.from(DOCUMENTS_BUCKET).remove([path]);
    if (inserted.error.code === '23505') {
      const winner = await supabase.from('documents').select('title').eq('account_id', input.accountId).eq('sha256', sha256).maybeSingle();
      if (winner.data) return { ok: false, field: 'file', message: TEXTS.duplicate(winner.data.title) };
    }
    console.error(`document row refused: ${inserted.error.message}`);
    return { ok: false, field: 'form', message: TEXTS.uploadFailed };
  }
  return { ok: true, id: inserted.data.id };
}

/** A link that downloads the file (named as uploaded) for a minute; null when the file cannot be reached. */
export async function downloadLink(supabase: Supabase, document: { file_path: string; file_name: string }): Promise<string | null> {
  const { data, error } = await supabase.storage
    .from(DOCUMENTS_BUCKET)
    .createSignedUrl(document.file_path, DOWNLOAD_LINK_SECONDS, { download: document.file_name });
  return error ? null : data.signedUrl;
}

/** Deletes the row (audited by the database) and then its file; false when the row was not the caller's to delete. */
export async function deleteDocument(supabase: Supabase, id: string): Promise<boolean> {
  const { data, error } = await supabase.from('documents').delete().eq('id', id).select('file_path');
  if (error || !data || data.length === 0) return false;
  const removed = await supabase.storage.from(DOCUMENTS_BUCKET).remove([data[0].file_path]);
  if (removed.error) console.error(`document file left behind at ${data[0].file_path}: ${removed.error.message}`);
  return true;
}
