// The optional AI provider of doc2data (decision 082): an account's active
// integration of type 'ai' (an OpenAI-compatible chat-completions endpoint:
// api_url, model, api_key), asked about a document whose template-free
// result failed its cross-checks. Only the jobs runner calls it, with the
// service role reading the key (provider_credentials; no browser-facing
// role can). The URL is one an admin typed: the call goes through the shared
// provider fetch (app/lib/provider-fetch.ts: https on a public host only, a
// hard deadline, an answer of at most 256 KB, redirects not followed).
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';
import { postToProvider } from '~/lib/provider-fetch';
import { AiAnswerError, answerObject, chatRequest } from './ai-answer';

/** The most the provider is waited for (the job's own deadline is 45 s). */
export const AI_DEADLINE_MS = 20_000;

export interface AiProvider {
  url: string;
  model: string;
  apiKey: string;
  timeoutMs: number;
}

const text = (config: Record<string, unknown>, ...keys: string[]) => {
  for (const key of keys) if (typeof config[key] === 'string' && (config[key] as string).trim()) return (config[key] as string).trim();
  return '';
};

/**
 * The account's AI provider, or null without one (then extraction is as
 * without it). Its config may shorten the deadline (timeout_seconds, 1–20),
 * never lengthen it.
 */
export async function aiProviderOf(admin: SupabaseClient<Database>, accountId: string): Promise<AiProvider | null> {
  // One call: the account's first active 'ai' integration with its credentials (as the helpdesk's providers).
  const { data, error } = await admin.rpc('provider_credentials', { p_account_id: accountId, p_type: 'ai' });
  if (error) throw new Error(`reading the AI integration failed: ${error.message}`);
  if (!data) return null;
  const config = ((data as { config?: Record<string, unknown> | null }).config ?? {}) as Record<string, unknown>;
  const base = text(config, 'api_url', 'base_url');
  const model = text(config, 'model');
  if (!base || !model) return null;
  const seconds = Number(config.timeout_seconds);
  const timeoutMs = Number.isFinite(seconds) && seconds >= 1 ? Math.min(seconds * 1000, AI_DEADLINE_MS) : AI_DEADLINE_MS;
  const url = /\/chat\/completions\/?$/.test(base) ? base : `${base.replace(/\/+$/, '')}/chat/completions`;
  return { url, model, apiKey: text(config, 'api_key'), timeoutMs };
}

export class AiProviderError extends Error {}

/** Asks the provider for the fields of `documentText`: the answer's JSON object, or an AiProviderError saying why not. */
export async function askAiProvider(provider: AiProvider, documentText: string, allowSetting: string | undefined): Promise<Record<string, unknown>> {
  let answer;
  try {
    answer = await postToProvider(
      provider.url,
      {
        headers: { 'Content-Type': 'application/json', ...(provider.apiKey ? { Authorization: `Bearer ${provider.apiKey}` } : {}) },
        body: JSON.stringify(chatRequest(provider.model, documentText)),
      },
      { allowHosts: allowSetting, timeoutMs: provider.timeoutMs },
    );
  } catch (caught) {
    throw new AiProviderError(caught instanceof Error ? caught.message.replace("The provider", 'The AI provider') : String(caught));
  }
  if (answer.status < 200 || answer.status >= 300) throw new AiProviderError(`The AI provider answered ${answer.status}`);
  if (answer.json === null) throw new AiProviderError("The AI provider's answer is not JSON");
  try {
    return answerObject(answer.json);
  } catch (caught) {
    if (caught instanceof AiAnswerError) throw new AiProviderError(caught.message);
    throw caught;
  }
}
