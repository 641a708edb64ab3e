// What the conversation page shows of SLAs, CSAT, tags, merge and presence
// (decision 075), read alongside the conversation (one round trip), and the
// page's intents for them: tags, merge, replying.
import { data } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Supabase } from '~/lib/supabase.server';
import { isUuid, serverMessage } from '~/lib/records.server';
import { TAG_PATTERN } from './inbox-filters.server';

/** A colleague counts as replying this long after their reply box last said so. */
export const PRESENCE_SECONDS = 20;
export const MAX_TAGS = 20;

export async function loadConversationExtras(supabase: Supabase, id: string) {
  const since = new Date(Date.now() - PRESENCE_SECONDS * 1000).toISOString();
  const [csat, breaches, presence, candidates] = await Promise.all([
    supabase.from('csat_responses').select('score, comment, sent_at, answered_at').eq('conversation_id', id).maybeSingle(),
    supabase.from('sla_breaches').select('target, due_at, breached_at').eq('conversation_id', id),
    supabase.from('conversation_presence').select('user_id, seen_at').eq('conversation_id', id).gte('seen_at', since),
    supabase.rpc('merge_candidates', { p_conversation_id: id }, { get: true }).select('id, subject, status, last_message_at'),
  ]);
  for (const r of [csat, breaches, presence, candidates]) if (r.error) console.error(`conversation extras: ${r.error.message}`);
  return {
    csat: csat.data ?? null,
    breaches: breaches.data ?? [],
    replying: (presence.data ?? []).map((p) => p.user_id),
    candidates: (candidates.data ?? []) as unknown as { id: string; subject: string; status: string; last_message_at: string }[],
  };
}

/** Tags typed as 'billing, VIP': lower case, trimmed, unique; or the error to show. */
export function parseTags(text: string): string[] | string {
  const tags = [...new Set(text.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean))];
  if (tags.length > MAX_TAGS) return `At most ${MAX_TAGS} tags`;
  const bad = tags.find((t) => !TAG_PATTERN.test(t));
  if (bad !== undefined) return `"${bad.slice(0, 40)}" is not a tag: letters, digits, spaces, - and _, at most 40`;
  return tags.sort();
}

/** The page's intents of decision 075; null when the intent is not one of them. */
export async function extraIntent<Failure>(
  intent: string,
  field: (name: string) => string,
  ctx: { supabase: Supabase; id: string; page: string; failed: (message: string, status?: number) => Failure },
): Promise<Failure | Response | ReturnType<typeof data<{ replying: true }>> | null> {
  const { supabase, id, page, failed } = ctx;
  switch (intent) {
    case 'tags': {
      const tags = parseTags(field('tags'));
      if (typeof tags === 'string') return failed(tags);
      const { data: row, error } = await supabase.from('conversations').update({ tags }).eq('id', id).select('id').maybeSingle();
      if (error || !row) return failed(error ? serverMessage(error, 'Failed to save the tags') : 'Conversation not found', error ? 500 : 404);
      return redirectWithSuccess(page, 'Tags saved');
    }
    case 'merge': {
      const target = field('target_id');
      if (!isUuid(target)) return failed('Choose the conversation to merge into');
      const { error } = await supabase.rpc('merge_conversation', { p_source: id, p_target: target });
      if (error?.code === 'P0002') return failed('Conversation not found', 404);
      if (error) return failed(serverMessage(error, 'Failed to merge the conversations'), error.code === '22023' ? 400 : 500);
      return redirectWithSuccess(`/messages/${target}`, 'Conversations merged');
    }
    case 'replying': {
      // The reply box has focus (JavaScript on): a short-lived presence row. Never a page of its own.
      const { error } = await supabase.rpc('mark_replying', { p_conversation_id: id });
      if (error?.code === 'P0002') return failed('Conversation not found', 404);
      if (error) return failed(serverMessage(error, 'Failed to update'), error.code === '42501' ? 403 : 500);
      // Posted by the page's script only (a fetcher): an answer, not a page; the page does not reload for it.
      return data({ replying: true as const });
    }
    default:
      return null;
  }
}
