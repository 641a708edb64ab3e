// helpdesk.fetch_media (decision 089): one SMS/WhatsApp media item (a
// message_attachments row the SMS hook left 'pending' with Twilio's link)
// copied into the helpdesk bucket, by the jobs runner, never in the webhook's
// request. Twilio serves media to the account's own credentials (Basic auth
// account_sid:auth_token) and answers with a redirect to its CDN; so:
//   - every URL, the first and each redirect's, passes the provider address
//     checks (https on a public host; tests allow their stand-in by
//     PROVIDER_ALLOW_HOSTS), at most 3 redirects;
//   - the credentials go only to the integration's own API origin (default
//     https://api.twilio.com), never to where a redirect leads;
//   - one hard deadline for the whole fetch, bytes read with a cap (the
//     bucket's 10 MB limit), the stream cancelled past it.
// Exactly once: only a 'pending' row is fetched and the row moves on with a
// condition on 'pending'; the object's path is the row's own, so a retry after
// a lost answer overwrites the same object. A refusal, a timeout, too much or
// an address refused marks the media 'failed' with the reason at once; a 5xx,
// 429 or a broken connection is tried again by the runner, the last attempt
// marking it failed. The message itself is never touched.
// Imports are relative (no ~/): the db tests may load this file in Node.
import type { SupabaseClient } from '@supabase/supabase-js';
import { readCappedBytes } from '../../../lib/capped-stream.ts';
import { fetchCheckingRedirects, RefusedHop } from '../../../lib/checked-fetch.ts';
import { providerUrlProblem } from '../../../lib/provider-fetch.ts';

export const MEDIA_TIMEOUT_MS = 20_000;
/** The helpdesk bucket's file size limit (migration 20261204610002). */
export const MAX_MEDIA_BYTES = 10 * 1024 * 1024;
export const MEDIA_BUCKET = 'helpdesk';
const MAX_REDIRECTS = 3;
const DEFAULT_API_URL = 'https://api.twilio.com';

/** MEDIA_TIMEOUT_MS: a shorter deadline for tests (never set in production, never longer than the default). */
export type MediaEnv = { PROVIDER_ALLOW_HOSTS?: string; MEDIA_TIMEOUT_MS?: string };

/** The media cannot be fetched by trying again: it is marked failed with the reason. */
export class MediaFailed extends Error {}
/** Worth another try (a 5xx, a 429, a broken connection). */
class MediaRetry extends Error {}

const str = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
const origin = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};
const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

interface Fetched {
  bytes: Uint8Array;
  contentType: string | null;
}

/** GET a media URL under one deadline, following at most 3 checked redirects; credentials to `authOrigin` only. */
export async function fetchMedia(
  url: string,
  options: { authorization: string | null; authOrigin: string | null; allowHosts: string | undefined; timeoutMs: number; maxBytes: number },
): Promise<Fetched> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const late = () => new MediaFailed(`The media did not arrive within ${options.timeoutMs / 1000} s`);
  let response: Response;
  try {
    response = await fetchCheckingRedirects(url, {
      check: (current) => providerUrlProblem(current, options.allowHosts),
      // The credentials stay with the API's origin, never sent where a redirect leads.
      init: (current) => ({
        headers: { Accept: '*/*', ...(options.authorization && origin(current) === options.authOrigin ? { Authorization: options.authorization } : {}) },
      }),
      signal: deadline,
      maxRedirects: MAX_REDIRECTS,
      subject: 'The media',
    });
  } catch (caught) {
    if (caught instanceof RefusedHop) throw new MediaFailed(caught.first ? `The media's address is refused: ${caught.message}` : caught.message);
    if (deadline.aborted) throw late();
    throw new MediaRetry(`The media could not be reached: ${caught instanceof Error ? caught.message : String(caught)}`);
  }
  if (response.status === 429 || response.status >= 500) {
    await response.body?.cancel();
    throw new MediaRetry(`The provider answered ${response.status}`);
  }
  if (response.status < 200 || response.status >= 300) {
    await response.body?.cancel();
    throw new MediaFailed(`The provider answered ${response.status}`);
  }
  if (Number(response.headers.get('Content-Length') ?? '0') > options.maxBytes) {
    await response.body?.cancel();
    throw new MediaFailed(`The media is larger than ${mb(options.maxBytes)}`);
  }
  let bytes: Uint8Array | null;
  try {
    bytes = await readCappedBytes(response.body, options.maxBytes, deadline);
  } catch {
    if (deadline.aborted) throw late();
    throw new MediaRetry('The media stopped arriving');
  }
  if (deadline.aborted) throw late();
  if (bytes === null) throw new MediaFailed(`The media is larger than ${mb(options.maxBytes)}`);
  const type = (response.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
  return { bytes, contentType: /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/.test(type) ? type : null };
}

