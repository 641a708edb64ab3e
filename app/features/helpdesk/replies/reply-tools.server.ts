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

export type Suggestion = { draft: string } | { error: string; status: number };

export async function suggestFor(supabase: Supabase, conversationId: string): Promise<Suggestion> {
  const [conversation, messages, tools] = await Promise.all([
    supabase.from('conversations').select('account_id, contact:contacts(name)').eq('id', conversationId).maybeSingle(),
    supabase.from('messages').select('direction, body').eq('conversation_id', conversationId).order('created_at', { ascending: false }).order('id', { ascending: false }).limit(40),
    loadReplyTools(supabase, conversationId),
  ]);
  if (conversation.error || messages.error) return { error: TEXTS.suggestFailed, status: 500 };
  if (!conversation.data) return { error: 'Conversation not found', status: 404 };
  const admin = serviceClient(env);
  if (!admin) return { error: TEXTS.noAiProvider, status: 400 };
  const { data: provider, error } = await admin.rpc('provider_credentials', { p_account_id: conversation.data.account_id, p_type: 'ai' });
  if (error) return { error: TEXTS.suggestFailed, status: 500 };
  if (!provider) return { error: TEXTS.noAiProvider, status: 400 };
  const contact = conversation.data.contact as unknown as { name: string } | null;
  const thread = [...(messages.data ?? [])].reverse();
  const canned = ((tools.data as unknown as ReplyTools | null) ?? NO_TOOLS).canned_replies;
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
