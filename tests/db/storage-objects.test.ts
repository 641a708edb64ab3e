// Files in Storage by role and by account, as Postgres decides them through
// the policies on storage.objects (migration storage_buckets): each role of
// one account, an admin of another account, and the anonymous key, driving
// the real storage-js against the local backend's /storage/v1.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';
import { ROLES, type Role } from '../support/accounts.ts';

const BUCKETS = ['documents', 'evidence', 'reports'] as const;
const READERS: Role[] = ['admin', 'member', 'auditor'];
const WRITERS: Role[] = ['admin', 'member'];
const pdf = () => new Blob(['%PDF-1.4 test'], { type: 'application/pdf' });

describe.each([
  { on: 'pglite' as const, skip: false },
  { on: 'postgres' as const, skip: !process.env.TEST_POSTGRES_URL },
])('storage.objects by role on $on', ({ on, skip }) => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let users: Record<Role, Member>;
  let outsider: Member;
  /** One object per bucket in the account's folder, and one in the other account's. */
  const ours: Record<string, string> = {};
  const theirs: Record<string, string> = {};

  beforeAll(async () => {
    if (skip) return;
    backend = await startBackend({ on });
    service = serviceClient(backend);
    const admin = await signUpFreshAdmin(backend, 'files-admin');
    users = { admin } as Record<Role, Member>;
    for (const role of ROLES.filter((r) => r !== 'admin')) users[role] = await addMember(backend, admin, role, `files-${role}`);
    outsider = await signUpFreshAdmin(backend, 'files-outsider');
    for (const bucket of BUCKETS) {
      ours[bucket] = `${admin.accountId}/${randomUUID()}/ours.pdf`;
      theirs[bucket] = `${outsider.accountId}/${randomUUID()}/theirs.pdf`;
      for (const [path, who] of [[ours[bucket], admin], [theirs[bucket], outsider]] as const) {
        const { error } = await who.client.storage.from(bucket).upload(path, pdf());
        if (error) throw new Error(`fixture upload ${bucket}: ${error.message}`);
      }
    }
  }, 120_000);
  afterAll(async () => {
    await backend?.stop();
  });

  const exists = async (bucket: string, path: string) =>
    (await backend.db.query('select 1 from storage.objects where bucket_id = $1 and name = $2', [bucket, path])).rows.length === 1;

  it.skipIf(skip).each(BUCKETS)('the buckets are private, 10 MB each: %s', async (bucket) => {
    const { data } = await service.storage.getBucket(bucket);
    expect(data).toMatchObject({ public: false, file_size_limit: 10 * 1024 * 1024 });
  });

  describe.skipIf(skip).each(ROLES)('%s', (role) => {
    it.each(BUCKETS)("reads the account's files in %s only when staff", async (bucket) => {
      const client = users[role].client.storage.from(bucket);
      const download = await client.download(ours[bucket]);
      const signed = await client.createSignedUrl(ours[bucket], 60);
      const listed = await client.list(ours[bucket].split('/').slice(0, 2).join('/'));
      if (READERS.includes(role)) {
        expect(download.error).toBeNull();
        expect(await download.data!.text()).toBe('%PDF-1.4 test');
        expect(signed.error).toBeNull();
        expect(listed.data!.map((e) => e.name)).toEqual(['ours.pdf']);
      } else {
        expect(download.error).toMatchObject({ statusCode: '404' });
        expect(signed.error).toMatchObject({ statusCode: '404' });
        expect(listed.data).toEqual([]);
      }
    });

    it.each(BUCKETS)("adds to the account's folder in %s only when a writer", async (bucket) => {
      const path = `${users.admin.accountId}/${randomUUID()}/${role}.pdf`;
      const { error } = await users[role].client.storage.from(bucket).upload(path, pdf());
      if (WRITERS.includes(role)) expect(error).toBeNull();
      else expect(error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
      expect(await exists(bucket, path)).toBe(WRITERS.includes(role));
    });

    it.each(BUCKETS)("removes from the account's folder in %s only when a writer", async (bucket) => {
      const path = `${users.admin.accountId}/${randomUUID()}/doomed.pdf`;
      expect((await users.admin.client.storage.from(bucket).upload(path, pdf())).error).toBeNull();
      const { data } = await users[role].client.storage.from(bucket).remove([path]);
      expect((data ?? []).map((r) => r.name)).toEqual(WRITERS.includes(role) ? [path] : []);
      expect(await exists(bucket, path)).toBe(!WRITERS.includes(role));
    });

    it.each(BUCKETS)("never reaches another account's folder in %s", async (bucket) => {
      const client = users[role].client.storage.from(bucket);
      expect((await client.download(theirs[bucket])).error).toMatchObject({ statusCode: '404' });
      expect((await client.createSignedUrl(theirs[bucket], 60)).error).toMatchObject({ statusCode: '404' });
      expect((await client.remove([theirs[bucket]])).data ?? []).toEqual([]);
      const intrusion = `${outsider.accountId}/${randomUUID()}/planted.pdf`;
      expect((await client.upload(intrusion, pdf())).error).toMatchObject({ statusCode: '403' });
      expect(await exists(bucket, intrusion)).toBe(false);
      expect(await exists(bucket, theirs[bucket])).toBe(true);
    });

    it("cannot move the account's file out of its folder", async () => {
      const path = `${users.admin.accountId}/${randomUUID()}/stay.pdf`;
      expect((await users.admin.client.storage.from('documents').upload(path, pdf())).error).toBeNull();
      const { error } = await users[role].client.storage.from('documents').move(path, `${outsider.accountId}/${randomUUID()}/moved.pdf`);
      expect(error).not.toBeNull();
      expect(await exists('documents', path)).toBe(true);
    });
  });

  it.skipIf(skip)('gives the anonymous key nothing', async () => {
    const anon = anonClient(backend).storage.from('documents');
    expect((await anon.download(ours.documents)).error).not.toBeNull();
    expect((await anon.list(users.admin.accountId)).data ?? []).toEqual([]);
    const path = `${users.admin.accountId}/${randomUUID()}/anon.pdf`;
    expect((await anon.upload(path, pdf())).error).toMatchObject({ statusCode: '403' });
    expect(await exists('documents', path)).toBe(false);
  });

  it.skipIf(skip)('refuses a type the documents bucket does not take, whoever asks', async () => {
    const { error } = await users.admin.client.storage
      .from('documents')
      .upload(`${users.admin.accountId}/${randomUUID()}/x.exe`, new Blob(['MZ'], { type: 'application/x-msdownload' }));
    expect(error).toMatchObject({ statusCode: '415' });
  });

  // Issue 30: evidence and reports took any type, HTML and SVG included, which Storage served back on its origin.
  const RUNNABLE_TYPES = ['text/html', 'image/svg+xml', 'application/javascript', 'text/javascript', 'application/xhtml+xml', 'text/xml', 'application/xml'];
  describe.skipIf(skip).each(BUCKETS)('%s takes only its own types', (bucket) => {
    it.each(RUNNABLE_TYPES)('refuses %s, even from an admin', async (type) => {
      const path = `${users.admin.accountId}/${randomUUID()}/page`;
      const { error } = await users.admin.client.storage.from(bucket).upload(path, new Blob(['<script>alert(1)</script>'], { type }));
      expect(error).toMatchObject({ statusCode: '415' });
      expect(await exists(bucket, path)).toBe(false);
    });

    it('refuses a file over 10 MB, and takes a PDF of 10 MB', async () => {
      const path = `${users.admin.accountId}/${randomUUID()}/big.pdf`;
      const big = await users.admin.client.storage.from(bucket).upload(path, new Blob([new Uint8Array(10 * 1024 * 1024 + 1)], { type: 'application/pdf' }));
      expect(big.error).toMatchObject({ statusCode: '413' });
      expect(await exists(bucket, path)).toBe(false);
      const fits = await users.admin.client.storage.from(bucket).upload(path, new Blob([new Uint8Array(10 * 1024 * 1024)], { type: 'application/pdf' }));
      expect(fits.error).toBeNull();
    });
  });

  it.skipIf(skip)('the buckets list their types', async () => {
    const types = async (bucket: string) => (await service.storage.getBucket(bucket)).data?.allowed_mime_types;
    expect(await types('evidence')).toEqual(['application/pdf', 'application/json', 'image/png', 'image/jpeg', 'text/plain']);
    expect(await types('reports')).toEqual(['application/pdf', 'text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/json', 'text/plain']);
  });
});
