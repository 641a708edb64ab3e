// What extraction writes is extraction's (issue 30, poison files): a member
// re-queued a poison .docx at will by PATCHing extraction_status back to
// 'queued'. For every role, another account and anon, a direct write of the
// extraction's columns (and of the file's identity and uploader) is refused;
// a person asks through paste_document_text and rerun_document_extraction,
// which check the caller, the account, the document's state and the hourly
// limits held in the database, and leave an audit row.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anHourLater, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';
import { ROLES } from '../support/accounts.ts';

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;
let outsider: Member;
const callers: Record<string, SupabaseClient> = {};

const row = (accountId: string, seed: string, extra: Record<string, unknown> = {}) => ({
  account_id: accountId, title: seed, file_path: `${accountId}/${randomUUID()}/f.pdf`, file_name: 'f.pdf', file_size: 10,
  mime_type: 'application/pdf', sha256: createHash('sha256').update(`${seed}-${randomUUID()}`).digest('hex'), ...extra,
});

/** A document of the admin's account, in the given extraction state, made by the service role (as the job leaves it). */
async function document(state: Record<string, unknown> = {}, accountId = admin.accountId): Promise<string> {
  const { data, error } = await service.from('documents').insert(row(accountId, 'doc')).select('id').single();
  if (error) throw new Error(error.message);
  // The upload's own run is not what these tests count.
  await service.from('jobs').delete().eq('subject_id', data.id);
  if (Object.keys(state).length > 0) {
    const updated = await service.from('documents').update(state).eq('id', data.id);
    if (updated.error) throw new Error(updated.error.message);
  }
  return data.id;
}

const PROTECTED: Record<string, unknown> = {
  extraction_status: 'queued',
  extraction_error: null,
  extraction_too_complex: false,
  text: 'Total 1.00 EUR',
  uploaded_by: null,
  file_path: 'elsewhere',
  file_name: 'other.pdf',
  file_size: 99,
  mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  sha256: 'a'.repeat(64),
  account_id: randomUUID(),
};
const COLUMNS = Object.keys(PROTECTED).join(', ');

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'extract-writes');
  callers.admin = admin.client;
  for (const role of ROLES.filter((r) => r !== 'admin')) callers[role] = (await addMember(backend, admin, role, `extract-writes-${role}`)).client;
  outsider = await signUpFreshAdmin(backend, 'extract-writes-outsider');
  callers['another account'] = outsider.client;
  callers.anon = anonClient(backend);
});
afterAll(async () => backend?.stop());

describe("a document's extraction columns", () => {
  it('cannot be updated directly by any role, another account or anon', async () => {
    const id = await document({ extraction_status: 'failed', extraction_error: 'The file is too complex to read: paste its text to extract its fields.', extraction_too_complex: true });
    const before = (await service.from('documents').select(COLUMNS).eq('id', id).single()).data;
    for (const [who, client] of Object.entries(callers)) {
      for (const [column, value] of Object.entries({ ...PROTECTED, uploaded_by: admin.userId })) {
        const { data, error } = await client.from('documents').update({ [column]: value }).eq('id', id).select('id');
        // Refused by the column grants (42501), or for outsiders nothing to update at all.
        expect(error === null ? data : error.code, `${who} updating ${column}`).toEqual(error === null ? [] : '42501');
      }
    }
    expect((await service.from('documents').select(COLUMNS).eq('id', id).single()).data).toEqual(before);
    // No run was queued by any of it.
    expect((await service.from('jobs').select('id').eq('subject_id', id)).data).toEqual([]);
  });

  it('leaves what a person edits writable by admins and members: title, type, description, review status, fields', async () => {
    const id = await document({ extraction_status: 'done' });
    for (const role of ['admin', 'member']) {
      const { error } = await callers[role].from('documents').update({ title: `Edited by ${role}`, type: 'invoice', description: 'd', fields: { total: { value: '1.00', confidence: 1 } } }).eq('id', id);
      expect(error, role).toBeNull();
    }
    expect((await callers.member.from('documents').update({ status: 'Approved' }).eq('id', id)).error).toBeNull();
  });

  it('cannot be set on a new row; its uploader is whoever inserted it', async () => {
    for (const [column, value] of Object.entries({ text: 'forged', extraction_status: 'done', extraction_error: 'x', extraction_too_complex: true, fields: {}, uploaded_by: admin.userId })) {
      const { error } = await callers.member.from('documents').insert(row(admin.accountId, `insert-${column}`, { [column]: value }));
      expect(error?.code, column).toBe('42501');
    }
    const { data, error } = await callers.member.from('documents').insert(row(admin.accountId, 'mine')).select('id, uploaded_by, extraction_status, text').single();
    expect(error).toBeNull();
    const member = (await service.from('users').select('id').eq('account_id', admin.accountId).eq('role', 'member').single()).data!;
    expect(data).toEqual({ id: data!.id, uploaded_by: member.id, extraction_status: 'queued', text: null });
  });
});

