// The dashboard's Support Queue card from the helpdesk's rows (decision 072):
// open conversations, the unassigned ones, and since when the oldest waits for
// an answer (a reply takes it off, a note does not, pending and resolved do
// not count); another account's conversations never count, and a client reads zeros.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

type Queue = { open: number; unassigned: number; oldest_waiting_at: string | null };
type Figures = Queue & { first_responses: number; average_first_response_minutes: number | null; csat_count: number; csat_average: number | null };

describe('the Support Queue card on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let client: Member;
  let other: Member;
  let mailbox: string;
  let otherMailbox: string;

  const queueOf = async (who: Member): Promise<Queue> => {
    const { data, error } = await who.client.rpc('dashboard_overview');
    if (error) throw new Error(error.message);
    const { open, unassigned, oldest_waiting_at } = (data as { support_queue: Queue }).support_queue;
    return { open, unassigned, oldest_waiting_at };
  };
  const figuresOf = async (who: Member) => {
    const { data, error } = await who.client.rpc('dashboard_overview');
    if (error) throw new Error(error.message);
    return (data as { support_queue: Figures }).support_queue;
  };
  const receive = async (to: string, id: string) => {
    const { data, error } = await service.rpc('receive_email', {
      p_to: `${to}@in.opshub.test`, p_from_email: `${id}@customer.test`, p_from_name: id, p_subject: id, p_body: 'Help', p_message_id: `<${id}@customer.test>`,
    });
    if (error) throw new Error(error.message);
    return (data as { conversation_id: string }).conversation_id;
  };

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'queue-admin');
    client = await addMember(backend, admin, 'client', 'queue-client');
    other = await signUpFreshAdmin(backend, 'queue-other');
    mailbox = (await admin.client.rpc('inbound_mailbox').single<{ local_part: string }>()).data!.local_part;
    otherMailbox = (await other.client.rpc('inbound_mailbox').single<{ local_part: string }>()).data!.local_part;
  });
  afterAll(async () => backend?.stop());

  it('counts open and unassigned conversations and the oldest waiting, per account', async () => {
    expect(await queueOf(admin)).toEqual({ open: 0, unassigned: 0, oldest_waiting_at: null });
    const first = await receive(mailbox, 'q1');
    const second = await receive(mailbox, 'q2');
    const third = await receive(mailbox, 'q3');
    await receive(otherMailbox, 'elsewhere');
    const times = new Map<string, string>();
    for (const id of [first, second, third]) {
      const { data } = await service.from('conversations').select('last_message_at').eq('id', id).single();
      times.set(id, (data as { last_message_at: string }).last_message_at);
    }
    expect(await queueOf(admin)).toEqual({ open: 3, unassigned: 3, oldest_waiting_at: times.get(first) });
    expect(await queueOf(other)).toMatchObject({ open: 1, unassigned: 1 });

    // Assigned: still open, no longer unassigned. A note does not answer; a reply does.
    const { error: assignError } = await admin.client.from('conversations').update({ assignee_id: admin.userId }).eq('id', first);
    expect(assignError).toBeNull();
    expect((await admin.client.rpc('reply_to_conversation', { p_conversation_id: first, p_body: 'Looking', p_note: true })).error).toBeNull();
    expect(await queueOf(admin)).toEqual({ open: 3, unassigned: 2, oldest_waiting_at: times.get(first) });
    expect((await admin.client.rpc('reply_to_conversation', { p_conversation_id: first, p_body: 'On its way' })).error).toBeNull();
    expect(await queueOf(admin)).toEqual({ open: 3, unassigned: 2, oldest_waiting_at: times.get(second) });

    // Pending (waiting on the customer) is open but not waiting on us; resolved leaves the queue.
    await admin.client.from('conversations').update({ status: 'pending' }).eq('id', second);
    await admin.client.from('conversations').update({ status: 'resolved' }).eq('id', third);
    expect(await queueOf(admin)).toEqual({ open: 2, unassigned: 1, oldest_waiting_at: null });

    // A client reads nothing of the helpdesk.
    expect(await queueOf(client)).toEqual({ open: 0, unassigned: 0, oldest_waiting_at: null });
  });

  // Decision 083: the average first response and CSAT of the last 30 days, on the same card, in the same round trip.
  it('averages the first responses and the CSAT of the last 30 days, per account; a client reads none', async () => {
    const a = await receive(mailbox, 'f1');
    const b = await receive(mailbox, 'f2');
    const old = await receive(mailbox, 'f3');
    const theirs = await receive(otherMailbox, 'f4');
    const day = 24 * 3600_000;
    const set = async (id: string, createdAgo: number, answeredAfterMinutes: number) => {
      const created = new Date(Date.now() - createdAgo);
      const { error } = await service.from('conversations')
        .update({ created_at: created.toISOString(), first_responded_at: new Date(created.getTime() + answeredAfterMinutes * 60_000).toISOString() })
        .eq('id', id);
      if (error) throw new Error(error.message);
    };
    // The first test's reply counts too: reset it out of the window.
    await service.from('conversations').update({ first_responded_at: null }).eq('account_id', admin.accountId);
    await set(a, day, 60);
    await set(b, 2 * day, 180);
    await set(old, 40 * day, 10); // answered 40 days ago: outside the window
    await set(theirs, day, 5);
    const csat = async (conversation: string, account: string, score: number, answeredAgo: number) => {
      const { error } = await service.from('csat_responses').insert({
        conversation_id: conversation, account_id: account, token_hash: `\\x${crypto.randomUUID().replaceAll('-', '')}`,
        score, sent_at: new Date(Date.now() - answeredAgo - 60_000).toISOString(), answered_at: new Date(Date.now() - answeredAgo).toISOString(),
      });
      if (error) throw new Error(error.message);
    };
    await csat(a, admin.accountId, 5, day);
    await csat(b, admin.accountId, 4, day);
    await csat(old, admin.accountId, 1, 40 * day);
    await csat(theirs, other.accountId, 1, day);
    expect(await figuresOf(admin)).toMatchObject({ first_responses: 2, average_first_response_minutes: 120, csat_count: 2, csat_average: 4.5 });
    expect(await figuresOf(other)).toMatchObject({ first_responses: 1, average_first_response_minutes: 5, csat_count: 1, csat_average: 1 });
    expect(await figuresOf(client)).toMatchObject({ first_responses: 0, average_first_response_minutes: null, csat_count: 0, csat_average: null });
  });
});
