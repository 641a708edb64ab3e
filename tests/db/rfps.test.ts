// The bids of /rfp in the database: the New RFP Response fields and their checks, the pipeline's statuses,
// the go/no-go decision with its reasons, the owner (a user of the same account), the audit rows the record
// page's timeline reads, the cards' totals per currency, and who may read and write.
// (search_rfps for every role: tests/db/list-search.test.ts; every role's access: tests/db/role-matrix.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const bid = (changes: Record<string, unknown> = {}) => ({
  title: 'Harbour logistics tender', company: 'Port of Oslo', contact_email: 'tenders@port.test', value: 25_000_000,
  deadline: day(10), proposal: 'Our proposal covers the full harbour operation.', ...changes,
});

describe('rfps on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let auditor: Member;
  let client: Member;
  let other: Member;

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'rfps-admin');
    member = await addMember(backend, admin, 'member', 'rfps-member');
    auditor = await addMember(backend, admin, 'auditor', 'rfps-auditor');
    client = await addMember(backend, admin, 'client', 'rfps-client');
    other = await signUpFreshAdmin(backend, 'rfps-other');
  });
  afterAll(async () => backend?.stop());

  it('creates a bid as Active, undecided, in USD, and writes an audit row for each moment the timeline shows', async () => {
    const { data: row, error } = await member.client.from('rfps').insert(bid()).select().single();
    expect(error).toBeNull();
    expect(row).toMatchObject({ status: 'Active', decision: null, currency: 'USD', account_id: admin.accountId, created_by: member.userId });
    const id = row!.id as string;
    expect((await member.client.from('rfps').update({ status: 'Submitted' }).eq('id', id)).error).toBeNull();
    expect((await member.client.from('rfps').update({ decision: 'go', decision_reasons: 'Known buyer' }).eq('id', id)).error).toBeNull();
    expect((await member.client.from('rfps').update({ title: 'Harbour tender', owner_id: admin.userId }).eq('id', id)).error).toBeNull();
    expect((await member.client.from('rfps').update({ status: 'Under Review' }).eq('id', id)).error).toBeNull();
    const { data: history } = await admin.client.rpc('record_history', { p_resource_type: 'rfp', p_resource_id: id });
    const actions = (history as { action: string }[]).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['rfp_created', 'rfp_submitted', 'rfp_decided', 'rfp_updated', 'rfp_under_review']));
    expect(actions).toHaveLength(5);
    expect((await admin.client.from('rfps').delete().eq('id', id)).error).toBeNull();
    const { data: audit } = await service.from('audit_logs').select('action').eq('resource_id', id);
    expect(audit!.map((entry) => entry.action)).toContain('rfp_deleted');
  });

  it('refuses what the checks refuse', async () => {
    for (const changes of [
      { title: '  ' }, { company: '' }, { contact_email: 'nobody' }, { value: -1 }, { proposal: ' ' },
      { proposal: 'x'.repeat(10_001) }, { additional_notes: 'x'.repeat(5001) }, { status: 'Pending' }, { decision: 'maybe' },
      { currency: 'XYZ' }, { currency: 'usd' }, { decision_reasons: 'x'.repeat(2001) },
    ]) {
      const { error } = await admin.client.from('rfps').insert(bid(changes));
      expect(error, JSON.stringify(changes).slice(0, 60)).not.toBeNull();
    }
  });

  it('takes an owner only from the account', async () => {
    expect((await admin.client.from('rfps').insert(bid({ owner_id: member.userId }))).error).toBeNull();
    expect((await admin.client.from('rfps').insert(bid({ owner_id: other.userId }))).error).not.toBeNull();
  });

  it('lets an auditor read but not write, and a client or another account nothing', async () => {
    const { data: row } = await admin.client.from('rfps').insert(bid({ title: 'Read only' })).select('id').single();
    expect((await auditor.client.from('rfps').select('id').eq('id', row!.id)).data).toHaveLength(1);
    expect((await auditor.client.from('rfps').insert(bid())).error).not.toBeNull();
    await auditor.client.from('rfps').update({ status: 'Won' }).eq('id', row!.id);
    expect((await admin.client.from('rfps').select('status').eq('id', row!.id).single()).data!.status).toBe('Active');
    expect((await client.client.from('rfps').select('id')).data).toEqual([]);
    expect((await other.client.from('rfps').select('id').eq('id', row!.id)).data).toEqual([]);
    expect((await client.client.rpc('search_rfps', { p_query: 'Read only' })).data).toEqual([]);
  });

  it('sums the cards per currency: open bids, due within 7 days, won and lost', async () => {
    const fresh = await signUpFreshAdmin(backend, 'rfps-totals');
    for (const changes of [
      { value: 100, deadline: day(3) }, { value: 200, deadline: day(20), status: 'Submitted' }, { value: 400, status: 'Won' },
      { value: 800, status: 'Lost' }, { value: 1600, status: 'Closed' }, { value: 50, currency: 'EUR', deadline: day(-2) },
    ]) {
      expect((await fresh.client.from('rfps').insert(bid(changes))).error).toBeNull();
    }
    const { data, error } = await fresh.client.rpc('rfp_totals', { p_today: day(0) });
    expect(error).toBeNull();
    expect(data).toEqual([
      { currency: 'EUR', open_count: 1, open_value: 50, due_this_week: 0, won_count: 0, lost_count: 0 },
      { currency: 'USD', open_count: 2, open_value: 300, due_this_week: 1, won_count: 1, lost_count: 1 },
    ]);
    expect((await client.client.rpc('rfp_totals', { p_today: day(0) })).data).toEqual([]);
  });
});
