// The documents table's own rules, enforced by Postgres: one file once per
// account (by SHA-256), review moving Pending Review -> Approved -> Final,
// full-text search over title and extracted text, the file path inside the
// account's folder, and an audit row for upload, change and delete.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;

const row = (accountId: string, content: string, extra: Record<string, unknown> = {}) => {
  const sha = createHash('sha256').update(content).digest('hex');
  return { account_id: accountId, title: content, file_path: `${accountId}/${randomUUID()}/f.pdf`, file_name: 'f.pdf', file_size: 10, mime_type: 'application/pdf', sha256: sha, ...extra };
};

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'docs-admin');
});
afterAll(async () => backend?.stop());

describe('documents', () => {
  it('keeps one document per file content in an account', async () => {
    expect((await admin.client.from('documents').insert(row(admin.accountId, 'same bytes'))).error).toBeNull();
    const again = await admin.client.from('documents').insert({ ...row(admin.accountId, 'same bytes'), title: 'Again' });
    expect(again.error).toMatchObject({ code: '23505' });
    const other = await signUpFreshAdmin(backend, 'docs-other');
    expect((await other.client.from('documents').insert(row(other.accountId, 'same bytes'))).error).toBeNull();
  });

  it("refuses a file path outside the account's folder", async () => {
    const { error } = await admin.client.from('documents').insert({ ...row(admin.accountId, 'elsewhere'), file_path: `${randomUUID()}/x/f.pdf` });
    expect(error).toMatchObject({ code: '23514' });
  });

  it('moves review forward only, and freezes a final document', async () => {
    const { data } = await admin.client.from('documents').insert(row(admin.accountId, 'review me')).select('id, status').single();
    expect(data!.status).toBe('Pending Review');
    const set = (status: string) => admin.client.from('documents').update({ status }).eq('id', data!.id);
    expect((await set('Final')).error).toMatchObject({ code: '23514', message: 'A document cannot go from Pending Review to Final' });
    expect((await set('Approved')).error).toBeNull();
    expect((await set('Final')).error).toBeNull();
    expect((await set('Approved')).error).toMatchObject({ code: '23514' });
    const edit = await admin.client.from('documents').update({ title: 'Changed' }).eq('id', data!.id);
    expect(edit.error).toMatchObject({ message: 'A final document cannot be changed' });
  });

  it('finds documents by words of their title or extracted text', async () => {
    const { data } = await admin.client.from('documents').insert(row(admin.accountId, 'Northwind invoice')).select('id').single();
    await service.from('documents').update({ text: 'Invoice INV-2041 total 1,250.00 EUR due 2026-12-01' }).eq('id', data!.id);
    const search = (q: string) =>
      admin.client.from('documents').select('title').textSearch('search', q, { type: 'websearch', config: 'simple' });
    expect((await search('northwind')).data!.map((d) => d.title)).toEqual(['Northwind invoice']);
    expect((await search('INV-2041')).data!.map((d) => d.title)).toEqual(['Northwind invoice']);
    expect((await search('nothing-like-it')).data).toEqual([]);
  });

  it('audits upload, status change and delete with old and new values', async () => {
    const { data } = await admin.client.from('documents').insert(row(admin.accountId, 'audited')).select('id').single();
    await service.from('documents').update({ text: 'secret body text' }).eq('id', data!.id);
    await admin.client.from('documents').update({ status: 'Approved' }).eq('id', data!.id);
    await admin.client.from('documents').delete().eq('id', data!.id);
    const { data: logs } = await service.from('audit_logs').select('action, old_values, new_values').eq('resource_id', data!.id).order('created_at');
    expect(logs!.map((l) => l.action)).toEqual(['document_uploaded', 'document_updated', 'document_deleted']);
    expect(logs![1]).toMatchObject({ old_values: { status: 'Pending Review' }, new_values: { status: 'Approved' } });
    expect(JSON.stringify(logs)).not.toContain('secret body text');
  });

  it('queues one extraction job per upload, and none for an image, which waits for its text', async () => {
    const { data: pdf } = await admin.client.from('documents').insert(row(admin.accountId, 'queued pdf')).select('id, extraction_status').single();
    expect(pdf!.extraction_status).toBe('queued');
    const { data: image } = await admin.client
      .from('documents')
      .insert(row(admin.accountId, 'a photo', { mime_type: 'image/png', file_name: 'f.png' }))
      .select('id, extraction_status')
      .single();
    expect(image!.extraction_status).toBe('needs_text');
    const jobs = async (id: string) => (await service.from('jobs').select('kind, payload, status, subject_id').eq('subject_id', id)).data;
    expect(await jobs(pdf!.id)).toEqual([{ kind: 'documents.extract', payload: { document_id: pdf!.id }, status: 'queued', subject_id: pdf!.id }]);
    expect(await jobs(image!.id)).toEqual([]);
    // Its pasted text queues it.
    expect((await admin.client.rpc('paste_document_text', { p_document_id: image!.id, p_text: 'Total 12.00 EUR' })).error).toBeNull();
    expect(await jobs(image!.id)).toHaveLength(1);
  });

  it('records the extraction as the system\'s audit row and event, and a correction as document_reviewed', async () => {
    const { data } = await admin.client.from('documents').insert(row(admin.accountId, 'extracted')).select('id').single();
    const fields = { total: { value: '12.00', confidence: 0.9 } };
    expect((await service.from('documents').update({ text: 'secret words', fields, extraction_status: 'done' }).eq('id', data!.id)).error).toBeNull();
    const reviewed = { total: { value: '12.50', confidence: 1 } };
    expect((await admin.client.from('documents').update({ fields: reviewed }).eq('id', data!.id)).error).toBeNull();
    const { data: logs } = await service.from('audit_logs').select('action, old_values, new_values').eq('resource_id', data!.id).order('created_at');
    expect(logs!.map((l) => l.action)).toEqual(['document_uploaded', 'document_extracted', 'document_reviewed']);
    expect(logs![1].new_values).toEqual({ extraction_status: 'done' });
    expect(logs![2]).toMatchObject({ old_values: { fields }, new_values: { fields: reviewed } });
    expect(JSON.stringify(logs)).not.toContain('secret words');
    const { data: events } = await service.from('events').select('kind, resource_type, payload').eq('resource_id', data!.id);
    expect(events).toEqual([{ kind: 'document_extracted', resource_type: 'document', payload: { title: 'extracted', kind: null } }]);
  });

  it("sums the screen's cards over the caller's account only, for staff", async () => {
    const other = await signUpFreshAdmin(backend, 'docs-summary-other');
    await other.client.from('documents').insert(row(other.accountId, 'other account file', { file_size: 999 }));
    const fresh = await signUpFreshAdmin(backend, 'docs-summary');
    await fresh.client.from('documents').insert([row(fresh.accountId, 'one', { file_size: 100 }), row(fresh.accountId, 'two', { file_size: 50 })]);
    const { data } = await fresh.client.rpc('document_summary').single();
    expect(data).toEqual({ total_count: 2, processed_count: 0, pending_review_count: 2, storage_bytes: 150 });
    const client = await addMember(backend, fresh, 'client', 'docs-summary-client');
    expect((await client.client.rpc('document_summary').single()).data).toEqual({ total_count: 0, processed_count: 0, pending_review_count: 0, storage_bytes: 0 });
  });

  it("gives the account's staff a document's history, and nobody else", async () => {
    const { data } = await admin.client.from('documents').insert(row(admin.accountId, 'with history')).select('id').single();
    const history = await admin.client.rpc('record_history', { p_resource_type: 'document', p_resource_id: data!.id });
    expect(history.data!.map((h: { action: string }) => h.action)).toEqual(['document_uploaded']);
    const outsider = await signUpFreshAdmin(backend, 'docs-history-outsider');
    expect((await outsider.client.rpc('record_history', { p_resource_type: 'document', p_resource_id: data!.id })).data).toEqual([]);
  });
});
