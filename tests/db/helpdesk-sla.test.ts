// Helpdesk SLAs, CSAT, tags, merge and presence in the database (issue 35,
// decision 075): business-hours deadlines across a weekend, a holiday and a
// daylight-saving change; deadlines stored on the conversation; the breach
// sweep once per conversation and target; the CSAT link once per
// conversation; merge; and every role's reach.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';
import { newToken } from '../../app/lib/link-token.ts';

type Received = { conversation_id: string; message_id: string; duplicate: boolean };
const WEEKDAYS = [1, 2, 3, 4, 5];
const TARGETS = {
  low: { first_response_minutes: 960, resolution_minutes: 4800 },
  normal: { first_response_minutes: 120, resolution_minutes: 480 },
  high: { first_response_minutes: 60, resolution_minutes: 240 },
  urgent: { first_response_minutes: 30, resolution_minutes: 120 },
};

describe('helpdesk SLAs, CSAT, tags and merge on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let auditor: Member;
  let client: Member;
  let other: Member;
  let mailbox: string;
  let n = 0;

  const receive = async (from = 'customer@example.test') => {
    n += 1;
    const { data, error } = await service.rpc('receive_email', {
      p_to: `${mailbox}@in.opshub.test`, p_from_email: from, p_from_name: 'Customer', p_subject: `Case ${n}`,
      p_body: 'Help please', p_message_id: `<sla-${n}@example.test>`,
    });
    if (error) throw new Error(error.message);
    return data as Received;
  };
  const add = async (start: string, minutes: number, tz: string, holidays: string[] = []) => {
    const { data, error } = await service.rpc('business_time_add', {
      p_start: start, p_minutes: minutes, p_timezone: tz, p_days: WEEKDAYS, p_opens: '09:00', p_closes: '17:00', p_holidays: holidays,
    });
    if (error) throw new Error(error.message);
    return new Date(data as string).toISOString();
  };

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'sla-admin');
    member = await addMember(backend, admin, 'member', 'sla-member');
    auditor = await addMember(backend, admin, 'auditor', 'sla-auditor');
    client = await addMember(backend, admin, 'client', 'sla-client');
    other = await signUpFreshAdmin(backend, 'sla-other');
    mailbox = (await admin.client.rpc('inbound_mailbox').single<{ local_part: string }>()).data!.local_part;
  });
  afterAll(async () => backend?.stop());

  it('counts business time across a weekend, a holiday and a daylight-saving change', async () => {
    // Friday 16:00 in Berlin (summer time, UTC+2) plus 2 business hours: 1 hour on Friday, 1 on Monday from 09:00,
    // and on Monday Berlin is on winter time (UTC+1), so 10:00 local is 09:00 UTC.
    expect(await add('2026-10-23T14:00:00Z', 120, 'Europe/Berlin')).toBe('2026-10-26T09:00:00.000Z');
    // The same with Monday a holiday: Tuesday 10:00 local.
    expect(await add('2026-10-23T14:00:00Z', 120, 'Europe/Berlin', ['2026-10-26'])).toBe('2026-10-27T09:00:00.000Z');
    // Before opening: the clock starts at 09:00 local (New York, spring forward on 8 March: UTC-4 from then).
    expect(await add('2026-03-09T05:00:00Z', 30, 'America/New_York')).toBe('2026-03-09T13:30:00.000Z');
    expect(await add('2026-03-06T05:00:00Z', 30, 'America/New_York')).toBe('2026-03-06T14:30:00.000Z');
    const { data: between } = await service.rpc('business_minutes_between', {
      p_from: '2026-10-23T14:00:00Z', p_to: '2026-10-26T09:00:00Z', p_timezone: 'Europe/Berlin', p_days: WEEKDAYS,
      p_opens: '09:00', p_closes: '17:00', p_holidays: [],
    });
    expect(between).toBe(120);
  });

  it('lets admins alone set business hours and targets, validated; staff read them, outsiders nothing', async () => {
    const args = { p_timezone: 'Europe/Berlin', p_days: WEEKDAYS, p_opens: '09:00', p_closes: '17:00', p_holidays: ['2026-12-25'], p_targets: TARGETS };
    for (const who of [member, auditor, client]) {
      expect((await who.client.rpc('save_helpdesk_sla', args)).error?.code).toBe('42501');
    }
    expect((await admin.client.rpc('save_helpdesk_sla', { ...args, p_timezone: 'Mars/Olympus' })).error?.code).toBe('22023');
    expect((await admin.client.rpc('save_helpdesk_sla', { ...args, p_closes: '08:00' })).error?.code).toBe('22023');
    expect((await admin.client.rpc('save_helpdesk_sla', { ...args, p_targets: { ...TARGETS, low: { first_response_minutes: 0, resolution_minutes: 1 } } })).error).not.toBeNull();
    expect((await admin.client.rpc('save_helpdesk_sla', args)).error).toBeNull();
    for (const who of [admin, member, auditor]) {
      expect((await who.client.from('helpdesk_business_hours').select('timezone')).data).toEqual([{ timezone: 'Europe/Berlin' }]);
      expect((await who.client.from('helpdesk_sla_targets').select('priority')).data).toHaveLength(4);
    }
    for (const who of [client, other]) {
      expect((await who.client.from('helpdesk_business_hours').select('timezone')).data).toEqual([]);
      expect((await who.client.from('helpdesk_sla_targets').select('priority')).data).toEqual([]);
    }
    expect((await admin.client.from('helpdesk_business_hours').update({ timezone: 'UTC' }).eq('account_id', admin.accountId)).error).not.toBeNull();
  });

  it('stores deadlines on the conversation, recomputed on priority; waiting on the customer stops the clock', async () => {
    const got = await receive();
    const read = async () =>
      (await admin.client.from('conversations').select('created_at, first_response_due_at, resolution_due_at, sla_due_at, sla_paused_at').eq('id', got.conversation_id).single()).data!;
    const fresh = await read();
    const { data: expected } = await service.rpc('business_time_add', {
      p_start: fresh.created_at, p_minutes: 120, p_timezone: 'Europe/Berlin', p_days: WEEKDAYS, p_opens: '09:00', p_closes: '17:00', p_holidays: ['2026-12-25'],
    });
    expect(new Date(fresh.first_response_due_at).getTime()).toBe(new Date(expected as string).getTime());
    expect(fresh.sla_due_at).toBe(fresh.first_response_due_at);
    await member.client.from('conversations').update({ priority: 'urgent' }).eq('id', got.conversation_id);
    const urgent = await read();
    expect(new Date(urgent.first_response_due_at).getTime()).toBeLessThan(new Date(fresh.first_response_due_at).getTime());
    // People cannot set a deadline themselves.
    expect((await member.client.from('conversations').update({ sla_due_at: null }).eq('id', got.conversation_id)).error).not.toBeNull();
    await member.client.from('conversations').update({ status: 'pending' }).eq('id', got.conversation_id);
    const pending = await read();
    expect(pending.sla_due_at).toBeNull();
    expect(pending.sla_paused_at).not.toBeNull();
    await member.client.from('conversations').update({ status: 'open' }).eq('id', got.conversation_id);
    const open = await read();
    expect(open.sla_paused_at).toBeNull();
    expect(open.sla_due_at).not.toBeNull();
  });

  it('the sweep records a breach once per conversation and target, with one event and one mail job', async () => {
    const got = await receive();
    const later = new Date(Date.now() + 90 * 86400_000).toISOString();
    const first = await service.rpc('helpdesk_sla_sweep', { p_now: later });
    expect(first.error).toBeNull();
    expect(first.data).toBeGreaterThanOrEqual(2);
    expect((await service.rpc('helpdesk_sla_sweep', { p_now: later })).data).toBe(0);
    const { data: breaches } = await admin.client.from('sla_breaches').select('target').eq('conversation_id', got.conversation_id).order('target');
    expect(breaches).toEqual([{ target: 'first_response' }, { target: 'resolution' }]);
    const { data: events } = await service.from('events').select('kind').eq('resource_id', got.conversation_id).eq('kind', 'sla_breached');
    expect(events).toHaveLength(2);
    const { data: jobs } = await service.from('jobs').select('payload').eq('subject_id', got.conversation_id).eq('kind', 'helpdesk.sla_breach_mail');
    expect(jobs).toHaveLength(2);
    const { data: to } = await service.rpc('sla_breach_recipients', { p_conversation_id: got.conversation_id });
    expect((to as { email: string }[]).map((r) => r.email)).toEqual([admin.email]);
    expect((await auditor.client.from('sla_breaches').select('target').eq('conversation_id', got.conversation_id)).data).toHaveLength(2);
    for (const who of [client, other]) {
      expect((await who.client.from('sla_breaches').select('target')).data).toEqual([]);
    }
    for (const who of [admin.client, anonClient(backend)]) {
      expect((await who.rpc('helpdesk_sla_sweep', { p_now: later })).error).not.toBeNull();
    }
  });

  it('asks for CSAT once per conversation: one link, one answer, no token hash for staff, nothing for outsiders', async () => {
    const got = await receive();
    await member.client.from('conversations').update({ status: 'resolved' }).eq('id', got.conversation_id);
    await member.client.from('conversations').update({ status: 'open' }).eq('id', got.conversation_id);
    await member.client.from('conversations').update({ status: 'resolved' }).eq('id', got.conversation_id);
    const { data: jobs } = await service.from('jobs').select('id').eq('subject_id', got.conversation_id).eq('kind', 'helpdesk.csat_request');
    expect(jobs).toHaveLength(1);
    const token = newToken();
    const mail = { to: 'customer@example.com', subject: 'How did we do?', text: `/csat/${token}` };
    const queue = (who: typeof service, p_token: string) => who.rpc('queue_csat_mail', { p_conversation_id: got.conversation_id, p_token, p_mail: mail });
    expect((await queue(admin.client, token)).error).not.toBeNull();
    expect((await queue(service, 'not a token')).error?.code).toBe('22023');
    expect((await queue(service, token)).data).toBe(true);
    // A retried job (the runner died after the commit): no second link, no second mail.
    expect((await queue(service, newToken())).data).toBe(false);
    const { data: mails } = await service.from('jobs').select('payload').eq('subject_id', got.conversation_id).eq('kind', 'mail.send');
    expect(mails).toEqual([{ payload: mail }]);
    expect((await service.from('csat_responses').select('sent_at').eq('conversation_id', got.conversation_id).single()).data?.sent_at).not.toBeNull();

    const anon = anonClient(backend);
    expect((await anon.rpc('open_csat_link', { p_token: token })).data).toMatchObject({ state: 'open', subject: expect.stringMatching(/^Case/) });
    expect((await anon.rpc('open_csat_link', { p_token: 'x'.repeat(43) })).data).toEqual({ state: 'not_found' });
    expect((await anon.rpc('answer_csat', { p_token: token, p_score: 9 })).error?.code).toBe('22023');
    const answered = await anon.rpc('answer_csat', { p_token: token, p_score: 4, p_comment: 'Quick\u0007 and kind' });
    expect(answered.data).toMatchObject({ state: 'answered', answered_now: true, score: 4 });
    const again = await anon.rpc('answer_csat', { p_token: token, p_score: 1 });
    expect(again.data).toMatchObject({ state: 'answered', score: 4 });
    expect(again.data.answered_now).toBeUndefined();

    const { data: stored } = await auditor.client.from('csat_responses').select('score, comment').eq('conversation_id', got.conversation_id);
    expect(stored).toEqual([{ score: 4, comment: 'Quick and kind' }]);
    expect((await admin.client.from('csat_responses').select('token_hash')).error).not.toBeNull();
    for (const who of [client, other]) {
      expect((await who.client.from('csat_responses').select('score')).data).toEqual([]);
    }
    expect((await anon.from('csat_responses').select('score')).data ?? []).toEqual([]);
  });

  it('tags conversations (filterable, validated) and merges a duplicate of the same contact', async () => {
    const a = await receive('dup@example.test');
    const b = await receive('dup@example.test');
    const c = await receive('someone-else@example.test');
    expect((await member.client.from('conversations').update({ tags: ['billing', 'vip'] }).eq('id', a.conversation_id)).error).toBeNull();
    expect((await member.client.from('conversations').update({ tags: ['Bad Tag!'] }).eq('id', b.conversation_id)).error).not.toBeNull();
    expect((await auditor.client.from('conversations').update({ tags: ['x'] }).eq('id', b.conversation_id).select('id')).data ?? []).toEqual([]);
    const { data: tagged } = await admin.client.from('conversations').select('id').contains('tags', ['vip']);
    expect(tagged).toEqual([{ id: a.conversation_id }]);

    for (const who of [auditor, client]) {
      expect((await who.client.rpc('merge_conversation', { p_source: a.conversation_id, p_target: b.conversation_id })).error?.code).toBe('42501');
    }
    expect((await other.client.rpc('merge_conversation', { p_source: a.conversation_id, p_target: b.conversation_id })).error?.code).toBe('P0002');
    expect((await member.client.rpc('merge_conversation', { p_source: a.conversation_id, p_target: c.conversation_id })).error?.code).toBe('22023');
    expect((await member.client.rpc('merge_conversation', { p_source: a.conversation_id, p_target: b.conversation_id })).error).toBeNull();
    const { data: merged } = await admin.client.from('conversations').select('status, merged_into_id').eq('id', a.conversation_id).single();
    expect(merged).toEqual({ status: 'resolved', merged_into_id: b.conversation_id });
    const { data: target } = await admin.client.from('conversations').select('tags').eq('id', b.conversation_id).single();
    expect(target!.tags).toEqual(['billing', 'vip']);
    const { count } = await admin.client.from('messages').select('id', { count: 'exact', head: true }).eq('conversation_id', b.conversation_id);
    expect(count).toBe(2);
    const { data: audit } = await admin.client.from('audit_logs').select('action').in('resource_id', [a.conversation_id, b.conversation_id]);
    expect(audit!.map((r) => r.action)).toEqual(expect.arrayContaining(['conversation_merged', 'conversation_merged_in']));
    // A merged conversation is not asked for CSAT, and cannot be merged again.
    expect((await service.from('jobs').select('id').eq('subject_id', a.conversation_id).eq('kind', 'helpdesk.csat_request')).data).toEqual([]);
    expect((await member.client.rpc('merge_conversation', { p_source: a.conversation_id, p_target: b.conversation_id })).error?.code).toBe('22023');
  });

  it('shows who is replying to staff of the account only; the SLA report counts what RLS lets the caller see', async () => {
    const got = await receive();
    expect((await member.client.rpc('mark_replying', { p_conversation_id: got.conversation_id })).error).toBeNull();
    expect((await member.client.rpc('mark_replying', { p_conversation_id: got.conversation_id })).error).toBeNull();
    for (const who of [auditor, client]) {
      expect((await who.client.rpc('mark_replying', { p_conversation_id: got.conversation_id })).error?.code).toBe('42501');
    }
    expect((await other.client.rpc('mark_replying', { p_conversation_id: got.conversation_id })).error?.code).toBe('P0002');
    expect((await admin.client.from('conversation_presence').select('user_id').eq('conversation_id', got.conversation_id)).data).toEqual([{ user_id: member.userId }]);
    for (const who of [client, other]) {
      expect((await who.client.from('conversation_presence').select('user_id')).data).toEqual([]);
    }

    const range = { p_from: '2000-01-01T00:00:00Z', p_to: '2100-01-01T00:00:00Z' };
    const { data: report, error } = await auditor.client.rpc('helpdesk_sla_report', range);
    expect(error).toBeNull();
    const rows = report as { conversations: number; csat_count: number; csat_average: number | null }[];
    expect(rows.reduce((sum, r) => sum + Number(r.conversations), 0)).toBeGreaterThan(3);
    expect(rows.reduce((sum, r) => sum + Number(r.csat_count), 0)).toBe(1);
    for (const who of [client, other]) {
      expect((await who.client.rpc('helpdesk_sla_report', range)).data).toEqual([]);
    }
  });
});
