// Uploading, downloading and deleting a document as the app does it
// (app/features/documents/store.server.ts), with each person's own client
// against the local backend: Storage and the documents table together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteDocument, downloadLink, storeDocument, type Supabase, type UploadInput } from '../../app/features/documents/store.server.ts';
import { addMember, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;
let auditor: Member;
let outsider: Member;
const pdf = (body: string) => new TextEncoder().encode(`%PDF-1.4\n${body}`);
const as = (m: Member) => m.client as unknown as Supabase;
const input = (m: Member, fileName: string, bytes: Uint8Array, title = 'Invoice March'): UploadInput => ({
  accountId: m.accountId, title, type: 'invoice', description: null, fileName, bytes,
});

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'store-admin');
  auditor = await addMember(backend, admin, 'auditor', 'store-auditor');
  outsider = await signUpFreshAdmin(backend, 'store-outsider');
}, 60_000);
afterAll(async () => backend?.stop());

const objects = async (accountId: string) =>
  (await backend.db.query<{ name: string }>(`select name from storage.objects where bucket_id = 'documents' and name like $1`, [`${accountId}/%`])).rows.map((r) => r.name);

describe('storeDocument', () => {
  it('stores the file in the account folder and its row, and a signed link downloads the same bytes', async () => {
    const outcome = await storeDocument(as(admin), input(admin, '../../März/Invoice 7.pdf', pdf('seven')));
    expect(outcome.ok).toBe(true);
    const { data: doc } = await admin.client.from('documents').select('*').eq('id', (outcome as { id: string }).id).single();
    expect(doc).toMatchObject({ file_name: 'Invoice 7.pdf', mime_type: 'application/pdf', status: 'Pending Review', extraction_status: 'queued', uploaded_by: admin.userId });
    expect(doc.file_path).toMatch(new RegExp(`^${admin.accountId}/[0-9a-f-]{36}/Invoice 7\\.pdf$`));
    expect(await objects(admin.accountId)).toContain(doc.file_path);
    const link = await downloadLink(as(admin), doc);
    const response = await fetch(link!);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(pdf('seven'));
    expect(response.headers.get('content-disposition')).toContain('Invoice%207.pdf');
  });

  it('names the earlier upload of the same file, and stores nothing', async () => {
    const before = await objects(admin.accountId);
    const outcome = await storeDocument(as(admin), input(admin, 'copy.pdf', pdf('seven'), 'Another title'));
    expect(outcome).toEqual({ ok: false, field: 'file', message: 'This file was already uploaded as Invoice March' });
    expect(await objects(admin.accountId)).toEqual(before);
  });

  it('refuses an .exe renamed .pdf, and stores nothing', async () => {
    const before = await objects(admin.accountId);
    const outcome = await storeDocument(as(admin), input(admin, 'invoice.pdf', new TextEncoder().encode('MZ\u0090program')));
    expect(outcome).toEqual({ ok: false, field: 'file', message: "The file's content is not what its name says it is." });
    expect(await objects(admin.accountId)).toEqual(before);
  });

  it('refuses an auditor (read-only), leaving neither file nor row', async () => {
    const outcome = await storeDocument(as(auditor), input(auditor, 'audit.pdf', pdf('auditor')));
    expect(outcome).toMatchObject({ ok: false, field: 'form', message: 'Failed to upload document' });
    const { data } = await serviceClient(backend).from('documents').select('id').eq('title', 'audit');
    expect(data).toEqual([]);
    expect((await objects(admin.accountId)).some((n) => n.endsWith('/audit.pdf'))).toBe(false);
  });

  it("refuses an upload into another account's folder, leaving nothing there", async () => {
    const outcome = await storeDocument(as(admin), { ...input(admin, 'planted.pdf', pdf('planted')), accountId: outsider.accountId });
    expect(outcome.ok).toBe(false);
    expect(await objects(outsider.accountId)).toEqual([]);
  });
});

describe('deleteDocument', () => {
  it("deletes file and row, audited; another account's admin cannot", async () => {
    const outcome = await storeDocument(as(admin), input(admin, 'gone.pdf', pdf('gone'), 'Gone'));
    const id = (outcome as { id: string }).id;
    const { data: doc } = await admin.client.from('documents').select('file_path').eq('id', id).single();
    expect(await deleteDocument(as(outsider), id)).toBe(false);
    expect(await objects(admin.accountId)).toContain(doc!.file_path);
    expect(await deleteDocument(as(admin), id)).toBe(true);
    expect(await objects(admin.accountId)).not.toContain(doc!.file_path);
    const { data: logs } = await serviceClient(backend).from('audit_logs').select('action').eq('resource_id', id).order('created_at');
    expect(logs!.map((l) => l.action)).toEqual(['document_uploaded', 'document_deleted']);
  });
});
