// Mails from the tender radar (issue 38; decision 092): queue_radar_alerts queues one mail for the notices
// of a search that score at least its alert score (80 by default), to the search's owner; a second call,
// or two at once, queue nothing more. queue_radar_digests waits for 07:00 UTC, then queues one digest per
// search listing its other new matches, once a day; a search whose owner left mails the account's admins.
// Only the service role may call either. The radar's GIN indexes keep no pending list (decision 092). (Through the Worker and its runner: tests/worker/rfp-radar-mails.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();
const today = (hour: number) => `${new Date().toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:30:00Z`;

describe('the radar\'s alert mails and daily digests', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let sourceId: string;
  let searchId: string;
  let memberSearchId: string;
  const mails = async (subject: string) =>
    (await service.from('jobs').select('payload, idempotency_key').eq('kind', 'mail.send').eq('subject_id', subject).order('created_at')).data!
      .map((j) => j.payload as { to: string; subject: string; text: string });

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'radar-mail-admin');
    member = await addMember(backend, admin, 'member', 'radar-mail-member');
    const source = await admin.client.from('tender_sources')
      .insert({ name: 'Contracts Finder', url: 'https://www.contractsfinder.service.gov.uk/feed', format: 'ocds' }).select('id').single();
    sourceId = source.data!.id;
    const search = await admin.client.from('tender_searches')
      .insert({ name: 'Hosting', keywords: ['cloud hosting', 'kubernetes'], cpv_codes: ['72000000'] }).select('id, alert_score').single();
    expect(search.data!.alert_score).toBe(80);
    searchId = search.data!.id;
    const other = await member.client.from('tender_searches').insert({ name: 'Catering', keywords: ['catering'] }).select('id').single();
    memberSearchId = other.data!.id;
    const notice = (id: string, title: string, cpv: string) => ({
      sourceId: id, title, buyer: 'Leeds City Council', country: 'GB', cpv: [cpv], deadline: inDays(30), url: `https://cf.example/${id}`, raw: {},
    });
    const { error } = await service.rpc('ingest_tender_notices', {
      p_source: sourceId,
      p_notices: [notice('n-1', 'Cloud hosting on Kubernetes', '72200000'), notice('n-2', 'Cloud hosting archive', '55520000'),
        notice('n-3', 'School catering', '55520000')],
    });
    expect(error).toBeNull();
  }, 120_000);
  afterAll(async () => backend?.stop());

  it('mails a high score at once to the search\'s owner, once, even when two runners ask together', async () => {
    const [a, b] = await Promise.all([
      service.rpc('queue_radar_alerts', { p_account: admin.accountId, p_now: new Date().toISOString() }),
      service.rpc('queue_radar_alerts', { p_account: admin.accountId, p_now: new Date().toISOString() }),
    ]);
    expect(a.error ?? b.error).toBeNull();
    const queued = [...a.data!, ...b.data!];
    expect(queued.filter((q) => q.search_id === searchId)).toEqual([{ search_id: searchId, notices: 1 }]);
    expect(queued).toHaveLength(2);
    const sent = await mails(searchId);
    expect(sent).toHaveLength(1);
    expect(sent[0].to).toBe(admin.email);
    expect(sent[0].subject).toBe('Tender match for "Hosting": Cloud hosting on Kubernetes');
    expect(sent[0].text).toContain('Fit 100/100: keywords: 2 of 2; CPV 72000000 matches; deadline in');
    expect(sent[0].text).not.toContain('archive');
    // The catering search's best scores 100 too (its one keyword and the deadline), so its owner, the member, has one.
    expect((await mails(memberSearchId)).map((m) => m.to)).toEqual([member.email]);
    const again = await service.rpc('queue_radar_alerts', { p_account: admin.accountId, p_now: new Date().toISOString() });
    expect(again.data).toEqual([]);
    expect(await mails(searchId)).toHaveLength(1);
  });

  it('sends each search one digest a day from 07:00 UTC with its other new matches, and the admins when its owner left', async () => {
    expect((await service.rpc('queue_radar_digests', { p_now: today(6) })).data).toEqual([]);
    await service.from('users').update({ is_active: false }).eq('id', member.userId);
    const { data, error } = await service.rpc('queue_radar_digests', { p_now: today(8) });
    expect(error).toBeNull();
    expect(data).toEqual([{ search_id: searchId, notices: 1 }]);
    const sent = await mails(searchId);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatchObject({ to: admin.email, subject: 'Tender radar digest for "Hosting": 1 new match' });
    expect(sent[1].text).toContain('- Cloud hosting archive (Leeds City Council)');
    expect(sent[1].text).not.toContain('Kubernetes');
    // A new match later that day waits for tomorrow's digest; the search's second digest today sends nothing.
    await service.rpc('ingest_tender_notices', {
      p_source: sourceId, p_notices: [{ sourceId: 'n-4', title: 'Kubernetes support', cpv: ['48000000'], deadline: inDays(40), raw: {} }],
    });
    expect((await service.rpc('queue_radar_digests', { p_now: today(9) })).data).toEqual([]);
    const tomorrow = new Date(Date.parse(today(8)) + 86_400_000).toISOString();
    expect((await service.rpc('queue_radar_digests', { p_now: tomorrow })).data).toEqual([{ search_id: searchId, notices: 1 }]);
    // The member's search (nothing new for it) mails no one; had it, its owner left: the admins.
    const { data: recipients } = await service.rpc('queue_radar_alerts', { p_account: admin.accountId, p_now: tomorrow });
    expect(recipients).toEqual([]);
  });

  it('reads the radar\'s GIN indexes without a pending list (bench/rfp/radar.ts: 410 pages for 21 rows with one)', async () => {
    const { rows } = await backend.db.query<{ relname: string; reloptions: string[] | null }>(
      `select c.relname, c.reloptions from pg_catalog.pg_class c
        where c.relname in ('opportunities_search_idx', 'opportunities_cpv_groups_idx', 'opportunities_cpv_codes_idx') order by c.relname`);
    expect(rows.map((r) => [r.relname, r.reloptions])).toEqual([
      ['opportunities_cpv_codes_idx', ['fastupdate=off']], ['opportunities_cpv_groups_idx', ['fastupdate=off']],
      ['opportunities_search_idx', ['fastupdate=off']],
    ]);
  });

  it('is the runner\'s: no one signed in may queue them', async () => {
    const alerts = await admin.client.rpc('queue_radar_alerts', { p_account: admin.accountId, p_now: new Date().toISOString() });
    expect(alerts.error?.message).toMatch(/permission denied/);
    const digests = await member.client.rpc('queue_radar_digests', { p_now: today(8) });
    expect(digests.error?.message).toMatch(/permission denied/);
  });
});
