// The conversation page's reply tools on the server (decision 076): a
// canned reply filled for the conversation (reply_tools), and Suggest reply.
// The thread is read with the person's own client (row-level security
// decides they may); only then does the service role read the account's AI
// credentials, which never reach the page.
import { env } from 'cloudflare:workers';
import { serviceClient } from '~/jobs/runner.server';
import type { Supabase } from '~/lib/supabase.server';
import { buildPrompt, suggestReply, SuggestFailed, type AiConfig } from './suggest';
import { REPLY_TOOL_TEXTS as TEXTS } from './texts';

export interface CannedReply {
  id: string;
  name: string;
  body: string;
}

export interface ReplyTools {
  canned_replies: CannedReply[];
  sms_configured: boolean;
  ai_configured: boolean;
}

export const NO_TOOLS: ReplyTools = { canned_replies: [], sms_configured: false, ai_configured: false };

export function loadReplyTools(supabase: Supabase, conversationId: string) {
  return supabase.rpc('reply_tools', { p_conversation_id: conversationId });
}

/** The typed text with a canned reply (filled for the conversation) added at its end. */
export async function withCannedReply(supabase: Supabase, conversationId: string, cannedId: string, typed: string): Promise<string | null> {
  const { data, error } = await loadReplyTools(supabase, conversationId);
  if (error) throw new Error(`reading canned replies failed: ${error.message}`);
  const reply = (data as unknown as ReplyTools).canned_replies.find((c) => c.id === cannedId);
  if (!reply) return null;
  return typed.trim() ? `${typed.trimEnd()}\n\n${reply.body}` : reply.body;
}

/** A template or canned reply ranked by suggest_replies (decision 083), filled for the conversation. */
export interface RankedReply {
  id: string;
  source: 'canned' | 'template';
  name: string;
  body: string;
  score: number;
}

export function rankReplies(supabase: Supabase, conversationId: string, only?: string) {
  return supabase.rpc('suggest_replies', { p_conversation_id: conversationId, p_limit: 5, ...(only ? { p_id: only } : {}) });
}

/** The typed text with a ranked suggestion (by its id) added at its end; null when it is not the account's. */
export async function withSuggestion(supabase: Supabase, conversationId: string, suggestionId: string, typed: string): Promise<string | null> {
  const { data, error } = await rankReplies(supabase, conversationId, suggestionId);
  if (error) throw new Error(`reading templates failed: ${error.message}`);
  const reply = ((data as unknown as RankedReply[] | null) ?? [])[0];
  if (!reply) return null;
  return typed.trim() ? `${typed.trimEnd()}\n\n${reply.body}` : reply.body;
}

/** A draft from the AI provider, or (without one) the templates and canned replies most like the last message. */
export type Suggestion = { draft: string } | { ranked: RankedReply[] } | { error: string; status: number };

export async function suggestFor(supabase: Supabase, conversationId: string): Promise<Suggestion> {
  const [conversation, messages, tools, ranked] = await Promise.all([
    supabase.from('conversations').select('account_id, contact:contacts(name)').eq('id', conversationId).maybeSingle(),
    supabase.from('messages').select('direction, body').eq('conversation_id', conversationId).order('created_at', { ascending: false }).order('id', { ascending: false }).limit(40),
    loadReplyTools(supabase, conversationId),
    rankReplies(supabase, conversationId),
  ]);
  if (conversation.error || messages.error || ranked.error) return { error: TEXTS.suggestFailed, status: 500 };
  if (!conversation.data) return { error: 'Conversation not found', status: 404 };
  const matches = (ranked.data as unknown as RankedReply[] | null) ?? [];
  const admin = serviceClient(env);
  const { data: provider, error } = admin
    ? await admin.rpc('provider_credentials', { p_account_id: conversation.data.account_id, p_type: 'ai' })
    : { data: null, error: null };
  if (error) return { error: TEXTS.suggestFailed, status: 500 };
  // Without a provider: the account's own answers most like the customer's last message, to insert and edit.
  if (!provider) return matches.length ? { ranked: matches } : { error: TEXTS.noMatch, status: 404 };
  const contact = conversation.data.contact as unknown as { name: string } | null;
  const thread = [...(messages.data ?? [])].reverse();
  // The house style: the templates most like the message first, then the canned replies not among them.
  const rankedIds = new Set(matches.map((m) => m.id));
  const canned = [...matches, ...((tools.data as unknown as ReplyTools | null) ?? NO_TOOLS).canned_replies.filter((c) => !rankedIds.has(c.id))];
  try {
    const draft = await suggestReply((provider as unknown as { config: AiConfig }).config ?? {}, buildPrompt(thread, canned, contact?.name ?? null), {
      allowHosts: (env as unknown as { PROVIDER_ALLOW_HOSTS?: string }).PROVIDER_ALLOW_HOSTS,
    });
    return { draft };
  } catch (caught) {
    if (caught instanceof SuggestFailed) return { error: `${TEXTS.suggestFailed}: ${caught.message}`, status: 502 };
    throw caught;
  }
}
