// What a bid's page adds to its record (issue 38; decision 091): its files (attach, download, remove) and the
// answer library's search (?answers=, a GET form) with "Add to proposal". Read in the page's one round trip
// beside the bid; the posts are told apart by intent and answered here, the bid's own forms by rfp-detail.
import { parseWithZod } from '@conform-to/zod/v4';
import { redirectWithSuccess } from 'remix-toast';
import { refuseSubmission, serverMessage, type ToastArgs } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import { dataWithError } from '~/lib/toast.server';
import { loadAnswers, appendAnswer } from './answers/queries.server';
import { useAnswerSchema } from './answers/schema';
import { ANSWER_TEXTS } from './answers/texts';
import { attachSchema, removeFileSchema } from './attachments/schema';
import { attachFile, removeAttachment } from './attachments/store.server';

/** How many answers a search on the bid's page shows. */
const ANSWERS_ON_BID = 10;

export interface BidFile {
  id: string;
  file_name: string;
  file_size: number;
  mime_type: string;
  created_at: string;
}

/** The bid's files, oldest first, and the answers its search (if any) finds. */
export async function loadBidExtras(supabase: Supabase, rfpId: string, answersQuery: string) {
  const [files, answers] = await Promise.all([
    supabase.from('rfp_attachments').select('id, file_name, file_size, mime_type, created_at').eq('rfp_id', rfpId).order('created_at').order('id').limit(50),
    answersQuery ? loadAnswers(supabase, answersQuery, ANSWERS_ON_BID) : null,
  ]);
  if (files.error) console.error(`bid files failed to load: ${files.error.message}`);
  if (answers?.error) console.error(`answers failed to load: ${answers.error.message}`);
  return {
    files: (files.data ?? []) as BidFile[],
    filesFailed: files.error !== null,
    answers: answers?.data ?? [],
    answersFailed: answers ? answers.error !== null : false,
  };
}

/** The ?answers= search as typed: trimmed, at most 100 characters. */
export const answersQueryOf = (url: URL) => (url.searchParams.get('answers') ?? '').trim().slice(0, 100);

/** A post of the bid's files or answers, answered; null for any other intent (the bid's own forms). */
export async function bidExtrasAction(args: ToastArgs, supabase: Supabase, rfpId: string, page: string, formData: FormData) {
  const back = `${page}${new URL(args.request.url).search}`;
  switch (formData.get('intent')) {
    case 'attach': {
      const submission = parseWithZod(formData, { schema: attachSchema });
      if (submission.status !== 'success') return refuseSubmission(args, submission, { hideFields: ['file'] });
      const { data: accountId } = await supabase.rpc('current_account_id');
      const stored = await attachFile(supabase, {
        accountId: String(accountId ?? ''), rfpId, fileName: submission.value.file.name, bytes: new Uint8Array(await submission.value.file.arrayBuffer()),
      });
      if (!stored.ok) {
        const result = stored.field === 'file'
          ? submission.reply({ fieldErrors: { file: [stored.message] }, hideFields: ['file'] })
          : submission.reply({ formErrors: [stored.message], hideFields: ['file'] });
        return dataWithError(args, { result }, stored.message, { status: stored.status });
      }
      return redirectWithSuccess(back, `${stored.fileName} attached`);
    }
    case 'remove-file': {
      const submission = parseWithZod(formData, { schema: removeFileSchema });
      if (submission.status !== 'success') return refuseSubmission(args, submission, { toast: () => 'File not found' });
      const removed = await removeAttachment(supabase, rfpId, submission.value.file_id);
      if (!removed) return dataWithError(args, { result: submission.reply({ formErrors: ['File not found'] }) }, 'File not found', { status: 404 });
      return redirectWithSuccess(back, 'File removed');
    }
    case 'use-answer': {
      const submission = parseWithZod(formData, { schema: useAnswerSchema });
      if (submission.status !== 'success') return refuseSubmission(args, submission, { toast: () => ANSWER_TEXTS.answerGone });
      const { data, error } = await appendAnswer(supabase, rfpId, submission.value.answer_id);
      if (error || !data) {
        const message = !error ? ANSWER_TEXTS.answerGone : error.code === '23514' ? ANSWER_TEXTS.tooLong : serverMessage(error, ANSWER_TEXTS.useFailed);
        if (error && error.code !== '23514') console.error(`answer use failed: ${error.message}`);
        return dataWithError(args, { result: submission.reply({ formErrors: [message] }) }, message, { status: error ? 400 : 404 });
      }
      return redirectWithSuccess(back, ANSWER_TEXTS.used);
    }
    default:
      return null;
  }
}
