// What the Documents screen and a document's page ask of the database: a page
// of the account's documents (searched over title and extracted text with
// Postgres full-text, and by title as typed; filtered by review status), the
// summary cards, one document with its history, and the writes of its page.
import { searchText, type ListQuery } from '~/lib/list-query';
import { loadHistory } from '~/lib/record-history.server';
import { readList, withSummaryTotal } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import { readFields, type DocumentFields } from './extraction/fields';
import type { DocumentStatus } from './schema';

const LIST_COLUMNS = 'id, title, type, file_name, file_size, mime_type, status, extraction_status, created_at, uploader:users!documents_uploaded_by_fkey(first_name, last_name, email)';

/**
 * The page of documents with its total. A search (every word typed as the
 * start of a word of the title or extracted text, config 'simple', so
 * 'INV-77' finds INV-77531; or the text inside the title) goes through search_documents,
 * which reads only the account's matches from its indexes, and counts them;
 * the unfiltered total is the summary's; a status filter alone is counted
 * from its index. searchText keeps nothing that could be filter syntax.
 */
export async function loadDocuments(supabase: Supabase, query: ListQuery<DocumentStatus>) {
  const search = searchText(query.q);
  const unfiltered = !search && !query.status;
  let select = search
    ? supabase.rpc('search_documents', { p_query: search }, { get: true, count: 'exact' }).select(LIST_COLUMNS)
    : supabase.from('documents').select(LIST_COLUMNS, unfiltered ? {} : { count: 'exact' });
  if (query.status) select = select.eq('status', query.status);
  const [summaryResult, list] = await Promise.all([supabase.rpc('document_summary').single(), readList(select, query, 'documents')]);
  // A summary that fails to load is logged and reads 0: the list below still works.
  if (summaryResult.error) console.error(`document summary failed to load: ${summaryResult.error.message}`);
  const summary = summaryResult.data ?? { total_count: 0, processed_count: 0, pending_review_count: 0, storage_bytes: 0 };
  return {
    summary: {
      total: Number(summary.total_count),
      processed: Number(summary.processed_count),
      pendingReview: Number(summary.pending_review_count),
      storageBytes: Number(summary.storage_bytes),
    },
    list: withSummaryTotal(list, !unfiltered, summaryResult.error ? null : Number(summary.total_count)),
  };
}

export type DocumentRow = Awaited<ReturnType<typeof loadDocuments>>['list']['rows'][number];

const DETAIL_COLUMNS =
  'id, title, type, description, file_path, file_name, file_size, mime_type, sha256, status, extraction_status, extraction_error, extraction_too_complex, text, fields, created_at, updated_at, uploader:users!documents_uploaded_by_fkey(first_name, last_name, email)';

/** One document of the account (RLS), its fields as found or corrected, and its history. */
export async function loadDocument(supabase: Supabase, id: string) {
  // The history alongside (one round trip): it needs only the id.
  const [{ data: document, error }, history] = await Promise.all([
    supabase.from('documents').select(DETAIL_COLUMNS).eq('id', id).maybeSingle(),
    loadHistory(supabase, 'document', id),
  ]);
  if (error) throw new Error(`document failed to load: ${error.message}`);
  if (!document) return null;
  return { document: { ...document, fields: readFields(document.fields) as DocumentFields }, history };
}

export type DocumentDetail = NonNullable<Awaited<ReturnType<typeof loadDocument>>>['document'];

export function setDocumentStatus(supabase: Supabase, id: string, status: DocumentStatus) {
  return supabase.from('documents').update({ status }).eq('id', id).select('id').maybeSingle();
}

export function saveReviewedFields(supabase: Supabase, id: string, fields: DocumentFields, approve: boolean) {
  return supabase
    .from('documents')
    .update({ fields: fields as never, ...(approve ? { status: 'Approved' as const } : {}) })
    .eq('id', id)
    .select('id')
    .maybeSingle();
}

/**
 * The text a person pasted (or read from the image in their browser) for a
 * document that had none: extraction runs again on it (paste_document_text,
 * which checks the caller, the document's state and the hourly limits).
 * 'missing' when the caller cannot see the document (another account's, or
 * gone); 'not_waiting' when it has its text already (extracted meanwhile, say)
 * or the database refused it for another reason, which `error` says.
 */
export async function submitDocumentText(supabase: Supabase, id: string, text: string): Promise<{ outcome: 'queued' | 'missing' | 'not_waiting'; error: { message?: string } | null }> {
  const { error } = await supabase.rpc('paste_document_text', { p_document_id: id, p_text: text });
  if (!error) return { outcome: 'queued', error: null };
  if (error.code === 'P0002') return { outcome: 'missing', error: null };
  return { outcome: 'not_waiting', error };
}

/** Extraction of a document that failed, tried again (rerun_document_extraction: limited, refused for a file too complex to read). */
export async function rerunDocumentExtraction(supabase: Supabase, id: string): Promise<{ outcome: 'queued' | 'missing' | 'refused'; error: { message?: string } | null }> {
  const { error } = await supabase.rpc('rerun_document_extraction', { p_document_id: id });
  if (!error) return { outcome: 'queued', error: null };
  if (error.code === 'P0002') return { outcome: 'missing', error: null };
  return { outcome: 'refused', error };
}
