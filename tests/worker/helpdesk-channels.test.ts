// The helpdesk's channels and reply tools through the Worker (decision 076):
// Twilio's signed SMS hook before React Router (a wrong signature refused, a
// valid one in the inbox), a reply on that SMS thread kept as failed without
// an SMS provider, Compose by email really queued and mailed by the runner
// (read in the backend's outbox), the canned replies library and its Insert
// without JavaScript, and Suggest reply offering the templates most like the
// last message without an AI provider (decision 083). One fresh
// account, so the demo's integrations are not touched.
import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ORIGIN, signUpFreshAdmin, type Visitor } from './support/app';
import { outbox, serviceClient } from './support/backend';
import { page, readable } from './support/module-screens';
import { twilioSignature } from '../../app/features/helpdesk/channels/twilio.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The providers' stand-in (Twilio's Messages API, an AI API), provided by global-setup.ts. */
    providerPort: number;
  }
}

const TOKEN = 'worker-test-twilio-token-000000000001';
let admin: Visitor;
let accountId: string;
let integrationId: string;
let smsConversation: string;
// The providers' stand-in (tests/worker/global-setup.ts), one of the hosts PROVIDER_ALLOW_HOSTS allows.
const PROVIDER = `http://127.0.0.1:${inject('providerPort')}`;

async function smsHook(params: Record<string, string>, signature?: string): Promise<Response> {
  const url = `${ORIGIN}/hooks/sms/${integrationId}`;
  const entries = Object.entries(params);
  // Twilio's post: a form, no Origin, no cookies.
  return exports.default.fetch(
    new Request(url, {
      method: 'POST',
      body: new URLSearchParams(entries).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature ?? (await twilioSignature(TOKEN, url, entries)) },
    }),
  );
}

async function runJobs(): Promise<void> {
  const tick = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
  await tick.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
}

beforeAll(async () => {
  const fresh = await signUpFreshAdmin();
  admin = fresh.visitor;
  const service = serviceClient();
  const { data: user } = await service.from('users').select('account_id').eq('email', fresh.email).single();
  accountId = (user as { account_id: string }).account_id;
  const { data: integration, error } = await service
    .from('integrations')
    .insert({ account_id: accountId, name: 'Twilio', type: 'sms', config: { account_sid: 'AC0123456789abcdef', auth_token: TOKEN, from_number: '+15550000001', api_url: PROVIDER } })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  integrationId = (integration as { id: string }).id;
});

describe('SMS through the Worker', () => {
  it('stores a signed SMS in the inbox, refuses a wrong signature; without a provider a reply is kept as failed', async () => {
    const params = { MessageSid: 'SMworker000000000000000000000001', From: '+15550101234', To: '+15550000001', Body: 'Is my parcel late?', NumMedia: '0' };
    expect((await smsHook(params, 'd3Jvbmc=')).status).toBe(403);
    const stored = await smsHook(params);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('Content-Type')).toContain('text/xml');
    // The admin finds the URL to give Twilio with the integration.
    expect(readable(await page(admin, '/settings/integrations'))).toContain(`${ORIGIN}/hooks/sms/${integrationId}`);
    const inbox = readable(await page(admin, '/messages?channel=sms'));
    expect(inbox).toContain('SMS from +15550101234');

    const { data: message } = await serviceClient().from('messages').select('conversation_id').eq('external_id', 'SMworker000000000000000000000001').single();
    const conversation = (message as { conversation_id: string }).conversation_id;
    smsConversation = conversation;
    // The provider goes away: the reply is kept, failed, with the reason shown.
    await serviceClient().from('integrations').update({ is_active: false }).eq('id', integrationId);
    const replied = await admin.post(`/messages/${conversation}`, { intent: 'reply', body: 'It leaves today.' });
    expect(replied.status).toBe(302);
    const thread = readable(await page(admin, `/messages/${conversation}`));
    expect(thread).toContain('It leaves today.');
    expect(thread).toContain('Not delivered: No SMS provider configured');
    expect(thread).toContain('No SMS provider configured: replies here are kept as failed');
    await serviceClient().from('integrations').update({ is_active: true }).eq('id', integrationId);
  });
});

