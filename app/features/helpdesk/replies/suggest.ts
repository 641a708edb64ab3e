// Suggest reply (decision 076): a draft from the account's AI provider, an
// OpenAI-compatible chat completions API configured as an integration of
// type 'ai' (api_url, api_key, model):
//   POST <api_url>/chat/completions  Authorization: Bearer <api_key>
//   { model, messages: [{ role, content }], temperature, max_tokens }
// answered { choices: [{ message: { content } }] }. The prompt is built from
// the thread (the customer's messages as the user's, the team's replies as
// the assistant's; internal notes never leave) and the account's canned
// replies as the house style. One call under a hard deadline. The draft is
// put into the reply box for a person to edit; nothing is ever sent by it.
// Imports are relative (no ~/): the db tests load this file in Node.
import { postToProvider, ProviderError } from '../../../lib/provider-fetch.ts';

export const SUGGEST_TIMEOUT_MS = 15_000;
const MAX_MESSAGES = 20;
const MAX_MESSAGE_CHARS = 2_000;
const MAX_CANNED = 10;
const MAX_SUGGESTION_CHARS = 20_000;

export class SuggestFailed extends Error {}

export interface AiConfig {
  api_url?: unknown;
  api_key?: unknown;
  model?: unknown;
}

export interface ThreadMessage {
  direction: string;
  body: string;
  sender_name?: string | null;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The chat the provider is given: instructions, the house style, then the thread's last messages. */
export function buildPrompt(thread: ThreadMessage[], canned: { name: string; body: string }[], contactName: string | null): ChatMessage[] {
  const style = canned
    .slice(0, MAX_CANNED)
    .map((c) => `- ${c.name}: ${clip(c.body, 600)}`)
    .join('\n');
  const system = [
    'You draft replies for a customer support agent. Write the next reply to the customer, in the language of their last message,',
    'short and polite, as plain text without a subject line. Use only facts from the conversation; never invent order numbers,',
    'dates or promises. A person reads and edits your draft before anything is sent.',
    contactName ? `The customer is ${contactName}.` : '',
    style ? `The team's saved answers, for tone and facts:\n${style}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const spoken = thread.filter((m) => m.direction === 'inbound' || m.direction === 'outbound').slice(-MAX_MESSAGES);
  return [
    { role: 'system', content: system },
    ...spoken.map((m): ChatMessage => ({ role: m.direction === 'inbound' ? 'user' : 'assistant', content: clip(m.body, MAX_MESSAGE_CHARS) })),
  ];
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The provider's draft for the chat, or SuggestFailed with a reason a person can act on. */
export async function suggestReply(
  config: AiConfig,
  messages: ChatMessage[],
  options: { allowHosts: string | undefined; timeoutMs?: number },
): Promise<string> {
  const base = text(config.api_url).replace(/\/+$/, '');
  const key = text(config.api_key);
  const model = text(config.model);
  if (!base || !key || !model) throw new SuggestFailed('The AI integration needs an API URL, an API key and a model');
  let answer;
  try {
    answer = await postToProvider(
      `${base}/chat/completions`,
      {
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ model, messages, temperature: 0.3, max_tokens: 600 }),
      },
      { allowHosts: options.allowHosts, timeoutMs: options.timeoutMs ?? SUGGEST_TIMEOUT_MS },
    );
  } catch (caught) {
    throw new SuggestFailed(caught instanceof ProviderError ? caught.message : 'The AI provider could not be reached');
  }
  if (answer.status < 200 || answer.status >= 300) throw new SuggestFailed(`The AI provider answered ${answer.status}`);
  const choice = (answer.json as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0];
  const draft = text(choice?.message?.content);
  if (!draft) throw new SuggestFailed('The AI provider gave no draft');
  return draft.slice(0, MAX_SUGGESTION_CHARS);
}
