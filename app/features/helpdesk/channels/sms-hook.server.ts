// POST /hooks/sms/<integration id> and /hooks/sms/<integration id>/status
// (decision 076): Twilio's webhooks for an inbound SMS or WhatsApp message and
// for an outbound message's delivery status, in Twilio's format
// (application/x-www-form-urlencoded: From, To, Body, MessageSid, NumMedia,
// MediaUrl0…, MediaContentType0…, ProfileName; MessageStatus, ErrorCode). The account is the one
// whose 'sms' integration the URL names, never anything the post says; the
// post must carry that integration's Twilio signature (twilio.ts).
// Answered before React Router (Twilio sends no Origin): 405 not a POST,
// 413 over 64 KB, 415 not a form, 403 a wrong signature or an unknown or
// inactive integration (alike: nothing to learn by guessing), 400 not a
// message, 200 stored (or already stored: the same MessageSid) with empty TwiML.
import type { SupabaseClient } from '@supabase/supabase-js';
import { readCappedBytes } from '../../../lib/capped-stream.ts';
import { isTwilioSigned, TWILIO_SIGNATURE_HEADER } from './twilio.ts';

export const SMS_HOOK_PREFIX = '/hooks/sms/';
const HOOK_PATH = /^\/hooks\/sms\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(\/status)?$/;
export const MAX_SMS_HOOK_BYTES = 64 * 1024;
const MAX_PARAMS = 200;

export const isSmsHookPath = (pathname: string) => pathname.startsWith(SMS_HOOK_PREFIX);

const refuse = (status: number, error: string) =>
  new Response(JSON.stringify({ error }), { status, headers: { 'Content-Type': 'application/json; charset=utf-8' } });
// Empty TwiML: Twilio sends no automatic answer.
const accepted = () => new Response('<?xml version="1.0" encoding="UTF-8"?><Response></Response>', { status: 200, headers: { 'Content-Type': 'text/xml; charset=utf-8' } });

async function readForm(request: Request): Promise<string | null> {
  const bytes = await readCappedBytes(request.body, MAX_SMS_HOOK_BYTES);
  return bytes && new TextDecoder().decode(bytes);
}

interface HookCredentials {
  id: string;
  account_id: string;
  config: { auth_token?: unknown } | null;
}

/** The hook's work with the service role `admin` (the Worker passes its own; tests theirs). */
export async function handleSmsHook(request: Request, admin: SupabaseClient): Promise<Response> {
  const url = new URL(request.url);
  const match = HOOK_PATH.exec(url.pathname);
  if (!match) return refuse(404, 'No such hook');
  if (request.method !== 'POST') return refuse(405, 'Use POST');
  if (Number(request.headers.get('Content-Length') ?? '0') > MAX_SMS_HOOK_BYTES) return refuse(413, 'The body is larger than 64 KB');
  if (!(request.headers.get('Content-Type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return refuse(415, 'Send application/x-www-form-urlencoded');
  }
  const body = await readForm(request);
  if (body === null) return refuse(413, 'The body is larger than 64 KB');
  const params = [...new URLSearchParams(body)];
  if (params.length > MAX_PARAMS) return refuse(413, 'Too many parameters');

  const [, integrationId, status] = match;
  const { data, error } = await admin.rpc('sms_hook_credentials', { p_integration_id: integrationId });
  if (error) throw new Error(`reading the SMS integration failed: ${error.message}`);
  const credentials = data as HookCredentials | null;
  const token = typeof credentials?.config?.auth_token === 'string' ? credentials.config.auth_token : '';
  // Twilio signs the URL it called: the request's own, query included.
  if (!(await isTwilioSigned(token, request.url, params, request.headers.get(TWILIO_SIGNATURE_HEADER)))) {
    return refuse(403, 'Wrong signature');
  }

  const form = new Map<string, string>();
  for (const [key, value] of params) if (!form.has(key)) form.set(key, value);
  const sid = form.get('MessageSid') ?? form.get('SmsSid') ?? '';

  if (status) {
    const { error: statusError } = await admin.rpc('record_sms_status', {
      p_integration_id: integrationId,
      p_sid: sid,
      p_status: form.get('MessageStatus') ?? form.get('SmsStatus') ?? '',
      p_error_code: form.get('ErrorCode') ?? undefined,
    });
    if (statusError) throw new Error(`recording a delivery status failed: ${statusError.message}`);
    return accepted();
  }

  const from = form.get('From') ?? '';
  // Media are only noted here (a row and a job each, decision 089): the jobs runner fetches them, never this request.
  const media: string[] = [];
  const mediaTypes: string[] = [];
  const count = Math.min(Number(form.get('NumMedia') ?? '0') || 0, 10);
  for (let i = 0; i < count; i++) {
    const link = form.get(`MediaUrl${i}`);
    if (!link) continue;
    media.push(link);
    mediaTypes.push(form.get(`MediaContentType${i}`) ?? '');
  }
  const { error: storeError } = await admin.rpc('receive_sms', {
    p_integration_id: integrationId,
    p_channel: /^whatsapp:/i.test(from) ? 'whatsapp' : 'sms',
    p_from: from,
    p_body: form.get('Body') ?? '',
    p_sid: sid,
    p_profile_name: form.get('ProfileName') ?? undefined,
    p_media: media,
    p_media_types: mediaTypes,
  });
  if (storeError?.code === '22023') return refuse(400, storeError.message);
  if (storeError?.code === 'P0002') return refuse(403, 'Wrong signature');
  if (storeError) throw new Error(`storing an inbound SMS failed: ${storeError.message}`);
  return accepted();
}