interface MediaRow {
  id: string;
  account_id: string;
  conversation_id: string;
  file_name: string;
  mime_type: string;
  media_url: string | null;
  fetch_status: string;
}

/**
 * Fetches one pending media item of `accountId` into Storage. Throws MediaFailed when it was marked failed
 * (the job fails at once), or another Error to be tried again (`lastAttempt`: marked failed instead).
 */
export async function fetchInboundMedia(
  admin: SupabaseClient,
  env: MediaEnv,
  accountId: string,
  attachmentId: string,
  lastAttempt: boolean,
): Promise<'stored' | 'already'> {
  const { data, error } = await admin
    .from('message_attachments')
    .select('id, account_id, conversation_id, file_name, mime_type, media_url, fetch_status')
    .eq('id', attachmentId)
    .maybeSingle();
  if (error) throw new Error(`reading the media failed: ${error.message}`);
  const row = data as MediaRow | null;
  // The runner acts for the platform: the row must be of the job's own account, and a media item.
  if (!row || row.account_id !== accountId || !row.media_url) throw new MediaFailed('The media is gone');
  if (row.fetch_status !== 'pending') return 'already';

  const mark = async (reason: string, status: 'failed' | 'pending') => {
    const { error: markError } = await admin
      .from('message_attachments')
      .update({ fetch_status: status, fetch_error: reason.slice(0, 500) })
      .eq('id', row.id)
      .eq('fetch_status', 'pending');
    if (markError) throw new Error(`recording the media's failure failed: ${markError.message}`);
  };

  try {
    const { data: provider, error: providerError } = await admin.rpc('provider_credentials', { p_account_id: accountId, p_type: 'sms' });
    if (providerError) throw new Error(`reading the SMS integration failed: ${providerError.message}`);
    const config = ((provider as { config?: Record<string, unknown> } | null)?.config ?? null);
    if (!config) throw new MediaFailed('No SMS provider configured: the media could not be fetched');
    const sid = str(config.account_sid);
    const token = str(config.auth_token);
    const fetched = await fetchMedia(row.media_url, {
      authorization: sid && token ? `Basic ${btoa(`${sid}:${token}`)}` : null,
      authOrigin: origin(str(config.api_url) || DEFAULT_API_URL),
      allowHosts: env.PROVIDER_ALLOW_HOSTS,
      timeoutMs: Math.min(Number(env.MEDIA_TIMEOUT_MS) || MEDIA_TIMEOUT_MS, MEDIA_TIMEOUT_MS),
      maxBytes: MAX_MEDIA_BYTES,
    });
    const mimeType = fetched.contentType ?? row.mime_type;
    // The account's folder first (Storage's policy reads it), then the row's own: one object per media item.
    const path = `${row.account_id}/${row.conversation_id}/${row.id}/${row.file_name}`;
    const upload = await admin.storage.from(MEDIA_BUCKET).upload(path, fetched.bytes, { contentType: mimeType, upsert: true });
    if (upload.error) throw new Error(`storing the media failed: ${upload.error.message}`);
    const { error: storeError } = await admin
      .from('message_attachments')
      .update({ fetch_status: 'stored', fetch_error: null, storage_path: path, size_bytes: fetched.bytes.byteLength, mime_type: mimeType })
      .eq('id', row.id)
      .eq('fetch_status', 'pending');
    if (storeError) throw new Error(`recording the media failed: ${storeError.message}`);
    return 'stored';
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    if (caught instanceof MediaFailed || lastAttempt) {
      await mark(reason, 'failed');
      throw caught instanceof MediaFailed ? caught : new MediaFailed(reason);
    }
    // Kept pending, the reason shown meanwhile; the runner tries again.
    await mark(reason, 'pending');
    throw caught;
  }
}
