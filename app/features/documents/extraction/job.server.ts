// The extraction job ('documents.extract', queued by the documents table's
// trigger on upload and when a person pastes a document's text): the file's
// text, or the pasted text, then the fields found in it, written back with
// extraction_status done, needs_text or failed and the reason a person reads.
// Reading a file has a budget (budget.ts) and a hard deadline here: a file past
// either fails once as 'too complex to read', is marked so (never read again,
// not by a retry nor by a re-run), and its job fails without a retry.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';
import { PermanentJobError, payloadText, type JobHandler } from '~/jobs/job.server';
import { DOCUMENTS_BUCKET } from '../store.server';
import { extractFields } from './extract-fields';
import { checkedAnswer, mergeAnswer } from './ai-answer';
import { aiProviderOf, askAiProvider } from './ai-provider.server';
import { failedChecks } from './cross-checks';
import type { DocumentFields } from './fields';
import { extractTextWithin, LIMITS_MS, NoTextError, TEXT_REASONS, TooComplexError } from './text';

export const STORAGE_UNREADABLE = 'The file could not be read from storage.';
export const STORAGE_MISSING = 'The file is missing from storage.';

/** Storage's 'Object not found' (statusCode 404 in its body, HTTP 400), as storage-js hands it over. */
function isMissing(error: { message: string }): boolean {
  const code = (error as { statusCode?: unknown }).statusCode;
  return String(code) === '404' || /not found/i.test(error.message);
}
export const EXTRACTION_BROKE = 'The text was read, but finding its fields failed.';

interface Job {
  id?: string;
  attempts: number;
}

/**
 * Whether an earlier attempt of this job died without an outcome (its run
 * 'abandoned': the Worker was stopped, as by its CPU limit, mid-read). The
 * file is then not read again: one stalled Worker is the most a file costs.
 */
async function diedBefore(admin: SupabaseClient<Database>, job: Job): Promise<boolean> {
  if (!job.id || job.attempts <= 1) return false;
  const { data, error } = await admin.from('job_runs').select('id').eq('job_id', job.id).eq('outcome', 'abandoned').limit(1);
  if (error) throw new Error(`reading the runs of job ${job.id} failed: ${error.message}`);
  return data.length > 0;
}

/** How the job ended: 'too_complex' is a failure retrying cannot help (the runner records it as permanent). */
export type ExtractionOutcome = 'handled' | 'too_complex';

/** The most one file may take to read, whatever the reader does between its budget's checks (pdf.js's own work). */
export const HARD_DEADLINE_MS = LIMITS_MS + 5_000;

/** Throws to be retried (storage unreachable); a document gone or already handled is nothing to do. */
export async function extractDocumentJob(
  admin: SupabaseClient<Database>,
  documentId: string,
  job: Job,
  maxAttempts = 5,
  deadlineMs = HARD_DEADLINE_MS,
  providerAllowHosts?: string,
): Promise<ExtractionOutcome> {
  const { data: document, error } = await admin
    .from('documents')
    .select('id, account_id, file_path, mime_type, text, extraction_status, extraction_too_complex')
    .eq('id', documentId)
    .maybeSingle();
  if (error) throw new Error(`reading document ${documentId} failed: ${error.message}`);
  if (!document || document.extraction_status !== 'queued') return 'handled';

  const finish = async (values: Database['public']['Tables']['documents']['Update']) => {
    const { error: saveError } = await admin.from('documents').update(values).eq('id', documentId).eq('extraction_status', 'queued');
    if (saveError) throw new Error(`saving extraction of ${documentId} failed: ${saveError.message}`);
  };

  let text = document.text?.trim() ? document.text : null;
  if (text === null && (document.extraction_too_complex || (await diedBefore(admin, job)))) {
    // Once too complex, always: its file is not read again (only pasted text is).
    await finish({ extraction_status: 'failed', extraction_error: TEXT_REASONS.tooComplex, extraction_too_complex: true });
    return 'too_complex';
  }
  if (text === null) {
    const file = await admin.storage.from(DOCUMENTS_BUCKET).download(document.file_path);
    if (file.error && isMissing(file.error)) {
      // Gone from storage (removed behind the row's back): no retry brings it back.
      await finish({ extraction_status: 'failed', extraction_error: STORAGE_MISSING });
      return 'handled';
    }
    if (file.error) {
      // Storage may be back on the next attempt; after the last one the document says why it has no text.
      if (job.attempts >= maxAttempts) await finish({ extraction_status: 'failed', extraction_error: STORAGE_UNREADABLE });
      throw new Error(`downloading ${document.file_path} failed: ${file.error.message}`);
    }
    try {
      text = await extractTextWithin(document.mime_type, new Uint8Array(await file.data.arrayBuffer()), deadlineMs);
    } catch (failure) {
      if (failure instanceof TooComplexError) {
        await finish({ extraction_status: 'failed', extraction_error: failure.message, extraction_too_complex: true });
        return 'too_complex';
      }
      if (!(failure instanceof NoTextError)) {
        console.error(`extracting text of ${documentId} failed:`, failure);
        await finish({ extraction_status: 'failed', extraction_error: TEXT_REASONS.corrupt });
        return 'handled';
      }
      await finish({ extraction_status: failure.outcome, extraction_error: failure.message });
      return 'handled';
    }
  }
  let fields;
  try {
    fields = extractFields(text).fields;
  } catch (failure) {
    console.error(`extracting fields of ${documentId} failed:`, failure);
    await finish({ text, extraction_status: 'failed', extraction_error: EXTRACTION_BROKE });
    return 'handled';
  }
  fields = await withAiProvider(admin, document.account_id, documentId, text, fields, providerAllowHosts);
  await finish({ text, fields: fields as Database['public']['Tables']['documents']['Update']['fields'], extraction_status: 'done', extraction_error: null });
  return 'handled';
}

/**
 * The template-free result, or, when it fails its cross-checks and the
 * account has an AI provider, that result with the provider's checked values
 * where it was missing or unsure (decision 082). The provider is optional:
 * whatever goes wrong with it (none, unreachable, late, a wrong answer), the
 * document keeps the extractor's own result and is not read again.
 */
async function withAiProvider(
  admin: SupabaseClient<Database>,
  accountId: string,
  documentId: string,
  text: string,
  fields: DocumentFields,
  allowHosts: string | undefined,
): Promise<DocumentFields> {
  const failed = failedChecks(fields);
  if (failed.length === 0) return fields;
  try {
    const provider = await aiProviderOf(admin, accountId);
    if (!provider) return fields;
    const answer = await askAiProvider(provider, text, allowHosts);
    return mergeAnswer(fields, checkedAnswer(answer, text));
  } catch (failure) {
    console.error(`asking the AI provider about ${documentId} (${failed.join(', ')}) failed:`, failure instanceof Error ? failure.message : failure);
    return fields;
  }
}

/** The documents jobs, by the kind the documents table's trigger queues. */
export const DOCUMENT_JOB_TYPES: Record<string, JobHandler> = {
  // A file too complex to read fails once: the document says so, and the job is not tried again.
  'documents.extract': async (payload, { admin, env, job }) => {
    const outcome = await extractDocumentJob(admin, payloadText(payload, 'document_id'), job, 5, HARD_DEADLINE_MS, env.PROVIDER_ALLOW_HOSTS);
    if (outcome === 'too_complex') throw new PermanentJobError('The document is too complex to read');
  },
};
