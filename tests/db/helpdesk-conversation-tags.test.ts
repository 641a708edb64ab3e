// The inbox's tag index (issue 35, decision 090): conversation_tags holds one
// row per tag of each listed conversation with its last_message_at, kept by a
// trigger on conversations through tag edits, new messages, a merge and a
// delete; inbox_tagged reads it for each role exactly as the inbox does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

type Received = { conversation_id: string };

describe('conversation_tags follows the conversations', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let other: Member;
  let mailbox: string;
  let n = 0;

  const receive = async (from = 'customer@example.test') => {
    n += 1;
    const { data, error } = await service.rpc('receive_email', {
      p_to: `${mailbox}@in.opshub.test`, p_from_email: from, p_from_name: 'Customer', p_subject: `Tagged ${n}`,
      p_body: 'Help please', p_message_id: `<tags-${n}@example.test>`,
    });
    if (error) throw new Error(error.message);
    return (data as Received).conversation_id;
  };
  /** The index's rows of the account, as "conversation tag last_message_at". */
  const indexed = async () =>
    (await backend.db.query<{ r: string }>(
      `select conversation_id || ' ' || tag || ' ' || last_message_at as r from public.conversation_tags where account_id = $1 order by 1`,
      [admin.accountId],
    )).rows.map((row) => row.r);
  /** What the index should hold: each tag of each conversation not merged away, with its activity time. */
  const expected = async () =>
    (await backend.db.query<{ r: string }>(
      `select c.id || ' ' || t || ' ' || c.last_message_at as r from public.conversations c cross join lateral unnest(c.tags) t
        where c.account_id = $1 and c.merged_into_id is null order by 1`,
      [admin.accountId],
    )).rows.map((row) => row.r);
  const tagged = async (who: SupabaseClient, tag: string) => {
    const { data, error } = await who.rpc('inbox_tagged', { p_tag: tag, p_mine: false }, { get: true }).select('id').order('last_message_at', { ascending: false }).order('id', { ascending: false });
    if (error) throw new Error(error.message);
    return ((data ?? []) as { id: string }[]).map((r) => r.id);
  };

  beforeAll(async () => {
    backend = await startBackend();
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'tags-admin');
    member = await addMember(backend, admin, 'member', 'tags-member');
    other = await signUpFreshAdmin(backend, 'tags-other');
    mailbox = (await admin.client.rpc('inbound_mailbox').single<{ local_part: string }>()).data!.local_part;
  }, 120_000);
  afterAll(async () => backend?.stop());

  it('follows tag edits, new activity, a merge and a delete', async () => {
    const a = await receive();
    const b = await receive();
    const c = await receive('someone-else@example.test');
    expect(await indexed()).toEqual([]);

    expect((await member.client.from('conversations').update({ tags: ['billing', 'vip'] }).eq('id', a)).error).toBeNull();
    expect((await member.client.from('conversations').update({ tags: ['legal'] }).eq('id', b)).error).toBeNull();
    expect((await member.client.from('conversations').update({ tags: ['vip'] }).eq('id', c)).error).toBeNull();
    expect(await indexed()).toHaveLength(4);
    expect(await indexed()).toEqual(await expected());

    // A tag taken off and another put on.
    expect((await member.client.from('conversations').update({ tags: ['billing', 'urgent'] }).eq('id', a)).error).toBeNull();
    expect(await indexed()).toEqual(await expected());
    expect(await tagged(admin.client, 'vip')).toEqual([c]);

    // A reply moves the conversation's activity time, and its tag rows with it: first in the tag's list.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await member.client.rpc('reply_to_conversation', { p_conversation_id: a, p_body: 'On it' })).error).toBeNull();
    expect(await indexed()).toEqual(await expected());
    expect((await member.client.from('conversations').update({ tags: ['billing', 'urgent', 'vip'] }).eq('id', a)).error).toBeNull();
    expect(await tagged(admin.client, 'vip')).toEqual([a, c]);

    // Merged into b: a is no longer listed (no rows), b takes a's tags.
    expect((await member.client.rpc('merge_conversation', { p_source: a, p_target: b })).error).toBeNull();
    expect(await indexed()).toEqual(await expected());
    expect((await indexed()).some((r) => r.startsWith(a))).toBe(false);
    expect((await tagged(admin.client, 'vip')).sort()).toEqual([b, c].sort());
    expect(await tagged(admin.client, 'legal')).toEqual([b]);

    // Deleted: its rows go with it.
    await backend.db.query('delete from public.conversations where id = $1', [c]);
    expect(await indexed()).toEqual(await expected());
    expect(await tagged(admin.client, 'vip')).toEqual([b]);
  });

  it('is read as conversations are: staff and auditors their own account, nobody writes it', async () => {
    const auditor = await addMember(backend, admin, 'auditor', 'tags-auditor');
    const clientRole = await addMember(backend, admin, 'client', 'tags-client');
    const supplier = await addMember(backend, admin, 'supplier', 'tags-supplier');
    const rows = (await backend.db.query('select 1 from public.conversation_tags where account_id = $1', [admin.accountId])).rows.length;
    expect(rows).toBeGreaterThan(0);
    for (const who of [admin, member, auditor]) {
      expect(await tagged(who.client, 'vip')).toHaveLength(1);
      expect(((await who.client.from('conversation_tags').select('tag')).data ?? []).length).toBe(rows);
    }
    for (const who of [clientRole, supplier, other]) {
      expect(await tagged(who.client, 'vip')).toEqual([]);
      expect((await who.client.from('conversation_tags').select('tag')).data ?? []).toEqual([]);
    }
    expect((await anonClient(backend).rpc('inbox_tagged', { p_tag: 'vip' }, { get: true })).error).not.toBeNull();
    // Only the trigger writes it: an insert, an edit or a delete by the account's admin is refused.
    const { data: one } = await admin.client.from('conversation_tags').select('conversation_id, tag').limit(1).single();
    expect((await admin.client.from('conversation_tags').insert({ account_id: admin.accountId, conversation_id: one!.conversation_id, tag: 'forged', last_message_at: new Date().toISOString() })).error).not.toBeNull();
    expect((await admin.client.from('conversation_tags').update({ tag: 'forged' }).eq('conversation_id', one!.conversation_id)).error).not.toBeNull();
    expect((await admin.client.from('conversation_tags').delete().eq('conversation_id', one!.conversation_id)).error).not.toBeNull();
    expect(await indexed()).toEqual(await expected());
  });
});
