// A bid's documents and the answer library in the database (issue 38; decision 091): files attached as the
// app attaches them (app/features/rfp/attachments/store.server.ts: Storage and rfp_attachments together, the
// type by the bytes), their audit rows on the bid, who may read, add and remove them, a deleted bid's files
// queued for removal; answers written, searched (prefix full text) and appended to a bid's proposal.
// (Every role's access: role-matrix; another account: tenant-isolation; search_rfp_answers: list-search.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { attachFile, attachmentLink, removeAttachment } from '../../app/features/rfp/attachments/store.server.ts';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const bid = (title: string) => ({
  title, company: 'Port of Oslo', contact_email: 'tenders@port.test', value: 25_000_000, deadline: day(10), proposal: 'Our proposal.',
});
const pdf = (body: string) => new TextEncoder().encode(`%PDF-1.4\n${body}`);
// The app's typed client; the test's clients are untyped.
type AppClient = Parameters<typeof attachFile>[0];
const as = (m: Member) => m.client as unknown as AppClient;

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;
let member: Member;
let auditor: Member;
let client: Member;
let supplier: Member;
let other: Member;

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'rfpfiles-admin');
  member = await addMember(backend, admin, 'member', 'rfpfiles-member');
  auditor = await addMember(backend, admin, 'auditor', 'rfpfiles-auditor');
  client = await addMember(backend, admin, 'client', 'rfpfiles-client');
  supplier = await addMember(backend, admin, 'supplier', 'rfpfiles-supplier');
  other = await signUpFreshAdmin(backend, 'rfpfiles-other');
}, 60_000);
afterAll(async () => backend?.stop());

async function newBid(by: Member, title: string): Promise<string> {
  const { data, error } = await by.client.from('rfps').insert(bid(title)).select('id').single();
  if (error) throw new Error(error.message);
  return data.id as string;
}
const objects = async (prefix: string) =>
  (await backend.db.query<{ name: string }>(`select name from storage.objects where bucket_id = 'documents' and name like $1`, [`${prefix}%`])).rows.map((r) => r.name);

describe('bid files', () => {
  it('stores the file under the bid, audits it on the bid, downloads the same bytes, and removes both', async () => {
    const rfpId = await newBid(member, 'Harbour cranes');
    const outcome = await attachFile(as(member), { accountId: admin.accountId, rfpId, fileName: '../Spec sheet.pdf', bytes: pdf('spec') });
    expect(outcome).toMatchObject({ ok: true, fileName: 'Spec sheet.pdf' });
    const id = (outcome as { id: string }).id;
    const { data: row } = await auditor.client.from('rfp_attachments').select('*').eq('id', id).single();
    expect(row).toMatchObject({ rfp_id: rfpId, mime_type: 'application/pdf', file_size: pdf('spec').length, created_by: member.userId });
    expect(row.file_path).toMatch(new RegExp(`^${admin.accountId}/rfp/${rfpId}/[0-9a-f-]{36}/Spec sheet\\.pdf$`));
    expect(await objects(`${admin.accountId}/rfp/${rfpId}/`)).toEqual([row.file_path]);
    // The auditor reads it; a client, a supplier and another account neither the row nor a link.
    const link = await attachmentLink(as(auditor), row);
    expect(new Uint8Array(await (await fetch(link!)).arrayBuffer())).toEqual(pdf('spec'));
    for (const outsider of [client, supplier, other]) {
      expect((await outsider.client.from('rfp_attachments').select('id').eq('id', id)).data).toEqual([]);
      expect(await attachmentLink(as(outsider), row)).toBeNull();
    }
    // Only staff who write remove it.
    expect(await removeAttachment(as(auditor), rfpId, id)).toBe(false);
    expect(await removeAttachment(as(other), rfpId, id)).toBe(false);
    expect(await removeAttachment(as(admin), rfpId, id)).toBe(true);
    expect(await objects(`${admin.accountId}/rfp/${rfpId}/`)).toEqual([]);
    const { data: history } = await admin.client.rpc('record_history', { p_resource_type: 'rfp', p_resource_id: rfpId });
    const actions = (history as { action: string }[]).map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['rfp_attachment_added', 'rfp_attachment_removed']));
  });

  it('refuses by the bytes, and an auditor, a client or another account stores nothing', async () => {
    const rfpId = await newBid(admin, 'Quay lights');
    expect(await attachFile(as(admin), { accountId: admin.accountId, rfpId, fileName: 'tool.pdf', bytes: new TextEncoder().encode('MZ\x90\x00binary') }))
      .toMatchObject({ ok: false, field: 'file', message: "The file's content does not match its extension" });
    expect(await attachFile(as(admin), { accountId: admin.accountId, rfpId, fileName: 'page.html', bytes: new TextEncoder().encode('<script>') }))
      .toMatchObject({ ok: false, field: 'file' });
    for (const refused of [auditor, client, supplier]) {
      expect((await attachFile(as(refused), { accountId: admin.accountId, rfpId, fileName: 'a.pdf', bytes: pdf(refused.email) })).ok).toBe(false);
    }
    // Another account's admin: its own folder, but our bid (the foreign key finds no bid of theirs).
    expect(await attachFile(as(other), { accountId: other.accountId, rfpId, fileName: 'a.pdf', bytes: pdf('x') })).toMatchObject({ ok: false, status: 404 });
    // A row pointing at another bid's folder, or another account's, is refused by the table's checks.
    const bad = await admin.client.from('rfp_attachments').insert({
      rfp_id: rfpId, file_name: 'a.pdf', file_path: `${other.accountId}/rfp/${rfpId}/x/a.pdf`, file_size: 1, mime_type: 'application/pdf', sha256: 'a'.repeat(64),
    });
    expect(bad.error).not.toBeNull();
    expect(await objects(`${admin.accountId}/rfp/${rfpId}/`)).toEqual([]);
    expect(await objects(`${other.accountId}/`)).toEqual([]);
  });

  it('queues the removal of a deleted bid\'s files, once each', async () => {
    const rfpId = await newBid(admin, 'Ferry terminal');
    const first = await attachFile(as(admin), { accountId: admin.accountId, rfpId, fileName: 'a.txt', bytes: new TextEncoder().encode('plan A') });
    const second = await attachFile(as(admin), { accountId: admin.accountId, rfpId, fileName: 'b.csv', bytes: new TextEncoder().encode('a,b\n1,2') });
    expect(first.ok && second.ok).toBe(true);
    expect((await admin.client.from('rfps').delete().eq('id', rfpId)).error).toBeNull();
    const { rows } = await backend.db.query<{ payload: { path: string } }>(
      `select payload from public.jobs where account_id = $1 and kind = 'rfp.remove_attachment_file' and subject_id = $2`, [admin.accountId, rfpId]);
    expect(rows.map((r) => r.payload.path).sort()).toEqual((await objects(`${admin.accountId}/rfp/${rfpId}/`)).sort());
    expect(rows).toHaveLength(2);
  });

  it('holds a bid to 50 files', async () => {
    const rfpId = await newBid(admin, 'Fifty files');
    const rows = Array.from({ length: 50 }, (_, i) => ({
      account_id: admin.accountId, rfp_id: rfpId, file_name: `f${i}.pdf`, file_path: `${admin.accountId}/rfp/${rfpId}/${i}/f.pdf`,
      file_size: 1, mime_type: 'application/pdf', sha256: 'a'.repeat(64),
    }));
    expect((await service.from('rfp_attachments').insert(rows)).error).toBeNull();
    const outcome = await attachFile(as(admin), { accountId: admin.accountId, rfpId, fileName: 'one-more.pdf', bytes: pdf('51') });
    expect(outcome).toMatchObject({ ok: false, message: 'A bid holds at most 50 files: remove one first', status: 409 });
  });
});

