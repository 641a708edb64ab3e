// The helpdesk in the database (decision 060): mail received at the account's
// inbound mailbox threads into conversations (by the reply address's token, by
// In-Reply-To/References), an unknown sender becomes a contact, a replayed
// delivery is stored once; replies and notes; who may do what, and another
// account's mailbox, conversations and tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

type Received = { conversation_id: string; message_id: string; duplicate: boolean };

describe('the helpdesk on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let auditor: Member;
  let client: Member;
  let supplier: Member;
  let other: Member;
  let mailbox: string;
  let otherMailbox: string;

  const receive = async (to: string, messageId: string | null, changes: Record<string, unknown> = {}) => {
    const { data, error } = await service.rpc('receive_email', {
      p_to: to, p_from_email: 'Customer@Example.test', p_from_name: 'Cus\r\nBcc: x@evil.test', p_subject: 'Broken\r\nBcc: evil@x.test pallet',
      p_body: 'The pallet arrived broken.', p_message_id: messageId, ...changes,
    });
    if (error) throw new Error(error.message);
    return data as Received;
  };

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'helpdesk-admin');
    member = await addMember(backend, admin, 'member', 'helpdesk-member');
    auditor = await addMember(backend, admin, 'auditor', 'helpdesk-auditor');
    client = await addMember(backend, admin, 'client', 'helpdesk-client');
    supplier = await addMember(backend, admin, 'supplier', 'helpdesk-supplier');
    other = await signUpFreshAdmin(backend, 'helpdesk-other');
    mailbox = (await admin.client.rpc('inbound_mailbox').single<{ local_part: string }>()).data!.local_part;
    otherMailbox = (await other.client.rpc('inbound_mailbox').single<{ local_part: string }>()).data!.local_part;
  });
  afterAll(async () => backend?.stop());

  it('opens a conversation from a new sender, who becomes a contact; control characters never reach a header field', async () => {
    const got = await receive(`${mailbox}@in.opshub.test`, '<first@example.test>');
    expect(got.duplicate).toBe(false);
    const { data: conversation } = await admin.client.from('conversations').select('*, contact:contacts(name, email)').eq('id', got.conversation_id).single();
    expect(conversation).toMatchObject({ status: 'open', channel: 'email', unread: true, subject: 'Broken Bcc: evil@x.test pallet', account_id: admin.accountId });
    expect(conversation.contact).toEqual({ name: 'Cus Bcc: x@evil.test', email: 'customer@example.test' });
    const { data: events } = await service.from('events').select('kind').eq('resource_id', got.conversation_id);
    expect(events).toEqual([{ kind: 'message_received' }]);
    const { data: audit } = await admin.client.from('audit_logs').select('action').eq('resource_id', got.conversation_id);
    expect(audit!.map((a) => a.action).sort()).toEqual(['conversation_created', 'message_received']);
  });

  it('stores a replayed delivery (same Message-ID) once', async () => {
    const first = await receive(`${mailbox}@in.opshub.test`, '<replay@example.test>');
    const [again, third] = await Promise.all([
      receive(`${mailbox}@in.opshub.test`, '<replay@example.test>'),
      receive(`${mailbox}@in.opshub.test`, '<replay@example.test>'),
    ]);
    expect(again).toEqual({ ...first, duplicate: true });
    expect(third).toEqual({ ...first, duplicate: true });
    const { count } = await service.from('messages').select('id', { count: 'exact', head: true }).eq('external_id', '<replay@example.test>');
    expect(count).toBe(1);
  });

  it('threads a reply by In-Reply-To/References, and by the token in the reply address', async () => {
    const first = await receive(`${mailbox}@in.opshub.test`, '<thread-1@example.test>');
    const byHeader = await receive(`${mailbox}@in.opshub.test`, '<thread-2@example.test>', { p_references: ['<unknown@x.test>', '<thread-1@example.test>'] });
    expect(byHeader.conversation_id).toBe(first.conversation_id);
    const { data: token } = await service.from('conversations').select('reply_token').eq('id', first.conversation_id).single();
    const byToken = await receive(`${mailbox}+${token!.reply_token}@in.opshub.test`, '<thread-3@example.test>', { p_subject: 'Something else' });
    expect(byToken.conversation_id).toBe(first.conversation_id);
    // A token of this account sent to another account's mailbox opens a conversation there, never here.
    const elsewhere = await receive(`${otherMailbox}+${token!.reply_token}@in.opshub.test`, '<thread-4@example.test>');
    expect(elsewhere.conversation_id).not.toBe(first.conversation_id);
    const { data: theirs } = await service.from('conversations').select('account_id').eq('id', elsewhere.conversation_id).single();
    expect(theirs!.account_id).toBe(other.accountId);
    // A Message-ID of this account's thread does not thread another account's mail into it either.
    const crossRef = await receive(`${otherMailbox}@in.opshub.test`, '<thread-5@example.test>', { p_references: ['<thread-1@example.test>'] });
    expect(crossRef.conversation_id).not.toBe(first.conversation_id);
  });

  it('refuses an unknown mailbox and a sender that is not an address', async () => {
    const unknown = await service.rpc('receive_email', { p_to: 'nobody@in.test', p_from_email: 'a@b.test', p_from_name: null, p_subject: 's', p_body: 'b' });
    expect(unknown.error?.code).toBe('P0002');
    const bad = await service.rpc('receive_email', { p_to: `${mailbox}@in.test`, p_from_email: 'not an address', p_from_name: null, p_subject: 's', p_body: 'b' });
    expect(bad.error?.code).toBe('22023');
  });

  it('lets only the service role receive mail or read a mailbox secret', async () => {
    for (const who of [admin.client, member.client, anonClient(backend)]) {
      const { error } = await who.rpc('receive_email', { p_to: `${mailbox}@in.test`, p_from_email: 'a@b.test', p_from_name: null, p_subject: 's', p_body: 'b' });
      expect(error).not.toBeNull();
      const secret = await who.rpc('inbound_secret', { p_to: `${mailbox}@in.test` });
      expect(secret.error).not.toBeNull();
    }
    for (const who of [member, auditor, client, supplier]) {
      expect((await who.client.rpc('inbound_mailbox')).error?.code).toBe('42501');
    }
    const { data: secret } = await service.rpc('inbound_secret', { p_to: `${mailbox}+tok@in.test` });
    expect(typeof secret).toBe('string');
  });

  it('a reply queues its mail and stops being unread; a note never queues one; staff only, own account only', async () => {
    const got = await receive(`${mailbox}@in.opshub.test`, '<reply-1@example.test>');
    const reply = await member.client.rpc('reply_to_conversation', { p_conversation_id: got.conversation_id, p_body: ' Sorry, a new one ships today. ' }).single<Record<string, unknown>>();
    expect(reply.error).toBeNull();
    expect(reply.data).toMatchObject({ direction: 'outbound', delivery_status: 'queued', body: 'Sorry, a new one ships today.', author_id: member.userId });
    const note = await admin.client.rpc('reply_to_conversation', { p_conversation_id: got.conversation_id, p_body: 'Check the courier', p_note: true }).single<Record<string, unknown>>();
    expect(note.data).toMatchObject({ direction: 'note', delivery_status: null });
    const { data: jobs } = await service.from('jobs').select('kind, subject_id').eq('account_id', admin.accountId).eq('kind', 'helpdesk.send_reply');
    expect(jobs!.map((j) => j.subject_id)).toContain(reply.data!.id);
    expect(jobs!.map((j) => j.subject_id)).not.toContain(note.data!.id);
    const { data: conversation } = await admin.client.from('conversations').select('unread, first_responded_at').eq('id', got.conversation_id).single();
    expect(conversation!.unread).toBe(false);
    expect(conversation!.first_responded_at).not.toBeNull();

    for (const who of [auditor, client, supplier]) {
      const { error } = await who.client.rpc('reply_to_conversation', { p_conversation_id: got.conversation_id, p_body: 'x' });
      expect(error?.code).toBe('42501');
    }
    expect((await other.client.rpc('reply_to_conversation', { p_conversation_id: got.conversation_id, p_body: 'x' })).error?.code).toBe('P0002');
    expect((await member.client.rpc('reply_to_conversation', { p_conversation_id: got.conversation_id, p_body: '   ' })).error?.code).toBe('22023');
  });

  it('staff read the inbox, auditors cannot change it, outsiders see nothing; resolving is audited with an event', async () => {
    const got = await receive(`${mailbox}@in.opshub.test`, '<reach@example.test>');
    for (const who of [admin, member, auditor]) {
      expect((await who.client.from('conversations').select('id').eq('id', got.conversation_id)).data).toHaveLength(1);
      expect((await who.client.from('messages').select('id').eq('conversation_id', got.conversation_id)).data).toHaveLength(1);
    }
    for (const who of [client, supplier, other]) {
      expect((await who.client.from('conversations').select('id').eq('id', got.conversation_id)).data).toEqual([]);
      expect((await who.client.from('messages').select('id').eq('conversation_id', got.conversation_id)).data).toEqual([]);
    }
    expect((await anonClient(backend).from('conversations').select('id')).data ?? []).toEqual([]);
    const refused = await auditor.client.from('conversations').update({ status: 'resolved' }).eq('id', got.conversation_id).select('id');
    expect(refused.data ?? []).toEqual([]);
    // The columns people set are all they set: not the contact, not the subject.
    expect((await member.client.from('conversations').update({ subject: 'Renamed' }).eq('id', got.conversation_id)).error).not.toBeNull();

    const resolved = await member.client.from('conversations').update({ status: 'resolved', assignee_id: member.userId }).eq('id', got.conversation_id).select('status, resolved_at').single();
    expect(resolved.data!.status).toBe('resolved');
    expect(resolved.data!.resolved_at).not.toBeNull();
    const { data: events } = await service.from('events').select('kind').eq('resource_id', got.conversation_id);
    expect(events!.map((e) => e.kind)).toContain('conversation_resolved');
    const { data: audit } = await admin.client.from('audit_logs').select('action').eq('resource_id', got.conversation_id);
    expect(audit!.map((a) => a.action)).toContain('conversation_resolved');
    // Another account's user cannot be assigned.
    expect((await member.client.from('conversations').update({ assignee_id: other.userId }).eq('id', got.conversation_id)).error).not.toBeNull();
    // A new mail reopens it.
    await receive(`${mailbox}@in.opshub.test`, '<reach-2@example.test>', { p_references: ['<reach@example.test>'] });
    const { data: reopened } = await admin.client.from('conversations').select('status, resolved_at, unread').eq('id', got.conversation_id).single();
    expect(reopened).toEqual({ status: 'open', resolved_at: null, unread: true });
  });
});
