// The 'next response' SLA target (decision 083): after our first reply, a
// customer's unanswered message starts a business-hours clock stored on the
// conversation; our reply (not a note) stops it; it drives sla_due_at; the
// sweep records its breach once per deadline; admins set it per priority
// (default: the first response's target); staff read it, outsiders nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const WEEKDAYS = [1, 2, 3, 4, 5];
const TARGETS = {
  low: { first_response_minutes: 960, resolution_minutes: 4800 },
  normal: { first_response_minutes: 120, resolution_minutes: 4800, next_response_minutes: 30 },
  high: { first_response_minutes: 60, resolution_minutes: 240, next_response_minutes: 20 },
  urgent: { first_response_minutes: 30, resolution_minutes: 120, next_response_minutes: 10 },
};
type Clock = { next_response_started_at: string | null; next_response_due_at: string | null; sla_due_at: string | null; resolution_due_at: string };

describe('the next response SLA on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let client: Member;
  let mailbox: string;
  let conversation: string;
  let n = 0;

  const receive = async (references: string[] = [], box = mailbox) => {
    n += 1;
    const { data, error } = await service.rpc('receive_email', {
      p_to: `${box}@in.opshub.test`, p_from_email: 'nr@customer.test', p_from_name: 'Customer', p_subject: 'Case',
      p_body: `Message ${n}`, p_message_id: `<nr-${n}@customer.test>`, p_references: references,
    });
    if (error) throw new Error(error.message);
    return data as { conversation_id: string; message_id: string };
  };
  const clock = async (): Promise<Clock> => {
    const { data, error } = await member.client.from('conversations')
      .select('next_response_started_at, next_response_due_at, sla_due_at, resolution_due_at').eq('id', conversation).single();
    if (error) throw new Error(error.message);
    return data as Clock;
  };
  const reply = async (note = false) => {
    const { error } = await member.client.rpc('reply_to_conversation', { p_conversation_id: conversation, p_body: note ? 'Note' : 'Reply', p_note: note });
    if (error) throw new Error(error.message);
  };
  const add = async (start: string, minutes: number) => {
    const { data, error } = await service.rpc('business_time_add', {
      p_start: start, p_minutes: minutes, p_timezone: 'UTC', p_days: WEEKDAYS, p_opens: '09:00', p_closes: '17:00', p_holidays: [],
    });
    if (error) throw new Error(error.message);
    return new Date(data as string).getTime();
  };
  const ms = (value: string | null) => (value === null ? null : new Date(value).getTime());

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'nr-admin');
    member = await addMember(backend, admin, 'member', 'nr-member');
    client = await addMember(backend, admin, 'client', 'nr-client');
    mailbox = (await admin.client.rpc('inbound_mailbox').single<{ local_part: string }>()).data!.local_part;
    const saved = await admin.client.rpc('save_helpdesk_sla', {
      p_timezone: 'UTC', p_days: WEEKDAYS, p_opens: '09:00', p_closes: '17:00', p_holidays: [], p_targets: TARGETS,
    });
    expect(saved.error).toBeNull();
  });
  afterAll(async () => backend?.stop());

  it('starts at a customer message after our first reply, in business hours; a note does not stop it, a reply does', async () => {
    conversation = (await receive()).conversation_id;
    expect(await clock()).toMatchObject({ next_response_started_at: null, next_response_due_at: null });
    await reply();
    expect((await clock()).next_response_due_at).toBeNull();

    const second = await receive(['<nr-1@customer.test>']);
    expect(second.conversation_id).toBe(conversation);
    const { data: message } = await service.from('messages').select('created_at').eq('id', second.message_id).single();
    const started = (message as { created_at: string }).created_at;
    let c = await clock();
    expect(ms(c.next_response_started_at)).toBe(ms(started));
    expect(ms(c.next_response_due_at)).toBe(await add(started, 30));
    expect(ms(c.sla_due_at)).toBe(Math.min(ms(c.next_response_due_at)!, ms(c.resolution_due_at)!));

    // A further message does not restart the clock; a priority change recomputes it with that priority's target.
    await receive(['<nr-1@customer.test>']);
    expect(ms((await clock()).next_response_started_at)).toBe(ms(started));
    expect((await member.client.from('conversations').update({ priority: 'urgent' }).eq('id', conversation)).error).toBeNull();
    expect(ms((await clock()).next_response_due_at)).toBe(await add(started, 10));

    await reply(true);
    expect((await clock()).next_response_due_at).not.toBeNull();
    await reply();
    c = await clock();
    expect(c).toMatchObject({ next_response_started_at: null, next_response_due_at: null });
    expect(ms(c.sla_due_at)).toBe(ms(c.resolution_due_at));
    // The clock is not a change a person made: no audit row for it beyond the priority's.
    const { data: audit } = await admin.client.from('audit_logs').select('action, new_values').eq('resource_id', conversation).eq('action', 'conversation_updated');
    expect((audit ?? []).every((a) => !JSON.stringify(a.new_values).includes('next_response'))).toBe(true);
  });

  it('the sweep records a next-response breach once per deadline, with its event', async () => {
    await receive(['<nr-1@customer.test>']);
    const due = (await clock()).next_response_due_at!;
    const later = new Date(new Date(due).getTime() + 60_000).toISOString();
    expect((await service.rpc('helpdesk_sla_sweep', { p_now: later })).error).toBeNull();
    expect((await service.rpc('helpdesk_sla_sweep', { p_now: later })).data).toBe(0);
    const breaches = async () => (await member.client.from('sla_breaches').select('target, due_at').eq('conversation_id', conversation).eq('target', 'next_response')).data ?? [];
    expect(await breaches()).toHaveLength(1);
    // Answered, then the customer writes again: a new deadline, a new breach.
    await reply();
    await receive(['<nr-1@customer.test>']);
    // Out of hours both waits would end at the next opening: one deadline, one breach. Put this one on a Monday morning
    // a week or more ahead, after the resolution deadline whatever the day and hour the test runs (a fixed date once
    // fell before it on a Friday evening, and in the past from the next Monday on).
    const monday = new Date(Date.now() + 7 * 86_400_000);
    monday.setUTCDate(monday.getUTCDate() + ((8 - monday.getUTCDay()) % 7));
    const mondayAt = (time: string) => `${monday.toISOString().slice(0, 10)}T${time}:00Z`;
    expect((await service.from('conversations').update({ next_response_started_at: mondayAt('10:00') }).eq('id', conversation)).error).toBeNull();
    const again = (await clock()).next_response_due_at!;
    expect(ms(again)).toBe(Date.parse(mondayAt('10:10')));
    const evenLater = new Date(new Date(again).getTime() + 60_000).toISOString();
    expect(ms((await clock()).resolution_due_at)!).toBeLessThan(Date.parse(evenLater));
    expect((await service.rpc('helpdesk_sla_sweep', { p_now: evenLater })).error).toBeNull();
    expect(await breaches()).toHaveLength(2);
    const { data: events } = await service.from('events').select('payload').eq('kind', 'sla_breached').eq('resource_id', conversation);
    expect((events ?? []).filter((e) => (e.payload as { target: string }).target === 'next_response')).toHaveLength(2);
    // First response and resolution stay once per conversation.
    expect((await member.client.from('sla_breaches').select('target').eq('conversation_id', conversation).eq('target', 'resolution')).data).toHaveLength(1);
    expect((await service.from('sla_breaches').insert({ account_id: admin.accountId, conversation_id: conversation, target: 'resolution', due_at: evenLater })).error?.code).toBe('23505');
  });

  it('admins set it per priority (default: the first response target); staff read it, a client nothing', async () => {
    const { data } = await member.client.from('helpdesk_sla_targets').select('priority, next_response_minutes').order('priority');
    expect(data).toEqual([
      { priority: 'high', next_response_minutes: 20 }, { priority: 'low', next_response_minutes: null },
      { priority: 'normal', next_response_minutes: 30 }, { priority: 'urgent', next_response_minutes: 10 },
    ]);
    expect((await client.client.from('helpdesk_sla_targets').select('priority')).data ?? []).toEqual([]);
    expect((await member.client.from('conversations').update({ priority: 'low' }).eq('id', conversation)).error).toBeNull();
    const c = await clock();
    expect(ms(c.next_response_due_at)).toBe(await add(c.next_response_started_at!, 960));
    const bad = await admin.client.rpc('save_helpdesk_sla', {
      p_timezone: 'UTC', p_days: WEEKDAYS, p_opens: '09:00', p_closes: '17:00', p_holidays: [],
      p_targets: { ...TARGETS, normal: { ...TARGETS.normal, next_response_minutes: 0 } },
    });
    expect(bad.error).not.toBeNull();
  });

  it('pending pauses the next-response clock: over a weekend it keeps its remaining business time', async () => {
    conversation = (await receive()).conversation_id;
    const ref = [`<nr-${n}@customer.test>`];
    await reply();
    await receive(ref);
    type Row = Clock & { status: string; updated_at: string; next_response_paused_minutes: number };
    const row = async (): Promise<Row> => (await service.from('conversations')
      .select('status, updated_at, next_response_started_at, next_response_due_at, next_response_paused_minutes, sla_due_at, resolution_due_at')
      .eq('id', conversation).single()).data as Row;
    // The wait began Friday 16:50 (normal: 30 minutes); at 16:55 a person set it to pending, 25 business minutes left.
    expect((await service.from('conversations').update({
      next_response_started_at: '2026-11-20T16:50:00Z', status: 'pending', sla_paused_at: '2026-11-20T16:55:00Z',
    }).eq('id', conversation)).error).toBeNull();
    expect((await row()).sla_due_at).toBeNull();
    // Pending, its old deadline (Monday 09:20) long past: no breach.
    expect((await service.rpc('helpdesk_sla_sweep', { p_now: new Date().toISOString() })).error).toBeNull();
    const breached = async () => (await service.from('sla_breaches').select('due_at').eq('conversation_id', conversation).eq('target', 'next_response')).data ?? [];
    expect(await breached()).toEqual([]);

    // Reopened after the weekend (and a week): the same 25 business minutes remain, from now.
    expect((await member.client.from('conversations').update({ status: 'open' }).eq('id', conversation)).error).toBeNull();
    const open = await row();
    expect(open.next_response_paused_minutes).toBeGreaterThan(0);
    const remaining = await add(open.updated_at, 25);
    // Paused time is counted in whole minutes: at most a minute's seconds apart.
    expect(Math.abs(ms(open.next_response_due_at)! - remaining)).toBeLessThan(60_000);
    expect(ms(open.next_response_due_at)!).toBeGreaterThan(Date.now());
    expect(ms(open.sla_due_at)).toBe(Math.min(ms(open.next_response_due_at)!, ms(open.resolution_due_at)!));

    // A wait that begins during the pause (the customer writes while pending) counts from its own start only.
    await reply();
    expect((await service.from('conversations').update({ status: 'pending', sla_paused_at: '2026-11-20T10:00:00Z' })
      .eq('id', conversation)).error).toBeNull();
    await receive(ref);
    const fresh = await row();
    expect(fresh.status).toBe('open');
    expect(fresh.next_response_paused_minutes).toBe(0);
    expect(ms(fresh.next_response_due_at)).toBe(await add(fresh.next_response_started_at!, 30));
    // A reply ends the wait: the next one starts with nothing paused.
    await reply();
    expect(await row()).toMatchObject({ next_response_started_at: null, next_response_due_at: null, next_response_paused_minutes: 0 });
  });

  it('the SLA report counts next responses met and breached per agent and priority (hand-computed)', async () => {
    // A fresh account, so the report holds only these conversations.
    const owner = await signUpFreshAdmin(backend, 'nr-report-admin');
    const agent = await addMember(backend, owner, 'member', 'nr-report-agent');
    const box = (await owner.client.rpc('inbound_mailbox').single<{ local_part: string }>()).data!.local_part;
    expect((await owner.client.rpc('save_helpdesk_sla', {
      p_timezone: 'UTC', p_days: WEEKDAYS, p_opens: '09:00', p_closes: '17:00', p_holidays: [], p_targets: TARGETS,
    })).error).toBeNull();
    const answer = async (id: string) => {
      const { error } = await agent.client.rpc('reply_to_conversation', { p_conversation_id: id, p_body: 'Reply' });
      if (error) throw new Error(error.message);
    };
    // A conversation with its first response given and a customer's message waiting (a next-response clock running).
    const waiting = async (assigned: boolean, priority: string) => {
      const { conversation_id: id } = await receive([], box);
      const ref = [`<nr-${n}@customer.test>`];
      if (assigned) expect((await agent.client.from('conversations').update({ assignee_id: agent.userId, priority }).eq('id', id)).error).toBeNull();
      await answer(id);
      await receive(ref, box);
      return { id, again: () => receive(ref, box) };
    };
    // Started a Monday morning weeks ago: its 20 minutes (high) long gone.
    const overdue = async (id: string) =>
      expect((await service.from('conversations').update({ next_response_started_at: '2026-11-02T09:00:00Z' }).eq('id', id)).error).toBeNull();

    // The agent, high: X answered in time once and late once; Y breached and still waiting; Z waiting, not due yet.
    const x = await waiting(true, 'high');
    await answer(x.id);
    await x.again();
    await overdue(x.id);
    await answer(x.id);
    const y = await waiting(true, 'high');
    await overdue(y.id);
    await waiting(true, 'high');
    // Unassigned, normal: W answered in time; V resolved with a breached wait (its clock stopped: not counted).
    const w = await waiting(false, 'normal');
    await answer(w.id);
    const v = await waiting(false, 'normal');
    await overdue(v.id);
    expect((await agent.client.from('conversations').update({ status: 'resolved' }).eq('id', v.id)).error).toBeNull();

    const { data, error } = await owner.client.rpc('helpdesk_sla_report', { p_from: '2000-01-01T00:00:00Z', p_to: '2100-01-01T00:00:00Z' });
    expect(error).toBeNull();
    const rows = (data as Record<string, unknown>[]).map((r) => ({
      agent: r.assignee_id === null ? null : r.assignee_id === agent.userId ? 'agent' : r.assignee_id, priority: r.priority,
      conversations: Number(r.conversations), next_response_total: Number(r.next_response_total), next_response_met: Number(r.next_response_met),
    }));
    expect(rows).toEqual([
      { agent: null, priority: 'normal', conversations: 2, next_response_total: 1, next_response_met: 1 },
      { agent: 'agent', priority: 'high', conversations: 3, next_response_total: 3, next_response_met: 1 },
    ]);
    const { data: counters } = await service.from('conversations').select('next_responses_met, next_responses_missed').eq('id', x.id).single();
    expect(counters).toEqual({ next_responses_met: 1, next_responses_missed: 1 });
    // People cannot set the counters.
    expect((await agent.client.from('conversations').update({ next_responses_met: 9 }).eq('id', x.id)).error).not.toBeNull();
  });
});
