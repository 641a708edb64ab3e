// The tender radar in the database (issue 38; decision 079): sources, saved searches and opportunities for
// every role; the feed job's functions (a source claimed once per hour, a fetch's outcome and its retry,
// notices stored once per source and notice id, an amendment noted); matching with full-text search, the
// search's filters, and the fit score with its reasons. (Every role's access to every table: role-matrix;
// another account: tenant-isolation.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const today = new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10) + 'T12:00:00.000Z';

const notice = (id: string, changes: Record<string, unknown> = {}) => ({
  sourceId: id, title: 'Cloud hosting and data centre services', buyer: 'City of Leeds', country: 'GB', cpv: ['72200000'],
  value: 50_000_000, currency: 'GBP', deadline: inDays(30), publishedAt: inDays(-1), documents: ['https://portal.test/doc.pdf'],
  url: `https://portal.test/notice/${id}`, raw: { ocid: id }, ...changes,
});

describe('the tender radar on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let auditor: Member;
  let client: Member;
  let other: Member;
  let sourceId: string;

  const ingest = async (notices: unknown[], source = sourceId) => {
    const { data, error } = await service.rpc('ingest_tender_notices', { p_source: source, p_notices: notices }).single();
    if (error) throw new Error(error.message);
    return data as { inserted: number; amended: number; unchanged: number };
  };
  const addSearch = async (who: Member, values: Record<string, unknown>) => {
    const { data, error } = await who.client.from('tender_searches').insert({ name: 'Search', ...values }).select('id').single();
    if (error) throw new Error(error.message);
    return data.id as string;
  };
  const matches = async (who: Member, search: string | null) => {
    const { data, error } = await who.client.rpc('radar_matches', { p_search: search, p_today: today });
    if (error) throw new Error(error.message);
    return data as { title: string; score: number; reasons: string[]; source_name: string }[];
  };

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'radar-admin');
    member = await addMember(backend, admin, 'member', 'radar-member');
    auditor = await addMember(backend, admin, 'auditor', 'radar-auditor');
    client = await addMember(backend, admin, 'client', 'radar-client');
    other = await signUpFreshAdmin(backend, 'radar-other');
    const { data, error } = await member.client.from('tender_sources')
      .insert({ name: 'Contracts Finder', url: 'https://feeds.test/ocds.json', format: 'ocds' }).select('id').single();
    if (error) throw new Error(error.message);
    sourceId = data.id;
  });
  afterAll(async () => backend?.stop());

  it('lets staff read and writers manage sources and searches; an auditor only reads; a client and another account see nothing', async () => {
    const search = await addSearch(member, { keywords: ['hosting'] });
    expect((await auditor.client.from('tender_sources').select('id')).data).toHaveLength(1);
    expect((await auditor.client.from('tender_searches').select('id')).data).toHaveLength(1);
    expect((await auditor.client.from('tender_sources').insert({ name: 'x', url: 'https://x.test/feed', format: 'rss' })).error).not.toBeNull();
    expect((await client.client.from('tender_sources').select('id')).data).toEqual([]);
    expect((await other.client.from('tender_searches').select('id')).data).toEqual([]);
    // The feed job's state is not a person's to write.
    expect((await admin.client.from('tender_sources').update({ etag: 'forged' }).eq('id', sourceId)).error).not.toBeNull();
    expect((await admin.client.from('tender_searches').update({ horizon_days: 30 }).eq('id', search)).error).toBeNull();
    const { data: audit } = await service.from('audit_logs').select('action').eq('resource_id', search);
    expect(audit!.map((a) => a.action).sort()).toEqual(['tender_search_created', 'tender_search_updated']);
    expect((await admin.client.from('tender_searches').delete().eq('id', search)).error).toBeNull();
  });

  it('refuses what the checks refuse', async () => {
    for (const bad of [
      { name: ' ', url: 'https://x.test/feed', format: 'rss' }, { name: 'x', url: 'ftp://x.test/feed', format: 'rss' },
      { name: 'x', url: 'https://x.test/feed', format: 'csv' },
    ]) expect((await admin.client.from('tender_sources').insert(bad)).error, JSON.stringify(bad)).not.toBeNull();
    for (const bad of [
      { cpv_codes: ['7200'] }, { countries: ['gb'] }, { countries: ['GBR'] }, { min_value: 100 }, { horizon_days: 0 },
      { keywords: Array.from({ length: 21 }, (_, i) => `k${i}`) },
    ]) expect((await admin.client.from('tender_searches').insert({ name: 'Bad', ...bad })).error, JSON.stringify(bad)).not.toBeNull();
  });

  it('claims a due source once per hour, and retries a failing one later while keeping its error', async () => {
    const now = new Date(Date.now() + 3_600_000 * 24).toISOString();
    const first = await service.rpc('claim_tender_sources', { p_now: now, p_limit: 10 });
    expect((first.data as { id: string }[]).map((s) => s.id)).toContain(sourceId);
    const again = await service.rpc('claim_tender_sources', { p_now: now, p_limit: 10 });
    expect((again.data as { id: string }[]).map((s) => s.id)).not.toContain(sourceId);
    expect((await admin.client.rpc('claim_tender_sources', { p_now: now, p_limit: 10 })).error).not.toBeNull();
    await service.rpc('record_tender_fetch', { p_source: sourceId, p_now: now, p_etag: null, p_last_modified: null, p_error: 'The feed answered 500' });
    const { data: failed } = await service.from('tender_sources').select('last_error, failures, next_fetch_at').eq('id', sourceId).single();
    expect(failed).toMatchObject({ last_error: 'The feed answered 500', failures: 1 });
    expect(new Date(failed!.next_fetch_at).getTime() - new Date(now).getTime()).toBe(15 * 60_000);
    await service.rpc('record_tender_fetch', { p_source: sourceId, p_now: now, p_etag: '"v1"', p_last_modified: null, p_error: null });
    const { data: ok } = await service.from('tender_sources').select('last_error, failures, etag, next_fetch_at').eq('id', sourceId).single();
    expect(ok).toMatchObject({ last_error: null, failures: 0, etag: '"v1"' });
    expect(new Date(ok!.next_fetch_at).getTime() - new Date(now).getTime()).toBe(3_600_000);
    // A new address starts over: no validators, fetched soon.
    expect((await admin.client.from('tender_sources').update({ url: 'https://feeds.test/ocds2.json' }).eq('id', sourceId)).error).toBeNull();
    const { data: moved } = await service.from('tender_sources').select('etag, next_fetch_at').eq('id', sourceId).single();
    expect(moved!.etag).toBeNull();
    expect(new Date(moved!.next_fetch_at).getTime()).toBeLessThan(Date.now() + 60_000);
  });

  it('stores each notice once per source, notes what an amendment changed, and audits it', async () => {
    expect(await ingest([notice('ocds-a-1'), notice('ocds-a-2', { title: 'Road resurfacing', cpv: ['45233142'] })]))
      .toEqual({ inserted: 2, amended: 0, unchanged: 0 });
    expect(await ingest([notice('ocds-a-1')])).toEqual({ inserted: 0, amended: 0, unchanged: 1 });
    expect(await ingest([notice('ocds-a-1', { deadline: inDays(40), value: 60_000_000 })])).toEqual({ inserted: 0, amended: 1, unchanged: 0 });
    const { data: rows } = await admin.client.from('opportunities').select('id, notice_id, change_note, raw').eq('notice_id', 'ocds-a-1');
    expect(rows).toHaveLength(1);
    expect(rows![0].change_note).toBe(
      `Deadline moved from ${inDays(30).slice(0, 10)} to ${inDays(40).slice(0, 10)}; value changed from GBP 500,000.00 to GBP 600,000.00`);
    expect(rows![0].raw).toEqual({ ocid: 'ocds-a-1' });
    const { data: audit } = await service.from('audit_logs').select('action').eq('resource_id', rows![0].id);
    expect(audit!.map((a) => a.action)).toEqual(['opportunity_amended']);
    // Notices without an id or title are skipped; the account sees only its own.
    expect(await ingest([{ title: 'No id' }, { sourceId: 'x' }])).toEqual({ inserted: 0, amended: 0, unchanged: 0 });
    expect((await other.client.from('opportunities').select('id')).data).toEqual([]);
    expect((await client.client.from('opportunities').select('id')).data).toEqual([]);
    // Nobody but the job writes notices.
    expect((await admin.client.rpc('ingest_tender_notices', { p_source: sourceId, p_notices: [notice('forged')] })).error).not.toBeNull();
    expect((await admin.client.from('opportunities').insert({ account_id: admin.accountId, source_id: sourceId, notice_id: 'y', title: 'y' })).error).not.toBeNull();
    expect((await admin.client.from('opportunities').update({ title: 'Changed' }).eq('id', rows![0].id)).error).not.toBeNull();
  });

  it('matches by keywords and CPV within the filters, with a fit score and its reasons', async () => {
    await ingest([
      notice('m-1', { title: 'Managed cloud hosting platform', cpv: ['72200000'] }),
      notice('m-2', { title: 'Cloud backup service', cpv: ['48000000'], value: 5_000_000 }),
      notice('m-3', { title: 'Cloud hosting in France', country: 'FR', currency: 'EUR' }),
      notice('m-4', { title: 'Cloud hosting, closed', deadline: inDays(-2) }),
      notice('m-5', { title: 'Cloud hosting, far off', deadline: inDays(400) }),
      notice('m-6', { title: 'Hosting urgent', deadline: inDays(3) }),
      notice('m-7', { title: 'Catering', cpv: ['55520000'] }),
    ]);
    const search = await addSearch(member, {
      name: 'Hosting in the UK', keywords: ['cloud', 'hosting', 'managed', 'kubernetes'], cpv_codes: ['72000000'], countries: ['GB'],
      min_value: 10_000_000, min_currency: 'GBP', horizon_days: 90,
    });
    const found = await matches(auditor, search);
    const byTitle = Object.fromEntries(found.map((m) => [m.title, m]));
    // Another country, a past deadline, one beyond the horizon, a value under the minimum, no keyword or CPV: out.
    expect(Object.keys(byTitle)).not.toEqual(expect.arrayContaining(['Cloud hosting in France']));
    for (const out of ['Cloud hosting in France', 'Cloud hosting, closed', 'Cloud hosting, far off', 'Cloud backup service', 'Catering', 'Road resurfacing']) {
      expect(byTitle[out], out).toBeUndefined();
    }
    expect(byTitle['Managed cloud hosting platform']).toMatchObject({
      source_name: 'Contracts Finder',
      reasons: ['keywords: 3 of 4', 'CPV 72000000 matches', 'value above minimum', 'deadline in 30 days'],
      // (50 * 3/4 + 30 + 10 + 10) of 100
      score: 88,
    });
    expect(byTitle['Hosting urgent'].reasons).toEqual(['keywords: 1 of 4', 'CPV 72000000 matches', 'value above minimum', 'deadline in under 7 days']);
    expect(byTitle['Hosting urgent'].score).toBe(53);
    expect(found[0].title).toBe('Managed cloud hosting platform');
    // Dismissed: gone from the radar, audited with its reason.
    const { data: m1 } = await admin.client.from('opportunities').select('id').eq('notice_id', 'm-1').single();
    expect((await member.client.from('opportunities').update({ dismissed: true, dismiss_reason: 'Too small' }).eq('id', m1!.id)).error).toBeNull();
    expect((await matches(member, search)).map((m) => m.title)).not.toContain('Managed cloud hosting platform');
    const { data: audit } = await service.from('audit_logs').select('action, new_values').eq('resource_id', m1!.id);
    expect(audit!.map((a) => a.action)).toEqual(['opportunity_dismissed']);
    // An auditor cannot dismiss; a client and another account match nothing.
    await auditor.client.from('opportunities').update({ dismissed: true }).eq('notice_id', 'm-6');
    expect((await admin.client.from('opportunities').select('dismissed').eq('notice_id', 'm-6').single()).data!.dismissed).toBe(false);
    expect(await matches(client, search)).toEqual([]);
    expect(await matches(other, search)).toEqual([]);
  });

  it('queues each deadline reminder once, 7, 3 and 1 days before, to the owner or else the creator', async () => {
    const day = (n: number) => inDays(n).slice(0, 10);
    const bid = (title: string, deadline: string, changes: Record<string, unknown> = {}) =>
      member.client.from('rfps').insert({ title, company: 'Buyer', contact_email: 'b@buyer.test', value: 1, deadline, proposal: 'P', ...changes }).select('id').single();
    const ids = await Promise.all([
      bid('Seven', day(7)), bid('Three', day(3), { owner_id: admin.userId }), bid('One', day(1)), bid('Five', day(5)),
      bid('Submitted one', day(1), { status: 'Submitted' }),
    ]);
    const first = await service.rpc('rfp_deadline_reminders', { p_today: today });
    expect(first.error).toBeNull();
    const queued = first.data as { rfp_id: string; days: number; recipient: string }[];
    expect(queued.map((r) => r.days).sort()).toEqual([1, 3, 7]);
    expect(queued.find((r) => r.days === 3)!.recipient).toBe(admin.email);
    expect(queued.find((r) => r.days === 7)!.recipient).toBe(member.email);
    // Once: a second run (the next minute) queues nothing more.
    expect((await service.rpc('rfp_deadline_reminders', { p_today: today })).data).toEqual([]);
    const { data: jobs } = await service.from('jobs').select('kind, payload').like('idempotency_key', 'rfp_reminder:%');
    expect(jobs).toHaveLength(3);
    expect(jobs!.map((j) => (j.payload as { subject: string }).subject).sort()).toEqual(
      ['RFP deadline in 1 day: One', 'RFP deadline in 3 days: Three', 'RFP deadline in 7 days: Seven']);
    expect(jobs!.every((j) => j.kind === 'mail.send')).toBe(true);
    expect((await admin.client.rpc('rfp_deadline_reminders', { p_today: today })).error).not.toBeNull();
    for (const { data } of ids) await admin.client.from('rfps').delete().eq('id', data!.id);
  });

  it('pursues an opportunity into a bid of the same account only', async () => {
    const { data: rfp } = await member.client.from('rfps').insert({
      title: 'Road resurfacing', company: 'City of Leeds', contact_email: 'bids@leeds.test', value: 100, deadline: inDays(20).slice(0, 10), proposal: 'P',
    }).select('id').single();
    const { data: opp } = await admin.client.from('opportunities').select('id').eq('notice_id', 'ocds-a-2').single();
    expect((await member.client.from('opportunities').update({ pursued_rfp_id: rfp!.id }).eq('id', opp!.id)).error).toBeNull();
    const { data: foreign } = await other.client.from('rfps').insert({
      title: 'Theirs', company: 'X', contact_email: 'x@x.test', value: 1, deadline: inDays(20).slice(0, 10), proposal: 'P',
    }).select('id').single();
    expect((await member.client.from('opportunities').update({ pursued_rfp_id: foreign!.id }).eq('id', opp!.id)).error).not.toBeNull();
    // With no search, the account's first search by name decides.
    expect(Array.isArray(await matches(admin, null))).toBe(true);
  });
});
