// The optional AI provider of doc2data (decision 082): an account's active
// integration of type 'ai' (an OpenAI-compatible chat-completions endpoint:
// api_url, model, api_key), asked about a document whose template-free
// result failed its cross-checks. Only the jobs runner calls it, with the
// service role reading the key (integration_credentials; no browser-facing
// role can). The URL is one an admin typed, so it must be https on a public
// host (smtp-policy.ts's address checks): never the Worker's neighbours. The
// local stack and the tests allow their stand-in by name (PROVIDER_ALLOW_HOSTS,
// "host:port,host:port"); production sets nothing. One call, a hard deadline,
// an answer of at most 256 KB, and redirects not followed (they could lead
// past the address check).
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '~/lib/database.types';
import { allowedHosts, ipv4Parts, ipv6Groups, isPrivateIpv4, isPrivateIpv6 } from '~/lib/mail/smtp-policy';
import { AiAnswerError, answerObject, chatRequest } from './ai-answer';

/** The most the provider is waited for (the job's own deadline is 45 s). */
export const AI_DEADLINE_MS = 20_000;
export const MAX_ANSWER_BYTES = 256 * 1024;

export interface AiProvider {
  url: string;
  model: string;
  apiKey: string;
  timeoutMs: number;
}

/** Why a provider URL may not be called, or null when it may. */
export function aiUrlProblem(input: string, allowSetting: string | undefined): string | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return 'not a URL';
  }
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  if (allowedHosts(allowSetting).has(`${host}:${port}`)) return null;
  if (url.protocol !== 'https:') return 'not https';
  if (url.username || url.password) return 'credentials in the URL';
  const v4 = ipv4Parts(host);
  if (v4) return isPrivateIpv4(v4) ? 'a private address' : null;
  const v6 = ipv6Groups(host);
  if (v6) return isPrivateIpv6(v6) ? 'a private address' : null;
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal') || !host.includes('.')) {
    return 'a private address';
  }
  return null;
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
  const { data, error } = await admin
    .from('integrations')
    .select('id')
    .eq('account_id', accountId)
    .eq('type', 'ai')
    .eq('is_active', true)
    .order('created_at')
    .limit(1);
  if (error) throw new Error(`reading the AI integration failed: ${error.message}`);
  if (!data[0]) return null;
  const credentials = await admin.rpc('integration_credentials', { p_integration_id: data[0].id });
  if (credentials.error) throw new Error(`reading the AI integration's credentials failed: ${credentials.error.message}`);
  const config = (credentials.data ?? {}) as Record<string, unknown>;
  const base = text(config, 'api_url', 'base_url');
  const model = text(config, 'model');
  if (!base || !model) return null;
  const seconds = Number(config.timeout_seconds);
  const timeoutMs = Number.isFinite(seconds) && seconds >= 1 ? Math.min(seconds * 1000, AI_DEADLINE_MS) : AI_DEADLINE_MS;
  const url = /\/chat\/completions\/?$/.test(base) ? base : `${base.replace(/\/+$/, '')}/chat/completions`;
  return { url, model, apiKey: text(config, 'api_key'), timeoutMs };
}

export class AiProviderError extends Error {}

async function readCapped(response: Response, signal: AbortSignal): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', stop, { once: true });
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MAX_ANSWER_BYTES) {
        stop();
        throw new AiProviderError('The AI provider answered too much');
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
  if (signal.aborted) throw new AiProviderError('The AI provider did not answer in time');
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** Asks the provider for the fields of `documentText`: the answer's JSON object, or an AiProviderError saying why not. */
export async function askAiProvider(provider: AiProvider, documentText: string, allowSetting: string | undefined): Promise<Record<string, unknown>> {
  const problem = aiUrlProblem(provider.url, allowSetting);
  if (problem) throw new AiProviderError(`The AI provider's URL is refused: ${problem}`);
  const deadline = AbortSignal.timeout(provider.timeoutMs);
  const late = () => new AiProviderError(`The AI provider did not answer within ${provider.timeoutMs / 1000} s`);
  let response: Response;
  try {
    response = await fetch(provider.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(provider.apiKey ? { Authorization: `Bearer ${provider.apiKey}` } : {}) },
      body: JSON.stringify(chatRequest(provider.model, documentText)),
      signal: deadline,
      redirect: 'manual',
    });
  } catch (caught) {
    if (deadline.aborted) throw late();
    throw new AiProviderError(`The AI provider could not be reached: ${caught instanceof Error ? caught.message : String(caught)}`);
  }
  let body: string;
  try {
    body = await readCapped(response, deadline);
  } catch (caught) {
    if (deadline.aborted) throw late();
    throw caught instanceof AiProviderError ? caught : new AiProviderError('The AI provider\'s answer could not be read');
  }
  if (!response.ok) throw new AiProviderError(`The AI provider answered ${response.status}`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new AiProviderError('The AI provider\'s answer is not JSON');
  }
  try {
    return answerObject(json);
  } catch (caught) {
    if (caught instanceof AiAnswerError) throw new AiProviderError(caught.message);
    throw caught;
  }
}
