// Compliance (issue 37, decision 064) in the database: recurrence (month ends,
// leap years, custom intervals), occurrences for the current and next year, a
// review closing its occurrence, reviews and evidence locked for every role
// (the owner of the tables too), versions of evidence, the refusals of a
// review's date, auditors' writes refused by every path, the daily job's
// reminders once, and the trail in the audit rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient as anonOf, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const iso = (d: Date) => d.toISOString().slice(0, 10);
const today = () => iso(new Date());
const daysFromNow = (n: number) => iso(new Date(Date.now() + n * 86_400_000));
const thisYear = new Date().getUTCFullYear();

type Item = { id: string; status: string; next_review_date: string; created_at: string };
type Review = { id: string; occurrence_id: string | null; outcome: string };

describe('compliance on PGlite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let admin: Member;
  let member: Member;
  let auditor: Member;
  let client: Member;
  let other: Member;

  const item = async (changes: Record<string, unknown> = {}, who: Member = member): Promise<Item> => {
    const { data, error } = await who.client.from('compliance_items').insert({
      account_id: who.accountId, title: `Access review ${randomUUID().slice(0, 6)}`, responsible_team: 'IT Security',
      description: 'Quarterly access review', first_review_date: daysFromNow(10), frequency: 'quarterly', ...changes,
    }).select('*').single<Item>();
    if (error) throw new Error(error.message);
    return data;
  };
  const item_ = (changes: Record<string, unknown> = {}) => item(changes);
  const occurrences = async (id: string) =>
    (await service.from('compliance_occurrences').select('due_on, status').eq('item_id', id).order('due_on')).data ?? [];
  const review = (who: Member, id: string, args: Record<string, unknown> = {}) =>
    who.client.rpc('record_compliance_review', { p_item_id: id, p_reviewed_on: today(), p_outcome: 'Compliant', ...args }).single<Review>();
  const evidenceRow = (who: Member, itemId: string, title = 'Access list') => {
    const seed = randomUUID();
    return {
      account_id: who.accountId, item_id: itemId, title, file_path: `${who.accountId}/compliance/${seed}/list.pdf`, file_name: 'list.pdf',
      file_size: 100, mime_type: 'application/pdf', sha256: createHash('sha256').update(seed).digest('hex'), effective_on: today(),
    };
  };

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    admin = await signUpFreshAdmin(backend, 'compliance-admin');
    member = await addMember(backend, admin, 'member', 'compliance-member');
    auditor = await addMember(backend, admin, 'auditor', 'compliance-auditor');
    client = await addMember(backend, admin, 'client', 'compliance-client');
    other = await signUpFreshAdmin(backend, 'compliance-other');
  });
  afterAll(async () => backend?.stop());

  it('counts each due date from the first, across month ends and leap years', async () => {
    const { rows } = await backend.db.query<{ d: string }>(
      `select to_char(private.compliance_due_date($1::date, $2, n), 'YYYY-MM-DD') as d from generate_series(0, 4) n`, ['2027-01-31', 1]);
    expect(rows.map((r) => r.d)).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31']);
    const leap = await backend.db.query<{ d: string }>(
      `select to_char(private.compliance_due_date('2028-02-29'::date, 12, n), 'YYYY-MM-DD') as d from generate_series(0, 4) n`);
    expect(leap.rows.map((r) => r.d)).toEqual(['2028-02-29', '2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29']);
    const quarters = await backend.db.query<{ d: string }>(
      `select to_char(private.compliance_due_date('2028-11-30'::date, 3, n), 'YYYY-MM-DD') as d from generate_series(0, 2) n`);
    expect(quarters.rows.map((r) => r.d)).toEqual(['2028-11-30', '2029-02-28', '2029-05-30']);
  });

  it('generates the occurrences of the current and the next year for each frequency', async () => {
    const first = `${thisYear + 1}-01-31`;
    const end = `${thisYear + 1}-12-31`;
    const made: Record<string, string> = {};
    for (const [frequency, interval, count] of [['monthly', null, 12], ['quarterly', null, 4], ['semiannual', null, 2], ['annual', null, 1], ['custom', 2, 6]] as const) {
      const created = await item({ first_review_date: first, frequency, interval_months: interval });
      made[frequency] = created.id;
      const dates = (await occurrences(created.id)).map((o) => o.due_on);
      // Up to the end of next year, plus the first one after it (so one always stands ready).
      expect(dates.filter((d) => d <= end), frequency).toHaveLength(count);
      expect(dates[0]).toBe(first);
      expect(created.next_review_date).toBe(first);
      expect(created.status).toBe('In Progress');
    }
    expect((await occurrences(made.monthly)).slice(0, 3).map((o) => o.due_on)).toEqual([first, `${thisYear + 1}-02-${(thisYear + 1) % 4 === 0 ? 29 : 28}`, `${thisYear + 1}-03-31`]);
  });

  it('refuses a custom frequency without an interval, and control characters in names', async () => {
    await expect(item({ frequency: 'custom' })).rejects.toThrow();
    await expect(item({ title: 'Bad\u0007title' })).rejects.toThrow();
    await expect(item({ responsible_team: 'Team\u0000' })).rejects.toThrow();
  });

  it('closes the due occurrence with a review, leaves the next one ready, and takes the outcome as the status', async () => {
    const created = await item({ first_review_date: today() });
    const { data: items } = await service.from('compliance_items').select('status').eq('id', created.id).single();
    expect(items!.status).toBe('Action Required');
    const { data: done, error } = await review(member, created.id, { p_notes: 'All accounts checked' });
    expect(error).toBeNull();
    const occ = await occurrences(created.id);
    expect(occ[0]).toMatchObject({ due_on: today(), status: 'done' });
    expect(occ[1].status).toBe('open');
    const after = (await service.from('compliance_items').select('*').eq('id', created.id).single()).data!;
    expect(after).toMatchObject({ status: 'Compliant', next_review_date: occ[1].due_on });
    expect(done!.occurrence_id).not.toBeNull();
    const nonCompliant = await review(member, created.id, { p_outcome: 'Non-Compliant' });
    expect(nonCompliant.error).toBeNull();
    expect((await service.from('compliance_items').select('status').eq('id', created.id).single()).data!.status).toBe('Non-Compliant');
  });

  it('refuses a review in the future, before the item existed, or with no outcome', async () => {
    const created = await item();
    expect((await review(member, created.id, { p_reviewed_on: daysFromNow(1) })).error?.message).toBe('The review date cannot be in the future');
    expect((await review(member, created.id, { p_reviewed_on: daysFromNow(-400) })).error?.message).toBe('The review date cannot be before the item existed');
    expect((await review(member, created.id, { p_outcome: 'Fine' })).error?.message).toBe('Choose the outcome');
    expect((await review(other, created.id)).error?.message).toBe('Compliance item not found');
  });

  it('locks a review once saved: no role, not even the owner of the table, changes or deletes it; a new one supersedes it', async () => {
    const created = await item({ first_review_date: today() });
    const { data: first } = await review(member, created.id, { p_notes: 'First look' });
    for (const who of [admin, member, auditor, client, other]) {
      await who.client.from('compliance_reviews').update({ notes: 'Changed' }).eq('id', first!.id);
      await who.client.from('compliance_reviews').delete().eq('id', first!.id);
    }
    expect((await service.from('compliance_reviews').update({ notes: 'Changed' }).eq('id', first!.id)).error?.message).toMatch(/locked/);
    expect((await service.from('compliance_reviews').delete().eq('id', first!.id)).error?.message).toMatch(/locked/);
    await expect(backend.db.query(`update public.compliance_reviews set notes = 'x' where id = $1`, [first!.id])).rejects.toThrow(/locked/);
    await expect(backend.db.query(`delete from public.compliance_reviews where id = $1`, [first!.id])).rejects.toThrow(/locked/);
    expect((await service.from('compliance_reviews').select('notes').eq('id', first!.id).single()).data!.notes).toBe('First look');

    const { data: second, error } = await review(member, created.id, { p_notes: 'Corrected', p_supersedes: first!.id, p_outcome: 'Non-Compliant' });
    expect(error).toBeNull();
    expect(second!.occurrence_id).toBeNull();
    expect((await review(member, created.id, { p_supersedes: first!.id })).error?.message).toBe('That review is already superseded');
    expect((await service.from('compliance_reviews').select('id').eq('item_id', created.id)).data).toHaveLength(2);
    // A reviewed item is history: not deleted by its writers.
    const deleted = await admin.client.from('compliance_items').delete().eq('id', created.id).select('id');
    expect(deleted.data ?? []).toEqual([]);
  });

  it('keeps every version of evidence, locked, and refuses forbidden types', async () => {
    const created = await item();
    const v1 = await member.client.from('evidence').insert(evidenceRow(member, created.id)).select('*').single();
    const v2 = await member.client.from('evidence').insert({ ...evidenceRow(member, created.id), expires_on: daysFromNow(30) }).select('*').single();
    expect(v1.error).toBeNull();
    expect([v1.data!.version, v2.data!.version]).toEqual([1, 2]);
    expect((await service.from('evidence').update({ title: 'x' }).eq('id', v1.data!.id)).error?.message).toMatch(/locked/);
    expect((await service.from('evidence').delete().eq('id', v1.data!.id)).error?.message).toMatch(/locked/);
    const html = await member.client.from('evidence').insert({ ...evidenceRow(member, created.id), mime_type: 'text/html' }).select('id');
    expect(html.error).not.toBeNull();
    const big = await member.client.from('evidence').insert({ ...evidenceRow(member, created.id), file_size: 20_000_000 }).select('id');
    expect(big.error).not.toBeNull();
    const elsewhere = await member.client.from('evidence').insert({ ...evidenceRow(member, created.id), file_path: `${other.accountId}/compliance/x/list.pdf` }).select('id');
    expect(elsewhere.error).not.toBeNull();
  });

  it('changes the schedule: open reviews due regenerated, past reviews untouched; the change in the trail; the auditor refused', async () => {
    const created = await item({ first_review_date: today(), frequency: 'quarterly' });
    const { data: done } = await review(member, created.id);
    const closed = (await occurrences(created.id)).filter((o) => o.status === 'done');
    expect(closed).toEqual([{ due_on: today(), status: 'done' }]);
    const changed = await member.client.from('compliance_items').update({ frequency: 'monthly' }).eq('id', created.id).select('id');
    expect(changed.error).toBeNull();
    const after = await occurrences(created.id);
    // The reviewed occurrence stays, linked to its review; the open ones are monthly now, all after it.
    expect(after.filter((o) => o.status === 'done')).toEqual(closed);
    const open = after.filter((o) => o.status === 'open').map((o) => o.due_on);
    expect(open[0] > today()).toBe(true);
    expect(open.length).toBeGreaterThanOrEqual(12);
    const month = (d: string) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7));
    expect(month(open[1]) - month(open[0])).toBe(1);
    const { data: reviewRow } = await service.from('compliance_reviews').select('occurrence_id').eq('id', done!.id).single();
    expect(reviewRow!.occurrence_id).toBe(done!.occurrence_id);
    const itemAfter = (await service.from('compliance_items').select('next_review_date, status').eq('id', created.id).single()).data!;
    expect(itemAfter).toMatchObject({ next_review_date: open[0], status: 'Compliant' });
    // A new first date, nothing reviewed yet: the occurrences start from it.
    const fresh = await item({ first_review_date: daysFromNow(10), frequency: 'annual' });
    expect((await member.client.from('compliance_items').update({ first_review_date: daysFromNow(40), frequency: 'custom', interval_months: 2 }).eq('id', fresh.id)).error).toBeNull();
    const freshOpen = (await occurrences(fresh.id)).map((o) => o.due_on);
    expect(freshOpen[0]).toBe(daysFromNow(40));
    expect(month(freshOpen[1]) - month(freshOpen[0])).toBe(2);
    const trail = await service.from('audit_logs').select('action, new_values').eq('resource_id', fresh.id).eq('action', 'compliance_item_updated');
    expect((trail.data ?? []).some((row) => (row.new_values as Record<string, unknown>).frequency === 'custom')).toBe(true);
    // The auditor's schedule change is refused (no row), the schedule unchanged.
    expect((await auditor.client.from('compliance_items').update({ frequency: 'monthly' }).eq('id', fresh.id).select('id')).data ?? []).toEqual([]);
    expect((await service.from('compliance_items').select('frequency').eq('id', fresh.id).single()).data!.frequency).toBe('custom');
  });

  it('lets the auditor read everything and refuses each of its writes; clients and other accounts see nothing', async () => {
    const created = await item({ first_review_date: today() });
    await review(member, created.id);
    await member.client.from('evidence').insert(evidenceRow(member, created.id));
    for (const table of ['compliance_items', 'compliance_occurrences', 'compliance_reviews', 'evidence']) {
      const seen = await auditor.client.from(table).select('id').eq(table === 'compliance_items' ? 'id' : 'item_id', created.id);
      expect(seen.data?.length, table).toBeGreaterThan(0);
      for (const who of [client, other]) {
        expect((await who.client.from(table).select('id')).data ?? [], `${table} read by an outsider`).toEqual([]);
      }
    }
    expect((await review(auditor, created.id)).error?.code).toBe('42501');
    expect((await auditor.client.from('compliance_items').update({ title: 'Auditor' }).eq('id', created.id).select('id')).data ?? []).toEqual([]);
    expect((await auditor.client.from('evidence').insert(evidenceRow(auditor, created.id)).select('id')).error).not.toBeNull();
    const upload = await auditor.client.storage.from('evidence').upload(`${auditor.accountId}/${randomUUID()}/a.txt`, new Blob(['x'], { type: 'text/plain' }));
    expect(upload.error).not.toBeNull();
    expect((await auditor.client.rpc('compliance_daily')).error).not.toBeNull();
  });

  it('keeps compliance evidence files as uploaded: writers add them, no role overwrites or removes one, outsiders do not reach them', async () => {
    const created = await item({ first_review_date: today() });
    const file = (text: string) => new Blob([text], { type: 'text/plain' });
    const bucket = (who: SupabaseClient) => who.storage.from('evidence');
    const path = `${member.accountId}/compliance/${randomUUID()}/list.txt`;
    expect((await bucket(member.client).upload(path, file('original'))).error).toBeNull();
    expect((await member.client.from('evidence').insert({ ...evidenceRow(member, created.id), file_path: path, mime_type: 'text/plain' })).error).toBeNull();
    const content = async () => (await (await bucket(service).download(path)).data?.text()) ?? null;
    const supplier = await addMember(backend, admin, 'supplier', 'compliance-supplier');
    const anonClient = anonOf(backend);
    const roles: [string, SupabaseClient][] = [
      ['admin', admin.client], ['member', member.client], ['auditor', auditor.client], ['client', client.client],
      ['supplier', supplier.client], ['another account', other.client], ['anon', anonClient], ['service role', service],
    ];
    for (const [role, who] of roles) {
      // Overwrite (upsert), update, move and remove: each refused or without effect.
      await bucket(who).upload(path, file(`overwritten by ${role}`), { upsert: true });
      await bucket(who).update(path, file(`updated by ${role}`));
      await bucket(who).move(path, `${member.accountId}/compliance/${randomUUID()}/moved.txt`);
      const removed = await bucket(who).remove([path]);
      expect(removed.data ?? [], `${role} removed it`).toEqual([]);
      expect(await content(), `${role} changed it`).toBe('original');
    }
    // Writers add new files under the prefix; the auditor, outsiders and anon cannot; only staff read them.
    for (const [role, who, may] of [['admin', admin.client, true], ['auditor', auditor.client, false], ['client', client.client, false],
      ['supplier', supplier.client, false], ['anon', anonClient, false]] as const) {
      const added = await bucket(who).upload(`${member.accountId}/compliance/${randomUUID()}/new.txt`, file(role));
      expect(added.error === null, `${role} adds`).toBe(may);
    }
    expect((await bucket(auditor.client).download(path)).error).toBeNull();
    for (const who of [client.client, supplier.client, other.client, anonClient]) expect((await bucket(who).download(path)).error).not.toBeNull();
    // An upload no evidence row records (its row refused) is cleaned up by the writer who made it.
    const orphan = `${member.accountId}/compliance/${randomUUID()}/orphan.txt`;
    expect((await bucket(member.client).upload(orphan, file('orphan'))).error).toBeNull();
    expect((await bucket(member.client).remove([orphan])).data).toHaveLength(1);
    // Quote signatures and other evidence outside the prefix keep the shared rules (writers remove their own).
    const signature = `${member.accountId}/${randomUUID()}/signature.json`;
    expect((await bucket(member.client).upload(signature, new Blob(['{}'], { type: 'application/json' }))).error).toBeNull();
    expect((await bucket(member.client).remove([signature])).data).toHaveLength(1);
    // New evidence rows must point under the prefix.
    const outside = await member.client.from('evidence').insert({ ...evidenceRow(member, created.id), file_path: `${member.accountId}/${randomUUID()}/x.pdf` });
    expect(outside.error?.code).toBe('23514');
  });

  it('writes the trail in the audit rows: created, reviewed, evidence added', async () => {
    const created = await item({ first_review_date: today() });
    await review(member, created.id);
    await member.client.from('evidence').insert(evidenceRow(member, created.id));
    const { data } = await service.from('audit_logs').select('action').eq('resource_id', created.id).order('created_at');
    const actions = (data ?? []).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['compliance_item_created', 'compliance_review_recorded', 'compliance_evidence_added']));
  });

  it('runs the daily job: due items Action Required with review_due, reminders 7 days before and on the day, each once; expired evidence flagged', async () => {
    const owned = await item({ owner_id: member.userId, first_review_date: daysFromNow(7), title: 'Owned' });
    const dueToday = await item({ owner_id: member.userId, first_review_date: today(), title: 'Due' });
    const withEvidence = await item();
    await member.client.from('evidence').insert({ ...evidenceRow(member, withEvidence.id), effective_on: daysFromNow(-10), expires_on: daysFromNow(-1) });
    // A due item (Action Required from its creation) still gets its review_due once.

    const first = await service.rpc('compliance_daily', { p_today: today() });
    expect(first.error).toBeNull();
    const mine = (first.data as { item_id: string; kind: string; owner_email: string }[]).filter((r) => [owned.id, dueToday.id].includes(r.item_id));
    expect(mine.map((r) => `${r.item_id === owned.id ? 'owned' : 'due'}:${r.kind}`).sort()).toEqual(['due:on_day', 'owned:before']);
    expect(mine[0].owner_email).toBe(member.email);
    const second = await service.rpc('compliance_daily', { p_today: today() });
    expect((second.data as { item_id: string }[]).filter((r) => [owned.id, dueToday.id].includes(r.item_id))).toEqual([]);

    // One mail job per reminder, keyed so it is queued once.
    const jobs = await service.from('jobs').select('kind, idempotency_key').eq('kind', 'compliance_reminder').in('subject_id', [owned.id, dueToday.id]);
    expect((jobs.data ?? []).map((j) => j.idempotency_key.split(':').pop()).sort()).toEqual(['before', 'on_day']);
    expect((await service.from('compliance_items').select('status').eq('id', dueToday.id).single()).data!.status).toBe('Action Required');
    const events = await service.from('events').select('kind').eq('resource_id', dueToday.id);
    expect((events.data ?? []).map((e) => e.kind)).toEqual(['review_due']);
    const flagged = await service.from('audit_logs').select('action').eq('resource_id', withEvidence.id).eq('action', 'compliance_evidence_expired');
    expect(flagged.data).toHaveLength(1);
  });

  it('answers the cards from SQL for the caller only, its rollup agreeing with a count of the items', async () => {
    const { data, error } = await member.client.rpc('compliance_summary').single<Record<string, number>>();
    expect(error).toBeNull();
    expect(data!.total).toBeGreaterThan(5);
    const { data: rows } = await service.from('compliance_items').select('status').eq('account_id', member.accountId);
    const count = (status: string) => rows!.filter((r) => r.status === status).length;
    expect(data).toMatchObject({
      total: rows!.length, compliant: count('Compliant'), in_progress: count('In Progress'),
      action_required: count('Action Required'), non_compliant: count('Non-Compliant'),
    });
    expect((await client.client.rpc('compliance_summary').single<{ total: number }>()).data!.total).toBe(0);
    const outsider = await other.client.rpc('compliance_summary').single<{ total: number }>();
    expect(outsider.data!.total).toBe(0);
  });

  it('searches the titles of the caller\'s items only, staff only, wildcards as plain text', async () => {
    const created = await item({ title: 'Vendor 100% audit' });
    const ids = async (who: Member, q: string) => ((await who.client.rpc('search_compliance_items', { p_query: q })).data as { id: string }[] | null ?? []).map((r) => r.id);
    expect(await ids(auditor, 'vendor 100')).toEqual([created.id]);
    expect(await ids(member, '%')).toEqual([created.id]);
    expect(await ids(client, 'vendor')).toEqual([]);
    expect(await ids(other, 'vendor')).toEqual([]);
  });

  describe('control catalogues', () => {
    const controls = [
      { key: 'ac-2', label: 'AC-2', family: 'Access Control', title: 'Account Management', statement: 'Define and document the types of accounts.' },
      { key: 'si-2', label: 'SI-2', family: 'System and Information Integrity', title: '<b>Flaw</b> Remediation', statement: 'Identify, report, and correct system flaws;' },
    ];
    const importAs = (who: Member, uuid = randomUUID()) => who.client.rpc('import_compliance_catalogue', {
      p_title: 'NIST SP 800-53 (excerpt)', p_version: '5.0.1', p_oscal_version: '1.0.0', p_source_uuid: uuid, p_controls: controls,
    }).single<{ id: string }>();

    it('imports a catalogue once, turns chosen controls into mapped items, and counts coverage per catalogue', async () => {
      const uuid = randomUUID();
      const { data: catalogue, error } = await importAs(member, uuid);
      expect(error).toBeNull();
      expect((await importAs(member, uuid)).error?.message).toBe('This catalogue is already imported');
      const { data: rows } = await member.client.from('compliance_controls').select('id, label, title').eq('catalogue_id', catalogue!.id).order('position');
      expect(rows!.map((r) => r.title)).toEqual(['Account Management', '<b>Flaw</b> Remediation']);
      const made = await member.client.rpc('create_items_from_controls', { p_control_ids: [rows![0].id], p_responsible_team: 'IT', p_first_review_date: today() });
      expect(made.data).toBe(1);
      const { data: mapped } = await member.client.from('compliance_item_controls').select('item_id').eq('control_id', rows![0].id);
      expect(mapped).toHaveLength(1);
      const item = (await member.client.from('compliance_items').select('title, requirements').eq('id', mapped![0].item_id).single()).data!;
      expect(item).toEqual({ title: 'AC-2 Account Management', requirements: 'Define and document the types of accounts.' });
      // Mapping an existing item by hand, then the coverage: 2 controls, 2 mapped, 1 compliant once reviewed.
      const other = await item_({ title: 'Patching' });
      expect((await member.client.from('compliance_item_controls').insert({ item_id: other.id, control_id: rows![1].id })).error).toBeNull();
      await review(member, mapped![0].item_id);
      const coverage = ((await member.client.rpc('compliance_catalogue_coverage')).data as { catalogue_id: string; controls: number; mapped: number; compliant: number }[])
        .find((c) => c.catalogue_id === catalogue!.id);
      expect(coverage).toMatchObject({ controls: 2, mapped: 2, compliant: 1 });
      const trail = await service.from('audit_logs').select('action').eq('resource_id', other.id).eq('action', 'compliance_control_mapped');
      expect(trail.data).toHaveLength(1);
    });

    it('refuses the auditor every write, and shows outsiders nothing', async () => {
      expect((await importAs(auditor)).error?.code).toBe('42501');
      const { data: catalogue } = await importAs(member);
      const { data: rows } = await auditor.client.from('compliance_controls').select('id').eq('catalogue_id', catalogue!.id);
      expect(rows).toHaveLength(2);
      expect((await auditor.client.rpc('create_items_from_controls', { p_control_ids: [rows![0].id], p_responsible_team: 'IT', p_first_review_date: today() })).error?.code).toBe('42501');
      const mine = await item_();
      expect((await auditor.client.from('compliance_item_controls').insert({ item_id: mine.id, control_id: rows![0].id }).select('item_id')).error).not.toBeNull();
      for (const who of [client, other]) {
        for (const table of ['compliance_catalogues', 'compliance_controls', 'compliance_item_controls']) {
          expect((await who.client.from(table).select('*')).data ?? [], table).toEqual([]);
        }
      }
      // Another account's control cannot be mapped to one's item, nor made into items.
      expect((await other.client.rpc('create_items_from_controls', { p_control_ids: [rows![0].id], p_responsible_team: 'IT', p_first_review_date: today() })).data).toBe(0);
    });

    it('refuses an empty or oversized list of controls', async () => {
      const empty = await member.client.rpc('import_compliance_catalogue', { p_title: 'T', p_version: '', p_oscal_version: '', p_source_uuid: randomUUID(), p_controls: [] });
      expect(empty.error?.message).toBe('The catalogue has no controls');
    });
  });

  describe('third pass (decision 078)', () => {
    const flag = async (id: string) => (await service.from('compliance_items').select('evidence_expired').eq('id', id).single()).data!.evidence_expired;

    it('flags an item whose current evidence expired, clears it when a newer version is in force, and keeps it out of the trail', async () => {
      const created = await item();
      expect(await flag(created.id)).toBe(false);
      // An expired file: flagged when added (its expiry already passed).
      await member.client.from('evidence').insert({ ...evidenceRow(member, created.id, 'Policy'), effective_on: daysFromNow(-30), expires_on: daysFromNow(-1) });
      expect(await flag(created.id)).toBe(true);
      // A newer version of the same title, in force: the current evidence no longer expired.
      await member.client.from('evidence').insert({ ...evidenceRow(member, created.id, 'Policy'), expires_on: daysFromNow(30) });
      expect(await flag(created.id)).toBe(false);
      // That version expires: the daily job (its clock moved on) flags the item again.
      await service.rpc('compliance_daily', { p_today: daysFromNow(31) });
      expect(await flag(created.id)).toBe(true);
      // The flag is derived: no "updated" row in the trail for it.
      const { data } = await service.from('audit_logs').select('action, new_values').eq('resource_id', created.id);
      expect((data ?? []).filter((r) => r.action === 'compliance_item_updated' && 'evidence_expired' in (r.new_values ?? {}))).toEqual([]);
      // Nobody of the API writes it.
      expect((await member.client.from('compliance_items').update({ evidence_expired: false }).eq('id', created.id)).error).not.toBeNull();
    });

    it('deletes an unreviewed item with its evidence files (queued once per file); a reviewed item is refused for every role', async () => {
      const bucket = (who: SupabaseClient) => who.storage.from('evidence');
      const fresh = await item();
      const path = `${member.accountId}/compliance/${randomUUID()}/list.txt`;
      expect((await bucket(member.client).upload(path, new Blob(['kept?'], { type: 'text/plain' }))).error).toBeNull();
      expect((await member.client.from('evidence').insert({ ...evidenceRow(member, fresh.id), file_path: path, mime_type: 'text/plain' })).error).toBeNull();
      // While the row records it, no role removes it.
      expect((await bucket(service).remove([path])).data ?? []).toEqual([]);
      expect((await member.client.from('compliance_items').delete().eq('id', fresh.id).select('id')).data).toHaveLength(1);
      const jobs = await service.from('jobs').select('kind, account_id, payload').eq('subject_id', fresh.id).eq('kind', 'compliance.remove_evidence_file');
      expect(jobs.data).toEqual([{ kind: 'compliance.remove_evidence_file', account_id: member.accountId, payload: { path, item_id: fresh.id } }]);
      // With the row gone, the runner (service role) may remove the file.
      expect((await bucket(service).remove([path])).data).toHaveLength(1);

      const reviewed = await item({ first_review_date: today() });
      await review(member, reviewed.id);
      await member.client.from('evidence').insert(evidenceRow(member, reviewed.id));
      expect((await admin.client.from('compliance_items').delete().eq('id', reviewed.id).select('id')).data ?? []).toEqual([]);
      expect((await service.from('compliance_items').delete().eq('id', reviewed.id)).error?.message).toContain('A reviewed requirement is history');
      await expect(backend.db.query('delete from public.compliance_items where id = $1', [reviewed.id])).rejects.toThrow(/history/);
      expect((await service.from('evidence').select('id').eq('item_id', reviewed.id)).data).toHaveLength(1);
      expect((await service.from('jobs').select('id').eq('subject_id', reviewed.id).eq('kind', 'compliance.remove_evidence_file')).data).toEqual([]);
    });

    it('lets an account be deleted with its reviewed items and evidence, queuing no file removal for it', async () => {
      const gone = await signUpFreshAdmin(backend, 'compliance-gone');
      const created = await item({ first_review_date: today() }, gone);
      expect((await review(gone, created.id)).error).toBeNull();
      expect((await gone.client.from('evidence').insert(evidenceRow(gone, created.id))).error).toBeNull();
      await backend.db.query('delete from public.accounts where id = $1', [gone.accountId]);
      expect((await service.from('compliance_items').select('id').eq('id', created.id)).data).toEqual([]);
      expect((await service.from('jobs').select('id').eq('subject_id', created.id).eq('kind', 'compliance.remove_evidence_file')).data).toEqual([]);
    });

    it('gives the full trail, oldest first, to the account\'s staff only', async () => {
      const created = await item();
      for (let i = 0; i < 3; i++) await member.client.from('compliance_items').update({ description: `Change ${i}` }).eq('id', created.id);
      const trail = await auditor.client.rpc('compliance_item_trail', { p_item_id: created.id });
      expect(trail.error).toBeNull();
      expect((trail.data as { action: string }[]).map((r) => r.action)).toEqual(['compliance_item_created', 'compliance_item_updated', 'compliance_item_updated', 'compliance_item_updated']);
      expect((trail.data as { actor_name: string }[])[1].actor_name).toBeTruthy();
      for (const who of [client, other]) expect((await who.client.rpc('compliance_item_trail', { p_item_id: created.id })).data ?? []).toEqual([]);
      expect((await member.client.rpc('compliance_item_trail_for', { p_account_id: member.accountId, p_item_id: created.id })).error).not.toBeNull();
      expect((await service.rpc('compliance_item_trail_for', { p_account_id: member.accountId, p_item_id: created.id })).data).toHaveLength(4);
    });

    it('queues an audit package for staff, auditors included, once a minute; outsiders are refused; the bucket is private', async () => {
      const created = await item();
      expect((await auditor.client.rpc('request_compliance_package', { p_item_id: created.id })).data).toBe(true);
      expect((await auditor.client.rpc('request_compliance_package', { p_item_id: created.id })).data).toBe(false);
      expect((await member.client.rpc('request_compliance_package', { p_item_id: created.id })).data).toBe(true);
      const jobs = await service.from('jobs').select('payload').eq('subject_id', created.id).eq('kind', 'compliance.audit_package');
      expect((jobs.data ?? []).map((j) => (j.payload as { to: string }).to).sort()).toEqual([auditor.email, member.email].sort());
      expect((await client.client.rpc('request_compliance_package', { p_item_id: created.id })).error?.code).toBe('42501');
      expect((await other.client.rpc('request_compliance_package', { p_item_id: created.id })).error?.code).toBe('P0002');
      expect((await anonOf(backend).rpc('request_compliance_package', { p_item_id: created.id })).error).not.toBeNull();
      const trail = await service.from('audit_logs').select('action').eq('resource_id', created.id).eq('action', 'compliance_audit_package_requested');
      expect(trail.data).toHaveLength(2);
      // Only the service role writes and reads the packages' bucket.
      const zip = new Blob([new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)])], { type: 'application/zip' });
      for (const who of [admin.client, auditor.client]) {
        expect((await who.storage.from('compliance-packages').upload(`${member.accountId}/${randomUUID()}.zip`, zip)).error).not.toBeNull();
      }
      const path = `${member.accountId}/${randomUUID()}.zip`;
      expect((await service.storage.from('compliance-packages').upload(path, zip)).error).toBeNull();
      expect((await admin.client.storage.from('compliance-packages').download(path)).error).not.toBeNull();
    });

    it('lists audit packages 8 days old for removal, to the service role only', async () => {
      const zip = new Blob([new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)])], { type: 'application/zip' });
      const path = `${member.accountId}/${randomUUID()}/old.zip`;
      expect((await service.storage.from('compliance-packages').upload(path, zip)).error).toBeNull();
      const stale = async (at: Date) => ((await service.rpc('compliance_stale_packages', { p_now: at.toISOString() })).data ?? []) as string[];
      expect(await stale(new Date(Date.now() + 7 * 86_400_000))).not.toContain(path);
      expect(await stale(new Date(Date.now() + 9 * 86_400_000))).toContain(path);
      expect((await admin.client.rpc('compliance_stale_packages')).error).not.toBeNull();
    });
  });
});