describe('paste_document_text', () => {
  it('is for the account\'s admins and members: auditors, clients, suppliers, another account and anon are refused', async () => {
    const id = await document({ extraction_status: 'needs_text' });
    const refusals: Record<string, string> = { auditor: '42501', client: '42501', supplier: '42501', 'another account': 'P0002', anon: '42501' };
    for (const [who, code] of Object.entries(refusals)) {
      const { error } = await callers[who].rpc('paste_document_text', { p_document_id: id, p_text: 'Total 1.00 EUR' });
      expect(error?.code, who).toBe(code);
    }
    expect((await service.from('documents').select('extraction_status, text').eq('id', id).single()).data).toEqual({ extraction_status: 'needs_text', text: null });
    for (const role of ['admin', 'member']) {
      const waiting = await document({ extraction_status: role === 'admin' ? 'needs_text' : 'failed' });
      expect((await callers[role].rpc('paste_document_text', { p_document_id: waiting, p_text: '  Total 2.00 EUR\n' })).error, role).toBeNull();
      expect((await service.from('documents').select('extraction_status, text').eq('id', waiting).single()).data).toEqual({ extraction_status: 'queued', text: 'Total 2.00 EUR' });
      expect((await service.from('jobs').select('kind').eq('subject_id', waiting)).data).toEqual([{ kind: 'documents.extract' }]);
      const audit = (await service.from('audit_logs').select('action, new_values').eq('resource_id', waiting).eq('action', 'document_text_pasted')).data;
      expect(audit).toEqual([{ action: 'document_text_pasted', new_values: { characters: 14 } }]);
    }
  });

  it('refuses a document that has its text, a final one, and empty or overlong text', async () => {
    const done = await document({ extraction_status: 'done' });
    const paste = (id: string, text: string) => callers.member.rpc('paste_document_text', { p_document_id: id, p_text: text });
    expect((await paste(done, 'x')).error).toMatchObject({ code: '22023', message: 'This document already has its text: correct its fields instead.' });
    const final = await document({ extraction_status: 'failed', status: 'Approved' });
    await service.from('documents').update({ status: 'Final' }).eq('id', final);
    expect((await paste(final, 'x')).error).toMatchObject({ code: '22023' });
    const waiting = await document({ extraction_status: 'needs_text' });
    expect((await paste(waiting, ' \n ')).error).toMatchObject({ code: '22023', message: 'Paste the text of the document' });
    expect((await paste(waiting, 'x'.repeat(200_001))).error).toMatchObject({ code: '22023' });
  });

  it('takes the text of a file too complex to read (it is then not read again)', async () => {
    const id = await document({ extraction_status: 'failed', extraction_too_complex: true });
    expect((await callers.member.rpc('paste_document_text', { p_document_id: id, p_text: 'Total 3.00 EUR' })).error).toBeNull();
  });
});