describe('Compose, canned replies and Suggest reply', () => {
  let conversation: string;

  it('Compose starts an email conversation that the runner mails; a refusal keeps what was typed', async () => {
    const { data: contact } = await serviceClient()
      .from('contacts')
      .insert({ account_id: accountId, name: 'Ada Field', email: `ada-${crypto.randomUUID().slice(0, 8)}@fieldco.test` })
      .select('id, email')
      .single();
    const { id: contactId, email } = contact as { id: string; email: string };
    expect(readable(await page(admin, `/messages/new?contact=${contactId}`))).toContain('New conversation');

    const refused = await admin.post('/messages/new', { contact_id: contactId, channel: 'email', subject: '', body: 'Kept text' });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain('Write a subject');
    expect(refusedHtml).toContain('Kept text');

    const sent = await admin.post('/messages/new', { contact_id: contactId, channel: 'email', subject: 'Your delivery\r\nBcc: evil@x.test', body: 'It arrives Monday.' });
    expect(sent.status).toBe(302);
    conversation = sent.headers.get('Location')!.split('/').pop()!;
    // The kick after the post or the next tick sends it, once.
    let mails: Awaited<ReturnType<typeof outbox>> = [];
    for (let i = 0; i < 50 && mails.length === 0; i++) {
      await runJobs();
      mails = (await outbox()).filter((m) => m.to === email);
      if (mails.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail?.subject).toBe('Your delivery Bcc: evil@x.test');
    expect(mail?.text).toContain('It arrives Monday.');
  });

  it('a canned reply is made, edited and inserted into a reply without JavaScript, filled for the contact', async () => {
    expect((await admin.post('/messages/replies', { intent: 'create', name: 'Thanks', body: 'Thanks {{contact_first_name}}!' })).status).toBe(302);
    expect((await admin.post('/messages/replies', { intent: 'create', name: 'Thanks', body: 'again' })).status).toBe(400);
    const library = readable(await page(admin, '/messages/replies'));
    expect(library).toContain('Thanks {{contact_first_name}}!');
    const { data: reply } = await serviceClient().from('canned_replies').select('id').eq('account_id', accountId).eq('name', 'Thanks').single();
    const id = (reply as { id: string }).id;
    expect((await admin.post('/messages/replies', { intent: 'update', id, name: 'Thanks', body: 'Thank you {{contact_first_name}}.' })).status).toBe(302);

    const inserted = await admin.post(`/messages/${conversation}`, { intent: 'canned', canned_reply_id: id, body: 'Hello,' });
    expect(inserted.status).toBe(200);
    const html = await inserted.text();
    expect(html).toMatch(/<textarea[^>]*name="body"[^>]*>Hello,\n\nThank you Ada\.<\/textarea>/);
    // Nothing was sent by it.
    const { count } = await serviceClient().from('messages').select('id', { count: 'exact', head: true }).eq('conversation_id', conversation);
    expect(count).toBe(1);

    expect((await admin.post('/messages/replies', { intent: 'delete', id })).status).toBe(302);
    expect((await admin.post(`/messages/${conversation}`, { intent: 'canned', canned_reply_id: id, body: 'Hello,' })).status).toBe(404);
  });

  it('Suggest reply without an AI provider offers the templates most like the last message, inserted without JavaScript (decision 083)', async () => {
    expect(readable(await page(admin, `/messages/${conversation}`))).toContain('Without an AI provider, Suggest reply offers your templates');
    // Nothing received on this composed conversation: nothing to resemble, and what was typed is kept.
    const none = await admin.post(`/messages/${conversation}`, { intent: 'suggest', body: 'My own words' });
    expect(none.status).toBe(404);
    const noneHtml = await none.text();
    expect(noneHtml).toContain('No template or canned reply resembles the last message');
    expect(noneHtml).toContain('My own words');

    // The SMS thread's customer asked 'Is my parcel late?'.
    const made = await serviceClient()
      .from('templates')
      .insert([
        { account_id: accountId, type: 'email', name: 'Parcel late', subject: 'Your parcel', content: 'Hi {{contact_first_name}}, your parcel is late by a day.' },
        { account_id: accountId, type: 'email', name: 'Invoice copy', subject: 'Invoice', content: 'Attached is a copy of your invoice.' },
      ])
      .select('id, name');
    expect(made.error).toBeNull();
    const late = (made.data as { id: string; name: string }[]).find((t) => t.name === 'Parcel late')!.id;
    const asked = await admin.post(`/messages/${smsConversation}`, { intent: 'suggest', body: 'Hello,' });
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(readable(html)).toContain('Suggestions from your templates');
    expect(html).toMatch(new RegExp(`<input(?=[^>]*name="suggestion_id")(?=[^>]*value="${late}")(?=[^>]*checked)`));
    expect(html).not.toContain('Invoice copy');
    expect(html).toMatch(/<textarea[^>]*name="body"[^>]*>Hello,<\/textarea>/);

    const inserted = await admin.post(`/messages/${smsConversation}`, { intent: 'use_suggestion', suggestion_id: late, body: 'Hello,' });
    expect(inserted.status).toBe(200);
    expect(await inserted.text()).toMatch(/<textarea[^>]*name="body"[^>]*>Hello,\n\nHi \+15550101234, your parcel is late by a day\.<\/textarea>/);
    // Nothing was sent by either.
    const { count } = await serviceClient().from('messages').select('id', { count: 'exact', head: true }).eq('conversation_id', smsConversation).eq('direction', 'outbound');
    expect(count).toBe(1);
  });
});

describe('with the providers configured (their stand-in)', () => {
  it('a reply on the SMS thread is sent through the Twilio API by the runner', async () => {
    expect((await admin.post(`/messages/${smsConversation}`, { intent: 'reply', body: 'Out for delivery now.' })).status).toBe(302);
    let status: string | undefined;
    for (let i = 0; i < 50 && status !== 'sent'; i++) {
      await runJobs();
      const { data } = await serviceClient().from('messages').select('delivery_status').eq('conversation_id', smsConversation).eq('body', 'Out for delivery now.').single();
      status = (data as { delivery_status: string }).delivery_status;
      if (status !== 'sent') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe('sent');
    const asked = (await (await fetch(`${PROVIDER}/_requests`)).json()) as { path: string; authorization: string; body: string }[];
    const call = asked.find((a) => a.body.includes('Out+for+delivery+now.'));
    expect(call?.path).toBe('/2010-04-01/Accounts/AC0123456789abcdef/Messages.json');
    expect(call?.authorization).toBe(`Basic ${btoa(`AC0123456789abcdef:${TOKEN}`)}`);
    expect(new URLSearchParams(call!.body).get('To')).toBe('+15550101234');
    expect(readable(await page(admin, `/messages/${smsConversation}`))).toContain('Out for delivery now.');
  });

  it('Suggest reply puts the provider\'s draft in the reply box to edit, the key never on the page', async () => {
    const { error } = await serviceClient()
      .from('integrations')
      .insert({ account_id: accountId, name: 'AI', type: 'ai', config: { api_url: `${PROVIDER}/v1`, api_key: 'sk-worker-test-key', model: 'stand-in' } });
    expect(error).toBeNull();
    const asked = await admin.post(`/messages/${smsConversation}`, { intent: 'suggest', body: '' });
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expect(html).toMatch(/<textarea[^>]*name="body"[^>]*>Dear customer, your parcel leaves today\.<\/textarea>/);
    expect(html).toContain('read and edit it before you send it');
    expect(html).not.toContain('sk-worker-test-key');
    const requests = (await (await fetch(`${PROVIDER}/_requests`)).json()) as { path: string; authorization: string; body: string }[];
    const chat = requests.filter((r) => r.path === '/v1/chat/completions').pop();
    expect(chat?.authorization).toBe('Bearer sk-worker-test-key');
    expect(chat?.body).toContain('Is my parcel late?');
    // The account's templates go with the prompt, the most like the message first (decision 083).
    expect(chat?.body).toContain('Parcel late: Hi');
    // Nothing was sent by it.
    const { count } = await serviceClient().from('messages').select('id', { count: 'exact', head: true }).eq('conversation_id', smsConversation).eq('body', 'Dear customer, your parcel leaves today.');
    expect(count).toBe(0);
  });
});