describe("an account's deletion", () => {
  it('deletes an account with bids, their files, answers and radar, and queues no removal job for it', async () => {
    const doomed = await signUpFreshAdmin(backend, 'rfpfiles-doomed');
    const rfpId = await newBid(doomed, 'Doomed bid');
    expect((await attachFile(as(doomed), { accountId: doomed.accountId, rfpId, fileName: 'a.txt', bytes: new TextEncoder().encode('doomed') })).ok).toBe(true);
    expect((await doomed.client.from('rfp_answers').insert({ title: 'Doomed', body: 'x' })).error).toBeNull();
    // Its radar too: a feed with a notice pursued as a bid, and a saved search.
    const { data: source } = await doomed.client.from('tender_sources').insert({ name: 'Feed', url: 'https://feeds.doomed.test/ocds.json', format: 'ocds' }).select('id').single();
    expect((await service.rpc('ingest_tender_notices', { p_source: source!.id, p_notices: [{ sourceId: 'n-1', title: 'Hosting' }] })).error).toBeNull();
    expect((await doomed.client.from('opportunities').update({ pursued_rfp_id: rfpId }).eq('source_id', source!.id)).error).toBeNull();
    expect((await doomed.client.from('tender_searches').insert({ name: 'Hosting', keywords: ['hosting'] })).error).toBeNull();
    const deleted = await service.from('accounts').delete().eq('id', doomed.accountId);
    expect(deleted.error?.message ?? null).toBeNull();
    expect((await service.from('rfp_attachments').select('id').eq('account_id', doomed.accountId)).data).toEqual([]);
    const { rows } = await backend.db.query(`select 1 from public.jobs where account_id = $1 and kind = 'rfp.remove_attachment_file'`, [doomed.accountId]);
    expect(rows).toEqual([]);
  });
});