describe('rerun_document_extraction', () => {
  it('queues a failed document again, for admins and members only', async () => {
    const id = await document({ extraction_status: 'failed', extraction_error: 'The file could not be read from storage.' });
    for (const [who, code] of Object.entries({ auditor: '42501', client: '42501', supplier: '42501', 'another account': 'P0002', anon: '42501' })) {
      expect((await callers[who].rpc('rerun_document_extraction', { p_document_id: id })).error?.code, who).toBe(code);
    }
    expect((await service.from('jobs').select('id').eq('subject_id', id)).data).toEqual([]);
    expect((await callers.member.rpc('rerun_document_extraction', { p_document_id: id })).error).toBeNull();
    expect((await service.from('documents').select('extraction_status, extraction_error').eq('id', id).single()).data).toEqual({ extraction_status: 'queued', extraction_error: null });
    expect((await service.from('jobs').select('kind').eq('subject_id', id)).data).toEqual([{ kind: 'documents.extract' }]);
    expect((await service.from('audit_logs').select('action').eq('resource_id', id).eq('action', 'document_extraction_rerun')).data).toHaveLength(1);
  });

  it('refuses a document being extracted, extracted, or too complex to read', async () => {
    const rerun = (id: string) => callers.admin.rpc('rerun_document_extraction', { p_document_id: id });
    for (const state of ['queued', 'done', 'needs_text']) {
      expect((await rerun(await document({ extraction_status: state }))).error, state).toMatchObject({ code: '22023' });
    }
    const complex = await document({ extraction_status: 'failed', extraction_too_complex: true });
    expect((await rerun(complex)).error).toMatchObject({ code: '22023', message: 'The file is too complex to read: paste its text to extract its fields.' });
    expect((await service.from('jobs').select('id').eq('subject_id', complex)).data).toEqual([]);
  });
});

describe('the limits', () => {
  it('allow 5 requests an hour per document, and 60 per account, whoever asks', async () => {
    // An account of its own, so no other test's requests count.
    const owner = await signUpFreshAdmin(backend, 'extract-limits');
    const colleague = await addMember(backend, owner, 'member', 'extract-limits-member');
    const id = await document({ extraction_status: 'failed' }, owner.accountId);
    const fail = (doc: string) => service.from('documents').update({ extraction_status: 'failed' }).eq('id', doc);
    for (let i = 0; i < 5; i += 1) {
      expect((await (i % 2 ? colleague : owner).client.rpc('rerun_document_extraction', { p_document_id: id })).error, `request ${i + 1}`).toBeNull();
      await fail(id);
    }
    const sixth = await colleague.client.rpc('paste_document_text', { p_document_id: id, p_text: 'Total 1.00' });
    expect(sixth.error).toMatchObject({ code: 'PT429' });
    expect(sixth.error?.message).toMatch(/^This document's fields were extracted too often: try again in ([1-9]|[1-5][0-9]|60) minutes\.$/);
    expect((await service.from('jobs').select('id').eq('subject_id', id)).data).toHaveLength(5);

    // The account's own limit: 60 in all (5 used above).
    let refused: { code?: string; message?: string } | null = null;
    let allowed = 5;
    for (let n = 0; n < 12 && !refused; n += 1) {
      const other = await document({ extraction_status: 'failed' }, owner.accountId);
      for (let i = 0; i < 5 && !refused; i += 1) {
        const { error } = await owner.client.rpc('rerun_document_extraction', { p_document_id: other });
        if (error) refused = error;
        else {
          allowed += 1;
          await fail(other);
        }
      }
    }
    expect(allowed).toBe(60);
    expect(refused).toMatchObject({ code: 'PT429' });
    expect(refused?.message).toMatch(/^Too many extractions in this account: try again in \d+ minutes\.$/);
    // Another account is not held by this one's limit.
    const theirs = await document({ extraction_status: 'failed' });
    expect((await admin.client.rpc('rerun_document_extraction', { p_document_id: theirs })).error).toBeNull();

    // The limits are private.hit_rate_limit's one-hour windows: when the window ends, the document may be asked for again.
    await anHourLater(backend, 'document_extraction:%');
    expect((await owner.client.rpc('rerun_document_extraction', { p_document_id: id })).error).toBeNull();
  });
});
