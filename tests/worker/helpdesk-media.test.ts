// SMS/WhatsApp media into Storage through the Worker (decision 089): Twilio's
// signed hook carries MediaUrl0…/MediaContentType0…; the hook answers at once
// with each item noted 'pending' (nothing fetched in its request); the jobs
// runner fetches each one from a real local HTTP server standing in for
// Twilio (tests/worker/global-setup.ts) with the account's credentials as
// Basic auth, following a redirect as Twilio answers one, into the helpdesk bucket,
// once; an oversized one, a hanging one, a 404 and a private address are kept
// on the message as not fetched, with the reason. One fresh account.
import { env, exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, signUpFreshAdmin, type Visitor } from './support/app';
import { serviceClient } from './support/backend';
import { page, readable } from './support/module-screens';
import { twilioSignature } from '../../app/features/helpdesk/channels/twilio.ts';

const TOKEN = 'worker-test-twilio-token-media-000001';
const SID = 'ACmedia0123456789abcdef';
// The providers' stand-in, the first host PROVIDER_ALLOW_HOSTS allows.
const PROVIDER = `http://${(env as unknown as { PROVIDER_ALLOW_HOSTS: string }).PROVIDER_ALLOW_HOSTS.split(',')[0]}`;
const MESSAGE_SID = 'MMworkermedia0000000000000000001';
const mediaUrl = (kind: string) => `${PROVIDER}/2010-04-01/Accounts/${SID}/Messages/${MESSAGE_SID}/Media/${kind}`;
// The stand-in's 'ok' media: a PNG signature and a recognisable tail.
const OK_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new TextEncoder().encode('opshub-media-stand-in')]);

let admin: Visitor;
let integrationId: string;

async function smsHook(params: Record<string, string>): Promise<Response> {
  const url = `${ORIGIN}/hooks/sms/${integrationId}`;
  const entries = Object.entries(params);
  return exports.default.fetch(new Request(url, {
    method: 'POST',
    body: new URLSearchParams(entries).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': await twilioSignature(TOKEN, url, entries) },
  }));
}

async function runJobs(): Promise<void> {
  const tick = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
  await tick.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
}

const asked = async () => (await (await fetch(`${PROVIDER}/_requests`)).json()) as { path: string; authorization?: string }[];

beforeAll(async () => {
  const fresh = await signUpFreshAdmin();
  admin = fresh.visitor;
  const service = serviceClient();
  const { data: user } = await service.from('users').select('account_id').eq('email', fresh.email).single();
  const accountId = (user as { account_id: string }).account_id;
  const { data: integration, error } = await service
    .from('integrations')
    .insert({ account_id: accountId, name: 'Twilio', type: 'sms', config: { account_sid: SID, auth_token: TOKEN, from_number: '+15550000009', api_url: PROVIDER } })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  integrationId = (integration as { id: string }).id;
});

describe('SMS and WhatsApp media', () => {
  it('copies each media item into Storage once, by the runner; a failed one keeps the message with its reason', async () => {
    const kinds = ['ok', 'redirect', 'big', 'hang', 'gone'];
    const params: Record<string, string> = {
      MessageSid: MESSAGE_SID, From: 'whatsapp:+15550104321', To: 'whatsapp:+15550000009', Body: 'Photos of the damage', NumMedia: '6',
    };
    kinds.forEach((kind, i) => {
      params[`MediaUrl${i}`] = mediaUrl(kind);
      params[`MediaContentType${i}`] = kind === 'big' ? 'video/mp4' : 'image/png';
    });
    // A private address (not the stand-in's allowed port): refused by the fetcher, never called.
    params.MediaUrl5 = 'https://127.0.0.1:9/2010-04-01/Media/private';
    params.MediaContentType5 = 'image/png';

    const before = (await asked()).length;
    expect((await smsHook(params)).status).toBe(200);
    // The hook answered without fetching anything: every item pending.
    expect((await asked()).slice(before).filter((r) => r.path.includes('/Media/'))).toEqual([]);
    const service = serviceClient();
    const { data: message } = await service.from('messages').select('id, conversation_id').eq('external_id', MESSAGE_SID).single();
    const { id: messageId, conversation_id: conversation } = message as { id: string; conversation_id: string };
    type Row = { id: string; media_index: number; file_name: string; fetch_status: string; fetch_error: string | null; size_bytes: number | null; mime_type: string; storage_path: string | null };
    const rows = async () => ((await service.from('message_attachments')
      .select('id, media_index, file_name, fetch_status, fetch_error, size_bytes, mime_type, storage_path')
      .eq('message_id', messageId).order('media_index')).data ?? []) as Row[];
    expect((await rows()).map((r) => [r.file_name, r.fetch_status])).toEqual([
      ['media-1.png', 'pending'], ['media-2.png', 'pending'], ['media-3.mp4', 'pending'], ['media-4.png', 'pending'],
      ['media-5.png', 'pending'], ['media-6.png', 'pending'],
    ]);
    // A replay of the delivery notes nothing again.
    expect((await smsHook(params)).status).toBe(200);
    expect(await rows()).toHaveLength(6);
    const { count: jobs } = await service.from('jobs').select('id', { count: 'exact', head: true }).eq('kind', 'helpdesk.fetch_media').eq('subject_id', messageId);
    expect(jobs).toBe(6);

    for (let i = 0; i < 20 && (await rows()).some((r) => r.fetch_status === 'pending'); i++) {
      await runJobs();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const [ok, redirected, big, hang, gone, privateHost] = await rows();
    expect(ok).toMatchObject({ fetch_status: 'stored', size_bytes: OK_BYTES.length, mime_type: 'image/png', fetch_error: null });
    expect(ok.storage_path).toBe(`${ok.storage_path!.split('/')[0]}/${conversation}/${ok.id}/media-1.png`);
    expect(redirected).toMatchObject({ fetch_status: 'stored', size_bytes: OK_BYTES.length });
    expect(big).toMatchObject({ fetch_status: 'failed', fetch_error: 'The media is larger than 10 MB', storage_path: null });
    expect(hang).toMatchObject({ fetch_status: 'failed', fetch_error: 'The media did not arrive within 1.5 s', storage_path: null });
    expect(gone).toMatchObject({ fetch_status: 'failed', fetch_error: 'The provider answered 404' });
    expect(privateHost.fetch_status).toBe('failed');
    expect(privateHost.fetch_error).toContain('Use the address of a public server');

    // Twilio's API got the account's credentials; Twilio's redirect was followed to the CDN's copy, once.
    const calls = (await asked()).slice(before);
    const basic = `Basic ${btoa(`${SID}:${TOKEN}`)}`;
    expect(calls.filter((r) => r.path.endsWith('/Media/ok')).map((r) => r.authorization)).toEqual([basic]);
    expect(calls.filter((r) => r.path === '/media-cdn/ok')).toHaveLength(1);
    expect(calls.some((r) => r.path.includes('private'))).toBe(false);

    // Staff download the stored bytes; the thread says which media were not fetched, and why.
    const download = await admin.get(`/messages/${conversation}/attachments/${ok.id}`);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(OK_BYTES);
    expect((await admin.get(`/messages/${conversation}/attachments/${big.id}`)).status).toBe(404);
    const thread = readable(await page(admin, `/messages/${conversation}`));
    expect(thread).toContain('media-1.png');
    expect(thread).toContain('media-3.mp4: Not fetched: The media is larger than 10 MB');

    // Exactly once: another run fetches nothing again.
    await runJobs();
    expect((await asked()).slice(before).filter((r) => r.path.endsWith('/Media/ok'))).toHaveLength(1);
  });
});
