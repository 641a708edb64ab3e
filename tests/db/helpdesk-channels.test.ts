// The helpdesk's SMS and WhatsApp channels, Compose and canned replies
// (decision 076). Twilio is played by a real local HTTP server this file
// starts: the send job posts to it, the hook is called with requests signed
// as Twilio signs them. Who may do what, and another account's hooks.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { fetchInboundMedia, MediaFailed } from '../../app/features/helpdesk/channels/media-fetch.ts';
import { handleSmsHook } from '../../app/features/helpdesk/channels/sms-hook.server.ts';
import { sendSmsMessage } from '../../app/features/helpdesk/channels/sms-send.ts';
import { twilioSignature } from '../../app/features/helpdesk/channels/twilio.ts';
import { buildPrompt, suggestReply, SuggestFailed } from '../../app/features/helpdesk/replies/suggest.ts';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const TOKEN = 'twilio-auth-token-of-the-account-0001';
const SID = 'AC0123456789abcdef0123456789abcdef';
const SITE = 'https://ops-hub.test';

interface Sent {
  auth: string | undefined;
  path: string;
  form: URLSearchParams;
}

describe('SMS, WhatsApp, Compose and canned replies on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let auditor: Member;
  let client: Member;
  let supplier: Member;
  let other: Member;
  let integrationId: string;
  let otherIntegrationId: string;
  let twilio: Server;
  let twilioUrl: string;
  const sent: Sent[] = [];
  // What the stand-in answers next: Twilio's 201, or a refusal.
  let nextAnswer: { status: number; json: Record<string, unknown> } | null = null;
  // The AI stand-in (an OpenAI-compatible chat completions API): what it was asked, and whether it stalls.
  const asked: { auth: string | undefined; body: { model: string; messages: { role: string; content: string }[] } }[] = [];
  let stall = false;
  let stallSms = false;

  const hook = async (id: string, params: Record<string, string>, options: { token?: string; path?: string; signature?: string } = {}) => {
    const url = `${SITE}/hooks/sms/${id}${options.path ?? ''}`;
    const entries = Object.entries(params);
    const signature = options.signature ?? (await twilioSignature(options.token ?? TOKEN, url, entries));
    const request = new Request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature },
      body: new URLSearchParams(entries).toString(),
    });
    return handleSmsHook(request, service);
  };
  const sms = (sid: string, from = '+1 (415) 555-0100', more: Record<string, string> = {}) =>
    hook(integrationId, { MessageSid: sid, AccountSid: SID, From: from, To: '+14155550999', Body: 'Where is my order?', NumMedia: '0', ...more });

  // The helpdesk.send_sms job's work (sms-jobs.server.ts wraps it for the runner).
  const runJob = (messageId: string, accountId: string) =>
    sendSmsMessage(service, { SITE_URL: SITE, PROVIDER_ALLOW_HOSTS: new URL(twilioUrl).host }, accountId, messageId);

  beforeAll(async () => {
    twilio = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (request.url === '/v1/chat/completions') {
          asked.push({ auth: request.headers.authorization, body: JSON.parse(body) });
          if (stall) return; // never answers: the caller's deadline must end it
          response.writeHead(200, { 'Content-Type': 'application/json' });
          response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: '  Hi Ada, your order ships today.  ' } }] }));
          return;
        }
        sent.push({ auth: request.headers.authorization, path: request.url ?? '', form: new URLSearchParams(body) });
        if (stallSms) return; // takes the message and never answers
        const answer = nextAnswer ?? { status: 201, json: { sid: `SM${'f'.repeat(24)}${String(sent.length).padStart(8, '0')}`, status: 'queued' } };
        nextAnswer = null;
        response.writeHead(answer.status, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(answer.json));
      });
    });
    await new Promise<void>((resolve) => twilio.listen(0, '127.0.0.1', resolve));
    twilioUrl = `http://127.0.0.1:${(twilio.address() as AddressInfo).port}`;

    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'channels-admin');
    member = await addMember(backend, admin, 'member', 'channels-member');
    auditor = await addMember(backend, admin, 'auditor', 'channels-auditor');
    client = await addMember(backend, admin, 'client', 'channels-client');
    supplier = await addMember(backend, admin, 'supplier', 'channels-supplier');
    other = await signUpFreshAdmin(backend, 'channels-other');
    const made = await admin.client
      .from('integrations')
      .insert({ account_id: admin.accountId, name: 'Twilio', type: 'sms', config: { account_sid: SID, auth_token: TOKEN, from_number: '+14155550999', api_url: twilioUrl } })
      .select('id, config')
      .single();
    if (made.error) throw new Error(made.error.message);
    integrationId = made.data.id as string;
    // The token is a secret: kept apart, never in the readable config.
    expect(JSON.stringify(made.data.config)).not.toContain(TOKEN);
    const theirs = await other.client
      .from('integrations')
      .insert({ account_id: other.accountId, name: 'Their Twilio', type: 'sms', config: { account_sid: SID, auth_token: 'their-token-000000000000', from_number: '+14155550888' } })
      .select('id')
      .single();
    otherIntegrationId = theirs.data!.id as string;
  });
  afterAll(async () => {
    await backend?.stop();
    twilio?.closeAllConnections();
    await new Promise((resolve) => twilio?.close(resolve));
  });

  it('stores a signed SMS: the number becomes a contact, its messages one thread, a replayed MessageSid once', async () => {
    const first = await sms('SM00000000000000000000000000000001');
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('<Response>');
    const { data: message } = await admin.client.from('messages').select('conversation_id, sender_phone, body, direction').eq('external_id', 'SM00000000000000000000000000000001').single();
    expect(message).toMatchObject({ sender_phone: '+14155550100', body: 'Where is my order?', direction: 'inbound' });
    const { data: conversation } = await admin.client.from('conversations').select('channel, unread, account_id, contact:contacts(name, phone, email)').eq('id', message!.conversation_id).single();
    expect(conversation).toMatchObject({ channel: 'sms', unread: true, account_id: admin.accountId, contact: { name: '+14155550100', phone: '+14155550100' } });

    const [again, replay] = await Promise.all([sms('SM00000000000000000000000000000001'), sms('SM00000000000000000000000000000001')]);
    expect([again.status, replay.status]).toEqual([200, 200]);
    const { count } = await service.from('messages').select('id', { count: 'exact', head: true }).eq('external_id', 'SM00000000000000000000000000000001');
    expect(count).toBe(1);

    // The same number written differently threads into the same conversation; media are kept as links.
    await sms('SM00000000000000000000000000000002', '+14155550100', { NumMedia: '1', MediaUrl0: 'https://api.twilio.com/media/ME1', Body: 'Photo' });
    const { data: second } = await admin.client.from('messages').select('conversation_id, body').eq('external_id', 'SM00000000000000000000000000000002').single();
    expect(second!.conversation_id).toBe(message!.conversation_id);
    expect(second!.body).toBe('Photo\nAttachment: https://api.twilio.com/media/ME1');
    // WhatsApp from the same number is a thread of its own, with the sender's profile name.
    await sms('SM00000000000000000000000000000003', 'whatsapp:+14155550100', { ProfileName: 'Ada\r\nBcc: x' });
    const { data: wa } = await admin.client.from('messages').select('sender_name, conversation:conversations(channel, contact_id)').eq('external_id', 'SM00000000000000000000000000000003').single();
    expect(wa!.sender_name).toBe('Ada Bcc: x');
    expect(wa!.conversation).toMatchObject({ channel: 'whatsapp' });
    const { data: contacts } = await admin.client.from('contacts').select('id').eq('phone', '+14155550100');
    expect(contacts).toHaveLength(1);
  });

  it("refuses a wrong signature, another account's token, an unknown hook, a body over 64 KB and a form that is no message", async () => {
    const params = { MessageSid: 'SM00000000000000000000000000000009', From: '+14155550101', Body: 'x' };
    expect((await hook(integrationId, params, { signature: 'bm90IGEgc2lnbmF0dXJl' })).status).toBe(403);
    expect((await hook(integrationId, params, { token: 'their-token-000000000000' })).status).toBe(403);
    // Signed with this account's token but sent to the other account's hook: refused, nothing lands anywhere.
    expect((await hook(otherIntegrationId, params)).status).toBe(403);
    expect((await hook('00000000-0000-4000-8000-000000000000', params)).status).toBe(403);
    expect((await hook(integrationId, { ...params, Body: 'x'.repeat(70 * 1024) })).status).toBe(413);
    expect((await hook(integrationId, { ...params, From: 'not a number' })).status).toBe(400);
    expect((await hook(integrationId, { ...params, MessageSid: '' })).status).toBe(400);
    const { count } = await service.from('messages').select('id', { count: 'exact', head: true }).eq('external_id', 'SM00000000000000000000000000000009');
    expect(count).toBe(0);
    const get = await handleSmsHook(new Request(`${SITE}/hooks/sms/${integrationId}`), service);
    expect(get.status).toBe(405);
  });

  it('sends a reply through the Twilio stand-in once, with the credentials server-side; the signed status callback moves it to delivered', async () => {
    await sms('SM00000000000000000000000000000010', '+14155550110');
    const { data: inbound } = await admin.client.from('messages').select('conversation_id').eq('external_id', 'SM00000000000000000000000000000010').single();
    const reply = await member.client.rpc('reply_to_conversation', { p_conversation_id: inbound!.conversation_id, p_body: 'It ships today.' }).single<{ id: string; delivery_status: string }>();
    expect(reply.data!.delivery_status).toBe('queued');
    const { data: jobs } = await service.from('jobs').select('kind').eq('subject_id', reply.data!.id);
    expect(jobs).toEqual([{ kind: 'helpdesk.send_sms' }]);

    const before = sent.length;
    await runJob(reply.data!.id, admin.accountId);
    await runJob(reply.data!.id, admin.accountId); // a second run sends nothing
    expect(sent.length).toBe(before + 1);
    const call = sent[sent.length - 1];
    expect(call.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(call.auth).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(Object.fromEntries(call.form)).toEqual({
      To: '+14155550110', From: '+14155550999', Body: 'It ships today.', StatusCallback: `${SITE}/hooks/sms/${integrationId}/status`,
    });
    const { data: stored } = await admin.client.from('messages').select('delivery_status, external_id, sent_at').eq('id', reply.data!.id).single();
    expect(stored).toMatchObject({ delivery_status: 'sent' });
    const twilioSid = stored!.external_id as string;

    expect((await hook(integrationId, { MessageSid: twilioSid, MessageStatus: 'delivered' }, { path: '/status' })).status).toBe(200);
    // Out of order and unsigned callbacks change nothing.
    await hook(integrationId, { MessageSid: twilioSid, MessageStatus: 'sent' }, { path: '/status' });
    await hook(integrationId, { MessageSid: twilioSid, MessageStatus: 'undelivered', ErrorCode: '30005' }, { path: '/status' });
    expect((await hook(integrationId, { MessageSid: twilioSid, MessageStatus: 'failed' }, { path: '/status', signature: 'eA==' })).status).toBe(403);
    const { data: delivered } = await admin.client.from('messages').select('delivery_status').eq('id', reply.data!.id).single();
    expect(delivered!.delivery_status).toBe('delivered');
  });

  it("keeps a message the provider refuses as failed with Twilio's reason; WhatsApp goes out prefixed", async () => {
    await sms('SM00000000000000000000000000000020', 'whatsapp:+14155550120');
    const { data: inbound } = await admin.client.from('messages').select('conversation_id').eq('external_id', 'SM00000000000000000000000000000020').single();
    const reply = await member.client.rpc('reply_to_conversation', { p_conversation_id: inbound!.conversation_id, p_body: 'Hello' }).single<{ id: string }>();
    nextAnswer = { status: 400, json: { code: 21211, message: "The 'To' number\r\nis not valid.", status: 400 } };
    await expect(runJob(reply.data!.id, admin.accountId)).rejects.toThrow(/refused/);
    const call = sent[sent.length - 1];
    expect([call.form.get('To'), call.form.get('From')]).toEqual(['whatsapp:+14155550120', 'whatsapp:+14155550999']);
    const { data: failed } = await admin.client.from('messages').select('delivery_status, delivery_error, body').eq('id', reply.data!.id).single();
    expect(failed).toEqual({ delivery_status: 'failed', delivery_error: "The SMS provider refused the message: The 'To' number is not valid.", body: 'Hello' });
  });

  it('a provider that is down (503) leaves the message queued with the reason, and the next run sends it', async () => {
    await sms('SM00000000000000000000000000000040', '+14155550140');
    const { data: inbound } = await admin.client.from('messages').select('conversation_id').eq('external_id', 'SM00000000000000000000000000000040').single();
    const reply = await member.client.rpc('reply_to_conversation', { p_conversation_id: inbound!.conversation_id, p_body: 'Retry me' }).single<{ id: string }>();
    nextAnswer = { status: 503, json: { message: 'Service unavailable' } };
    await expect(runJob(reply.data!.id, admin.accountId)).rejects.toThrow(/503/);
    const { data: waiting } = await admin.client.from('messages').select('delivery_status, delivery_error').eq('id', reply.data!.id).single();
    expect(waiting).toEqual({ delivery_status: 'queued', delivery_error: 'The SMS provider answered 503; trying again' });
    await runJob(reply.data!.id, admin.accountId);
    const { data: sentNow } = await admin.client.from('messages').select('delivery_status, delivery_error').eq('id', reply.data!.id).single();
    expect(sentNow).toEqual({ delivery_status: 'sent', delivery_error: null });
  });

  it('a provider that takes the message but does not answer in time: failed, saying it may have been sent, never sent again', async () => {
    await sms('SM00000000000000000000000000000041', '+14155550141');
    const { data: inbound } = await admin.client.from('messages').select('conversation_id').eq('external_id', 'SM00000000000000000000000000000041').single();
    const reply = await member.client.rpc('reply_to_conversation', { p_conversation_id: inbound!.conversation_id, p_body: 'Once only' }).single<{ id: string }>();
    const before = sent.length;
    stallSms = true;
    try {
      await expect(
        sendSmsMessage(service, { SITE_URL: SITE, PROVIDER_ALLOW_HOSTS: new URL(twilioUrl).host, SMS_TIMEOUT_MS: '300' }, admin.accountId, reply.data!.id),
      ).rejects.toThrow(/may have been sent/);
    } finally {
      stallSms = false;
    }
    const { data: failed } = await admin.client.from('messages').select('delivery_status, delivery_error').eq('id', reply.data!.id).single();
    expect(failed!.delivery_status).toBe('failed');
    expect(failed!.delivery_error).toMatch(/may have been sent; check the provider/);
    await runJob(reply.data!.id, admin.accountId);
    expect(sent.length - before).toBe(1);
  });

  it('a text from a contact whose thread was merged into another lands in the one it went into', async () => {
    await sms('SM00000000000000000000000000000050', '+14155550150');
    const { data: first } = await admin.client.from('messages').select('conversation_id').eq('external_id', 'SM00000000000000000000000000000050').single();
    const { data: conversation } = await service.from('conversations').select('contact_id').eq('id', first!.conversation_id).single();
    const { data: kept } = await service
      .from('conversations')
      .insert({ account_id: admin.accountId, contact_id: conversation!.contact_id, channel: 'sms', subject: 'Kept thread' })
      .select('id')
      .single();
    expect((await member.client.rpc('merge_conversation', { p_source: kept!.id, p_target: first!.conversation_id })).error).toBeNull();
    // The merged one is now the newest of the contact's: still, the next text goes to the thread it went into.
    await service.from('conversations').update({ last_message_at: new Date(Date.now() + 60_000).toISOString() }).eq('id', kept!.id);
    await sms('SM00000000000000000000000000000051', '+14155550150');
    const { data: next } = await admin.client.from('messages').select('conversation_id').eq('external_id', 'SM00000000000000000000000000000051').single();
    expect(next!.conversation_id).toBe(first!.conversation_id);
  });

  it("without an SMS integration a reply is kept as failed: 'No SMS provider configured'", async () => {
    await admin.client.from('integrations').update({ is_active: false }).eq('id', integrationId);
    try {
      const { data: conversation } = await admin.client.from('conversations').select('id').eq('channel', 'sms').limit(1).single();
      const reply = await member.client.rpc('reply_to_conversation', { p_conversation_id: conversation!.id, p_body: 'Kept' }).single<{ id: string; delivery_status: string; delivery_error: string }>();
      expect(reply.data).toMatchObject({ delivery_status: 'failed', delivery_error: 'No SMS provider configured' });
      const { data: jobs } = await service.from('jobs').select('id').eq('subject_id', reply.data!.id);
      expect(jobs).toEqual([]);
      // An inactive integration's hook takes nothing either.
      expect((await sms('SM00000000000000000000000000000030')).status).toBe(403);
    } finally {
      await admin.client.from('integrations').update({ is_active: true }).eq('id', integrationId);
    }
  });

  it('Compose starts a conversation by email or SMS that is really queued; refuses a contact without the address, control characters never reach the subject', async () => {
    const { data: contact } = await member.client.from('contacts').insert({ account_id: admin.accountId, name: 'Grace', email: 'grace@example.test', phone: '+44 20 7946 0000' }).select('id').single();
    const byMail = await member.client.rpc('start_conversation', { p_contact_id: contact!.id, p_channel: 'email', p_subject: 'Your order\r\nBcc: evil@x.test', p_body: 'It is ready.' });
    expect(byMail.error).toBeNull();
    const { data: mailConversation } = await member.client.from('conversations').select('subject, channel, unread, messages(direction, delivery_status)').eq('id', byMail.data).single();
    expect(mailConversation).toMatchObject({ subject: 'Your order Bcc: evil@x.test', channel: 'email', unread: false, messages: [{ direction: 'outbound', delivery_status: 'queued' }] });
    expect((await service.from('jobs').select('kind').eq('account_id', admin.accountId).eq('kind', 'helpdesk.send_reply')).data!.length).toBeGreaterThan(0);

    const bySms = await member.client.rpc('start_conversation', { p_contact_id: contact!.id, p_channel: 'sms', p_subject: '', p_body: 'Ready for pick-up.' });
    const { data: smsConversation } = await member.client.from('conversations').select('subject, channel, messages(delivery_status)').eq('id', bySms.data).single();
    expect(smsConversation).toMatchObject({ subject: 'SMS to Grace', channel: 'sms', messages: [{ delivery_status: 'queued' }] });

    const { data: phoneOnly } = await admin.client.from('contacts').select('id').eq('email', '14155550100@phone.invalid').single();
    expect((await member.client.rpc('start_conversation', { p_contact_id: phoneOnly!.id, p_channel: 'email', p_subject: 'Hi', p_body: 'x' })).error?.message).toBe('This contact has no email address');
    expect((await member.client.rpc('start_conversation', { p_contact_id: contact!.id, p_channel: 'email', p_subject: ' ', p_body: 'x' })).error?.message).toBe('Write a subject');
    expect((await member.client.rpc('start_conversation', { p_contact_id: contact!.id, p_channel: 'email', p_subject: 'Hi', p_body: ' ' })).error?.code).toBe('22023');
    for (const who of [auditor, client, supplier]) {
      expect((await who.client.rpc('start_conversation', { p_contact_id: contact!.id, p_channel: 'email', p_subject: 'Hi', p_body: 'x' })).error?.code).toBe('42501');
    }
    expect((await other.client.rpc('start_conversation', { p_contact_id: contact!.id, p_channel: 'email', p_subject: 'Hi', p_body: 'x' })).error?.message).toBe('Choose a contact');
  });

  it('canned replies: staff read, admins and members write, auditors only read, outsiders see nothing', async () => {
    const made = await member.client.from('canned_replies').insert({ name: 'Shipped', body: 'Hi {{contact_first_name}}, it shipped.' }).select('id, account_id').single();
    expect(made.error).toBeNull();
    expect(made.data!.account_id).toBe(admin.accountId);
    expect((await admin.client.from('canned_replies').update({ body: 'It shipped.' }).eq('id', made.data!.id).select('id')).data).toHaveLength(1);
    expect((await auditor.client.from('canned_replies').select('id').eq('id', made.data!.id)).data).toHaveLength(1);
    expect((await auditor.client.from('canned_replies').insert({ name: 'No', body: 'x' })).error).not.toBeNull();
    expect((await auditor.client.from('canned_replies').update({ body: 'x' }).eq('id', made.data!.id).select('id')).data ?? []).toEqual([]);
    for (const who of [client, supplier, other]) {
      expect((await who.client.from('canned_replies').select('id')).data ?? []).toEqual([]);
      if (who !== other) expect((await who.client.from('canned_replies').insert({ name: 'Theirs', body: 'x' })).error).not.toBeNull();
      expect((await who.client.from('canned_replies').delete().eq('id', made.data!.id).select('id')).data ?? []).toEqual([]);
    }
    expect((await anonClient(backend).from('canned_replies').select('id')).data ?? []).toEqual([]);
    expect((await member.client.from('canned_replies').insert({ name: 'Shipped', body: 'again' })).error?.code).toBe('23505');
    expect((await member.client.from('canned_replies').insert({ name: 'Bad\nname', body: 'x' })).error).not.toBeNull();

    const { data: tools } = await auditor.client.rpc('reply_tools');
    expect(tools).toMatchObject({ sms_configured: true, ai_configured: false, canned_replies: [{ name: 'Shipped', body: 'It shipped.' }] });
    // Filled for a conversation: the contact's and the person's names.
    await member.client.from('canned_replies').update({ body: 'Hi {{contact_first_name}} ({{contact_name}}), {{agent_name}} here.' }).eq('id', made.data!.id);
    const { data: grace } = await member.client.from('conversations').select('id, contact:contacts(name)').eq('subject', 'SMS to Grace').single();
    const { data: filled } = await member.client.rpc('reply_tools', { p_conversation_id: grace!.id });
    const { data: me } = await member.client.from('users').select('first_name, last_name').eq('id', member.userId).single();
    expect(filled.canned_replies[0].body).toBe(`Hi Grace (Grace), ${[me!.first_name, me!.last_name].filter(Boolean).join(' ')} here.`);
    expect((await client.client.rpc('reply_tools')).data).toMatchObject({ canned_replies: [] });
    const { data: audit } = await admin.client.from('audit_logs').select('action').eq('resource_id', made.data!.id);
    expect(audit!.map((a) => a.action).sort()).toEqual(['canned_reply_created', 'canned_reply_updated', 'canned_reply_updated']);
    expect((await member.client.from('canned_replies').delete().eq('id', made.data!.id).select('id')).data).toHaveLength(1);
  });

  it('lets only the service role receive SMS, record statuses or read a provider\'s credentials', async () => {
    for (const who of [admin.client, member.client, anonClient(backend)]) {
      expect((await who.rpc('receive_sms', { p_integration_id: integrationId, p_channel: 'sms', p_from: '+15550001', p_body: 'x', p_sid: 'SM00000000000000000000000000000099' })).error).not.toBeNull();
      expect((await who.rpc('record_sms_status', { p_integration_id: integrationId, p_sid: 'x', p_status: 'failed' })).error).not.toBeNull();
      expect((await who.rpc('provider_credentials', { p_account_id: admin.accountId, p_type: 'sms' })).error).not.toBeNull();
      expect((await who.rpc('sms_hook_credentials', { p_integration_id: integrationId })).error).not.toBeNull();
    }
  });

  it('Suggest reply asks the AI provider with the thread (never the notes) and the canned replies, key server-side, under a deadline', async () => {
    const made = await admin.client
      .from('integrations')
      .insert({ account_id: admin.accountId, name: 'AI', type: 'ai', config: { api_url: `${twilioUrl}/v1`, api_key: 'sk-test-secret-key', model: 'test-model' } })
      .select('id, config')
      .single();
    expect(JSON.stringify(made.data!.config)).not.toContain('sk-test-secret-key');
    expect((await member.client.rpc('reply_tools')).data).toMatchObject({ ai_configured: true });
    // The key is the service role's to read, as the page's server does.
    const { data: provider } = await service.rpc('provider_credentials', { p_account_id: admin.accountId, p_type: 'ai' });
    const prompt = buildPrompt(
      [
        { direction: 'inbound', body: 'Where is my order?' },
        { direction: 'note', body: 'Courier lost it, do not say' },
        { direction: 'outbound', body: 'Checking.' },
        { direction: 'inbound', body: 'Any news?' },
      ],
      [{ name: 'Shipped', body: 'It shipped today.' }],
      'Ada Lovelace',
    );
    const allow = { allowHosts: new URL(twilioUrl).host };
    expect(await suggestReply(provider.config, prompt, allow)).toBe('Hi Ada, your order ships today.');
    const request = asked[asked.length - 1];
    expect(request.auth).toBe('Bearer sk-test-secret-key');
    expect(request.body.model).toBe('test-model');
    expect(request.body.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(JSON.stringify(request.body.messages)).not.toContain('Courier lost it');
    expect(request.body.messages[0].content).toContain('Shipped: It shipped today.');
    expect(request.body.messages[0].content).toContain('Ada Lovelace');

    // A provider that never answers is cut off by the deadline; one not allowed by address is refused before any call.
    stall = true;
    const started = Date.now();
    await expect(suggestReply(provider.config, prompt, { ...allow, timeoutMs: 300 })).rejects.toThrow(/did not answer within/);
    expect(Date.now() - started).toBeLessThan(5_000);
    stall = false;
    const before = asked.length;
    await expect(suggestReply(provider.config, prompt, { allowHosts: undefined })).rejects.toBeInstanceOf(SuggestFailed);
    expect(asked.length).toBe(before);
    await expect(suggestReply({ api_url: `${twilioUrl}/v1` }, prompt, allow)).rejects.toThrow(/API key/);
  });

  it('notes SMS media to fetch, once each (links and types checked); the fetch retries a 5xx, fails the last attempt, stores once; staff read them, outsiders nothing', async () => {
    const media: Record<string, string> = { NumMedia: '11', Body: 'Pictures' };
    for (let i = 0; i < 11; i++) {
      media[`MediaUrl${i}`] = `${twilioUrl}/2010-04-01/Accounts/${SID}/Messages/MM1/Media/ME${i}`;
      media[`MediaContentType${i}`] = 'image/jpeg';
    }
    media.MediaContentType1 = 'text/html\r\nX-Injected: 1';
    media.MediaUrl2 = 'javascript:alert(1)';
    const SMS_SID = 'SMmedia00000000000000000000000001';
    expect((await sms(SMS_SID, '+14155550177', media)).status).toBe(200);
    const { data: message } = await service.from('messages').select('id').eq('external_id', SMS_SID).single();
    type Row = { id: string; media_index: number; file_name: string; mime_type: string; fetch_status: string; fetch_error: string | null; size_bytes: number | null };
    const rows = async (who = member.client) => ((await who.from('message_attachments')
      .select('id, media_index, file_name, mime_type, fetch_status, fetch_error, size_bytes').eq('message_id', message!.id).order('media_index')).data ?? []) as Row[];
    // At most 10 (the hook's cap), the javascript: link skipped, the header-like type replaced; all waiting for the runner.
    const noted = await rows();
    expect(noted.map((r) => r.media_index)).toEqual([0, 1, 3, 4, 5, 6, 7, 8, 9]);
    expect(noted.slice(0, 2).map((r) => [r.file_name, r.mime_type])).toEqual([['media-1.jpg', 'image/jpeg'], ['media-2.bin', 'application/octet-stream']]);
    expect(noted.every((r) => r.fetch_status === 'pending')).toBe(true);
    expect((await sms(SMS_SID, '+14155550177', media)).status).toBe(200);
    expect(await rows()).toHaveLength(9);
    const { count: jobs } = await service.from('jobs').select('id', { count: 'exact', head: true }).eq('kind', 'helpdesk.fetch_media').eq('subject_id', message!.id);
    expect(jobs).toBe(9);
    for (const who of [client, supplier, other]) expect(await rows(who.client)).toEqual([]);
    expect((await member.client.from('message_attachments').update({ fetch_status: 'stored' }).eq('id', noted[0].id).select('id')).data ?? []).toEqual([]);

    // The job's work: a 503 keeps it pending with the reason; the last attempt's 503 marks it failed.
    const fetchOne = (id: string, last = false) => fetchInboundMedia(service, { PROVIDER_ALLOW_HOSTS: new URL(twilioUrl).host }, admin.accountId, id, last);
    const before = sent.length;
    nextAnswer = { status: 503, json: {} };
    await expect(fetchOne(noted[0].id)).rejects.toThrow('The provider answered 503');
    expect((await rows())[0]).toMatchObject({ fetch_status: 'pending', fetch_error: 'The provider answered 503' });
    nextAnswer = { status: 503, json: {} };
    await expect(fetchOne(noted[0].id, true)).rejects.toBeInstanceOf(MediaFailed);
    expect((await rows())[0]).toMatchObject({ fetch_status: 'failed', fetch_error: 'The provider answered 503', size_bytes: null });
    // Another account's job cannot take this account's media.
    await expect(fetchInboundMedia(service, { PROVIDER_ALLOW_HOSTS: new URL(twilioUrl).host }, other.accountId, noted[1].id, false)).rejects.toThrow('The media is gone');
    // A 2xx is stored, with the account's credentials sent; a second run fetches nothing.
    nextAnswer = { status: 200, json: { picture: true } };
    expect(await fetchOne(noted[1].id)).toBe('stored');
    expect(await fetchOne(noted[1].id)).toBe('already');
    expect((await rows())[1]).toMatchObject({ fetch_status: 'stored', mime_type: 'application/json', size_bytes: JSON.stringify({ picture: true }).length });
    const calls = sent.slice(before);
    expect(calls.map((c) => c.path)).toEqual([0, 0, 1].map((i) => `/2010-04-01/Accounts/${SID}/Messages/MM1/Media/ME${i}`));
    expect(calls.every((c) => c.auth === `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`)).toBe(true);
  });
});
