// The documents table's own rules, enforced by Postgres: one file once per
// account (by SHA-256), review moving Pending Review -> Approved -> Final,
// full-text search over title and extracted text, the file path inside the
// account's folder, and an audit row for upload, change and delete.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

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
    await admin.client.from('documents').insert(row(admin.accountId, 'Northwind invoice', { text: 'Invoice INV-2041 total 1,250.00 EUR due 2026-12-01' }));
    const search = (q: string) =>
      admin.client.from('documents').select('title').textSearch('search', q, { type: 'websearch', config: 'simple' });
    expect((await search('northwind')).data!.map((d) => d.title)).toEqual(['Northwind invoice']);
    expect((await search('INV-2041')).data!.map((d) => d.title)).toEqual(['Northwind invoice']);
    expect((await search('nothing-like-it')).data).toEqual([]);
  });

  it('audits upload, status change and delete with old and new values', async () => {
    const { data } = await admin.client.from('documents').insert(row(admin.accountId, 'audited', { text: 'secret body text' })).select('id').single();
    await admin.client.from('documents').update({ status: 'Approved' }).eq('id', data!.id);
    await admin.client.from('documents').delete().eq('id', data!.id);
    const { data: logs } = await service.from('audit_logs').select('action, old_values, new_values').eq('resource_id', data!.id).order('created_at');
    expect(logs!.map((l) => l.action)).toEqual(['document_uploaded', 'document_updated', 'document_deleted']);
    expect(logs![1]).toMatchObject({ old_values: { status: 'Pending Review' }, new_values: { status: 'Approved' } });
    expect(JSON.stringify(logs)).not.toContain('secret body text');
  });
});
