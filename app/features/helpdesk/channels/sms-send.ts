// helpdesk.send_sms (decision 076): a reply (or a composed first message) on
// an SMS or WhatsApp conversation, sent through the account's 'sms'
// integration, a Twilio-compatible HTTP API:
//   POST <api_url>/2010-04-01/Accounts/<account_sid>/Messages.json
//   Basic auth account_sid:auth_token; form To, From, Body, StatusCallback
// answered 201 with the message's sid. The credentials are read with the
// service role and never leave the server. One call under a hard deadline; a
// refusal (4xx) fails the message at once with the provider's reason, a
// timeout or 5xx is retried by the runner (the message stays 'Sending' with
// the reason). Without an integration the message is kept as failed.
// Imports are relative (no ~/): the db tests load this file in Node (tsconfig.node.json).
import type { SupabaseClient } from '@supabase/supabase-js';
import { postToProvider, ProviderError } from '../../../lib/provider-fetch.ts';
import { SMS_HOOK_PREFIX } from './sms-hook.server.ts';

/** A message that cannot be sent by trying again: it is marked failed with the reason. */
export class SmsFailed extends Error {}

export const SMS_TIMEOUT_MS = 10_000;
export const NO_SMS_PROVIDER = 'No SMS provider configured';
const DEFAULT_API_URL = 'https://api.twilio.com';

interface SmsConfig {
  account_sid?: unknown;
  auth_token?: unknown;
  from_number?: unknown;
  whatsapp_from?: unknown;
  api_url?: unknown;
}

const str = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const e164 = (phone: string | null | undefined) => {
  const digits = (phone ?? '').replace(/\D/g, '');
  return /^[0-9]{5,16}$/.test(digits) ? `+${digits}` : null;
};

/** SMS_TIMEOUT_MS: a shorter deadline for tests (never set in production, never longer than SMS_TIMEOUT_MS). */
export type SmsEnv = { SITE_URL?: string; PROVIDER_ALLOW_HOSTS?: string; SMS_TIMEOUT_MS?: string };

/** Sends one queued outbound message of `accountId`; throws SmsFailed (kept failed) or an Error to try again. */
export async function sendSmsMessage(admin: SupabaseClient, env: SmsEnv, accountId: string, messageId: string): Promise<void> {
  const { data: message, error } = await admin
    .from('messages')
    .select('id, account_id, body, direction, delivery_status, conversation:conversations(id, channel, contact:contacts(phone))')
    .eq('id', messageId)
    .maybeSingle();
  if (error) throw new Error(`reading the message failed: ${error.message}`);
  // The runner acts for the platform: the message must be of the job's own account, and an outbound one.
  if (!message || message.account_id !== accountId || message.direction !== 'outbound') throw new SmsFailed('The message is gone');
  if (message.delivery_status !== 'queued') return; // sent (or failed) already: never twice
  const conversation = message.conversation as unknown as { id: string; channel: string; contact: { phone: string | null } | null };

  const fail = async (reason: string): Promise<never> => {
    await admin.from('messages').update({ delivery_status: 'failed', delivery_error: reason.slice(0, 2000) }).eq('id', message.id);
    throw new SmsFailed(reason);
  };

  const { data: provider, error: providerError } = await admin.rpc('provider_credentials', { p_account_id: message.account_id, p_type: 'sms' });
  if (providerError) throw new Error(`reading the SMS integration failed: ${providerError.message}`);
  const found = provider as { id: string; config: SmsConfig } | null;
  if (!found) return fail(NO_SMS_PROVIDER);
  const config = found.config ?? {};
  const sid = str(config.account_sid);
  const token = str(config.auth_token);
  const whatsapp = conversation.channel === 'whatsapp';
  const fromNumber = e164(whatsapp ? str(config.whatsapp_from) || str(config.from_number) : str(config.from_number));
  if (!/^[A-Za-z0-9]{10,64}$/.test(sid) || !token || !fromNumber) return fail('The SMS integration needs an account SID, an auth token and a from number');
  const to = e164(conversation.contact?.phone);
  if (!to) return fail('The contact has no phone number');

  const siteEnv = env;
  const base = (str(config.api_url) || DEFAULT_API_URL).replace(/\/+$/, '');
  const form = new URLSearchParams({
    To: whatsapp ? `whatsapp:${to}` : to,
    From: whatsapp ? `whatsapp:${fromNumber}` : fromNumber,
    Body: message.body.slice(0, 1600),
  });
  const site = str(siteEnv.SITE_URL).replace(/\/+$/, '');
  if (/^https?:\/\//.test(site)) form.set('StatusCallback', `${site}${SMS_HOOK_PREFIX}${found.id}/status`);

  let answer;
  try {
    answer = await postToProvider(
      `${base}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`,
      {
        headers: {
          Authorization: `Basic ${btoa(`${sid}:${token}`)}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: form.toString(),
      },
      { allowHosts: siteEnv.PROVIDER_ALLOW_HOSTS, timeoutMs: Math.min(Number(siteEnv.SMS_TIMEOUT_MS) || SMS_TIMEOUT_MS, SMS_TIMEOUT_MS) },
    );
  } catch (caught) {
    if (caught instanceof ProviderError && caught.permanent) return fail(caught.message);
    // No answer in time: the provider may have taken the message before the deadline, and a retry could send
    // it twice. Kept as failed, saying so, for a person to check (a connection that failed is tried again).
    if (caught instanceof ProviderError && /did not answer/.test(caught.message)) return fail(`${caught.message}: it may have been sent; check the provider before sending it again`);
    const reason = caught instanceof Error ? caught.message : String(caught);
    await admin.from('messages').update({ delivery_error: reason.slice(0, 2000) }).eq('id', message.id);
    throw caught;
  }
  const json = (answer.json ?? {}) as { sid?: unknown; message?: unknown; code?: unknown };
  if (answer.status >= 500 || answer.status === 429) {
    const reason = `The SMS provider answered ${answer.status}; trying again`;
    await admin.from('messages').update({ delivery_error: reason }).eq('id', message.id);
    throw new Error(reason);
  }
  if (answer.status < 200 || answer.status >= 300 || typeof json.sid !== 'string') {
    // eslint-disable-next-line no-control-regex -- the provider's words are kept on one line, without control characters
    const said = typeof json.message === 'string' ? json.message.replace(/[\x00-\x1f\x7f]+/g, ' ').slice(0, 500) : `status ${answer.status}`;
    return fail(`The SMS provider refused the message: ${said}`);
  }
  const stored = await admin
    .from('messages')
    .update({ delivery_status: 'sent', delivery_error: null, sent_at: new Date().toISOString(), external_id: json.sid.slice(0, 64) })
    .eq('id', message.id)
    .eq('delivery_status', 'queued');
  if (stored.error) throw new Error(`recording the delivery failed: ${stored.error.message}`);
}
