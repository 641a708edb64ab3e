// What the answer library asks of the database (issue 38; decision 091): the account's answers (by title), or
// those a search finds (search_rfp_answers: every word as the start of a word of title, tags or body, or the
// title containing the text), and the writes. Row-level security decides who reads and writes.
import type { Supabase } from '~/lib/supabase.server';
import { ANSWERS_SHOWN, type AnswerFields } from './schema';

const COLUMNS = 'id, title, body, tags, updated_at';
export interface AnswerRow {
  id: string;
  title: string;
  body: string;
  tags: string[];
  updated_at: string;
}

export function loadAnswers(supabase: Supabase, q: string, limit = ANSWERS_SHOWN) {
  const search = q.trim().slice(0, 100);
  const query = search
    ? supabase.rpc('search_rfp_answers', { p_query: search }, { get: true }).select(COLUMNS)
    : supabase.from('rfp_answers').select(COLUMNS);
  return query.order('title').order('id').limit(limit);
}

export function insertAnswer(supabase: Supabase, form: AnswerFields) {
  return supabase.from('rfp_answers').insert({ title: form.title, body: form.body, tags: form.tags }).select('id');
}

export function updateAnswer(supabase: Supabase, id: string, form: AnswerFields) {
  return supabase.from('rfp_answers').update({ title: form.title, body: form.body, tags: form.tags }).eq('id', id).select('id');
}

export function deleteAnswer(supabase: Supabase, id: string) {
  return supabase.from('rfp_answers').delete().eq('id', id).select('id');
}

/** The answer appended to the bid's proposal; null data when either is not the caller's to use. */
export function appendAnswer(supabase: Supabase, rfpId: string, answerId: string) {
  return supabase.rpc('use_rfp_answer', { p_rfp_id: rfpId, p_answer_id: answerId });
}
