// Suggest reply without an AI provider (decision 083): the account's email
// templates and canned replies ranked by pg_trgm similarity to the
// conversation's last inbound message, filled for the conversation; staff
// only, another account's templates and conversations never.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

type Suggestion = { id: string; source: 'canned' | 'template'; name: string; body: string; score: number };

describe('suggest_replies on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let auditor: Member;
  let client: Member;
  let other: Member;
  let conversationId: string;
  let mailbox: string;

  const receive = async (body: string, id: string) => {
    const { data, error } = await service.rpc('receive_email', {
      p_to: `${mailbox}@in.opshub.test`, p_from_email: 'ada@customer.test', p_from_name: 'Ada Lovelace', p_subject: 'My order',
      p_body: body, p_message_id: `<${id}@customer.test>`, p_references: id === 'm1' ? [] : ['<m1@customer.test>'],
    });
    if (error) throw new Error(error.message);
    return (data as { conversation_id: string }).conversation_id;
  };
  const suggest = async (who: Member, args: Record<string, unknown> = {}) => {
    const { data, error } = await who.client.rpc('suggest_replies', { p_conversation_id: conversationId, ...args });
    if (error) throw new Error(error.message);
    return data as Suggestion[];
  };

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'suggest-admin');
    member = await addMember(backend, admin, 'member', 'suggest-member');
    auditor = await addMember(backend, admin, 'auditor', 'suggest-auditor');
    client = await addMember(backend, admin, 'client', 'suggest-client');
    other = await signUpFreshAdmin(backend, 'suggest-other');
    mailbox = (await admin.client.rpc('inbound_mailbox').single<{ local_part: string }>()).data!.local_part;
    const templates = [
      { name: 'Refund issued', subject: 'Your refund', content: 'Hi {{contact_first_name}}, we have refunded your payment.' },
      { name: 'Order shipped', subject: 'Shipped', content: 'Hi {{contact_first_name}}, your order has shipped and arrives in two days. {{agent_name}}' },
    ];
    for (const t of templates) expect((await admin.client.from('templates').insert({ ...t, account_id: admin.accountId, type: 'email' })).error).toBeNull();
    // A quote template is not written to people: never offered.
    expect((await admin.client.from('templates').insert({ account_id: admin.accountId, name: 'Order shipped quote', type: 'quote', content: 'order shipped where is my order' })).error).toBeNull();
    expect((await member.client.from('canned_replies').insert({ name: 'Password reset', body: 'Use the link to reset your password.' })).error).toBeNull();
    expect((await other.client.from('templates').insert({ account_id: other.accountId, name: 'Where is my order', subject: 's', content: 'Their order text: where is my order shipped', type: 'email' })).error).toBeNull();
    conversationId = await receive('I want a refund please.', 'm1');
  });
  afterAll(async () => backend?.stop());

  it('ranks by the last inbound message, fills the variables, and follows the newest message', async () => {
    let ranked = await suggest(member);
    expect(ranked[0]).toMatchObject({ source: 'template', name: 'Refund issued', body: 'Hi Ada, we have refunded your payment.' });
    // A later message from the customer changes the ranking.
    expect(await receive('Where is my order? Has it shipped yet?', 'm2')).toBe(conversationId);
    ranked = await suggest(member);
    expect(ranked[0].name).toBe('Order shipped');
    const { data: me } = await member.client.from('users').select('first_name, last_name').eq('id', member.userId).single();
    expect(ranked[0].body).toBe(`Hi Ada, your order has shipped and arrives in two days. ${[me!.first_name, me!.last_name].filter(Boolean).join(' ')}`);
    expect(ranked.every((s, i) => i === 0 || s.score <= ranked[i - 1].score)).toBe(true);
    // Not another account's template, not a quote template; nothing unrelated to the message.
    expect(ranked.map((s) => s.name)).not.toContain('Where is my order');
    expect(ranked.map((s) => s.name)).not.toContain('Order shipped quote');
    expect(ranked.map((s) => s.name)).not.toContain('Password reset');
    // A note or a reply does not count as the customer's words.
    expect((await member.client.rpc('reply_to_conversation', { p_conversation_id: conversationId, p_body: 'refund refund refund', p_note: true })).error).toBeNull();
    expect((await suggest(member))[0].name).toBe('Order shipped');
    expect(await suggest(member, { p_limit: 1 })).toHaveLength(1);
  });

  it('gives one by id whatever its score (the insert), canned replies included', async () => {
    const { data: canned } = await member.client.from('canned_replies').select('id').eq('name', 'Password reset').single();
    expect(await suggest(member, { p_id: canned!.id })).toMatchObject([{ source: 'canned', name: 'Password reset' }]);
    const { data: theirs } = await other.client.from('templates').select('id').single();
    expect(await suggest(member, { p_id: theirs!.id })).toEqual([]);
  });

  it('staff only: admins, members and auditors; clients, another account and anon get nothing', async () => {
    for (const who of [admin, member, auditor]) expect((await suggest(who)).length).toBeGreaterThan(0);
    for (const who of [client, other]) expect(await suggest(who)).toEqual([]);
    expect((await anonClient(backend).rpc('suggest_replies', { p_conversation_id: conversationId })).data ?? []).toEqual([]);
  });
});