describe('the answer library', () => {
  it('keeps answers for staff, writable by admins and members, audited', async () => {
    const { data, error } = await member.client.from('rfp_answers')
      .insert({ title: 'ISO 27001 certification', body: 'We hold ISO 27001 since 2019, audited yearly by BSI.', tags: ['security', 'iso'] })
      .select('id, account_id').single();
    expect(error).toBeNull();
    expect(data!.account_id).toBe(admin.accountId);
    const id = data!.id as string;
    expect((await auditor.client.from('rfp_answers').select('title').eq('id', id)).data).toEqual([{ title: 'ISO 27001 certification' }]);
    for (const outsider of [client, supplier, other]) {
      expect((await outsider.client.from('rfp_answers').select('id').eq('id', id)).data).toEqual([]);
      expect((await outsider.client.from('rfp_answers').update({ body: 'x' }).eq('id', id).select('id')).data ?? []).toEqual([]);
    }
    expect((await auditor.client.from('rfp_answers').insert({ title: 'Auditor', body: 'x' })).error).not.toBeNull();
    expect((await auditor.client.from('rfp_answers').delete().eq('id', id).select('id')).data).toEqual([]);
    expect((await admin.client.from('rfp_answers').update({ tags: ['security', 'iso', 'bsi'] }).eq('id', id)).error).toBeNull();
    const { data: audit } = await service.from('audit_logs').select('action').eq('resource_id', id).order('created_at');
    expect(audit!.map((a) => a.action)).toEqual(['rfp_answer_created', 'rfp_answer_updated']);
  });

  it('refuses what the checks refuse', async () => {
    for (const row of [
      { title: ' ', body: 'x' }, { title: 'Line\nbreak', body: 'x' }, { title: 'Empty body', body: '  ' }, { title: 'Long', body: 'x'.repeat(10_001) },
      { title: 'Upper tag', body: 'x', tags: ['Security'] }, { title: 'Comma tag', body: 'x', tags: ['a,b'] },
      { title: 'Many tags', body: 'x', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, { title: 'Empty tag', body: 'x', tags: [''] },
    ] as { title: string; body: string; tags?: string[] }[]) {
      expect((await admin.client.from('rfp_answers').insert(row)).error, row.title).not.toBeNull();
    }
    // The search column is the trigger's: nobody types it.
    expect((await admin.client.from('rfp_answers').insert({ title: 'Typed search', body: 'x', search: 'spoof' })).error).not.toBeNull();
  });

  it('finds an answer by the start of a word of its title, tags or body', async () => {
    await admin.client.from('rfp_answers').insert({ title: 'Insurance cover', body: 'Professional indemnity of GBP 5,000,000.', tags: ['insurance', 'liability'] });
    const titles = async (m: Member, q: string) =>
      ((await m.client.rpc('search_rfp_answers', { p_query: q }, { get: true }).select('title').order('title')).data as { title: string }[]).map((r) => r.title);
    expect(await titles(admin, 'indem')).toEqual(['Insurance cover']);
    expect(await titles(admin, 'liab')).toEqual(['Insurance cover']);
    expect(await titles(admin, 'BSI')).toEqual(['ISO 27001 certification']);
    expect(await titles(auditor, '2700')).toEqual(['ISO 27001 certification']);
    expect(await titles(admin, 'cover indemnity')).toEqual(['Insurance cover']);
    expect(await titles(admin, 'cover security')).toEqual([]);
    for (const outsider of [client, supplier, other]) expect(await titles(outsider, 'insurance')).toEqual([]);
  });

  it('appends an answer to a bid\'s proposal for a writer, and nothing for anyone else', async () => {
    const rfpId = await newBid(admin, 'Answer use');
    const { data: answer } = await admin.client.from('rfp_answers').select('id, body').eq('title', 'Insurance cover').single();
    expect((await auditor.client.rpc('use_rfp_answer', { p_rfp_id: rfpId, p_answer_id: answer!.id })).data).toBeNull();
    expect((await other.client.rpc('use_rfp_answer', { p_rfp_id: rfpId, p_answer_id: answer!.id })).data).toBeNull();
    // Another account's answer on our bid: nothing.
    const { data: theirs } = await other.client.from('rfp_answers').insert({ title: 'Theirs', body: 'Secret text' }).select('id').single();
    expect((await member.client.rpc('use_rfp_answer', { p_rfp_id: rfpId, p_answer_id: theirs!.id })).data).toBeNull();
    expect((await member.client.rpc('use_rfp_answer', { p_rfp_id: rfpId, p_answer_id: answer!.id })).data).toBe(rfpId);
    const { data: row } = await admin.client.from('rfps').select('proposal').eq('id', rfpId).single();
    expect(row!.proposal).toBe(`Our proposal.\n\n${answer!.body}`);
    const { data: history } = await admin.client.rpc('record_history', { p_resource_type: 'rfp', p_resource_id: rfpId });
    expect((history as { action: string }[]).map((e) => e.action)).toContain('rfp_updated');
    // Past the proposal's 10,000 characters: refused, nothing changed.
    const { data: long } = await admin.client.from('rfp_answers').insert({ title: 'Long one', body: 'y'.repeat(9_990) }).select('id').single();
    const refused = await member.client.rpc('use_rfp_answer', { p_rfp_id: rfpId, p_answer_id: long!.id });
    expect(refused.error?.code).toBe('23514');
    expect((await admin.client.from('rfps').select('proposal').eq('id', rfpId).single()).data!.proposal).toBe(row!.proposal);
  });
});
