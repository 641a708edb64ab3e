// Inbound mail's attachments in the private `helpdesk` bucket (decision 071),
// as Postgres decides them through the policy on storage.objects: staff of
// the account read, clients, suppliers, another account and the anonymous key
// read nothing, and nobody but the service role writes there.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';
import { ROLES, type Role } from '../support/accounts.ts';

const BUCKET = 'helpdesk';
const READERS: Role[] = ['admin', 'member', 'auditor'];
const file = () => new Blob(['%PDF-1.4 attachment'], { type: 'application/pdf' });

describe('the helpdesk bucket by role on pglite', () => {
  let backend: TestBackend;
  let service: SupabaseClient;
  let users: Record<Role, Member>;
  let outsider: Member;
  let ours: string;

  beforeAll(async () => {
    backend = await startBackend({ on: 'pglite' });
    service = serviceClient(backend);
    const admin = await signUpFreshAdmin(backend, 'hd-files-admin');
    users = { admin } as Record<Role, Member>;
    for (const role of ROLES.filter((r) => r !== 'admin')) users[role] = await addMember(backend, admin, role, `hd-files-${role}`);
    outsider = await signUpFreshAdmin(backend, 'hd-files-outsider');
    ours = `${admin.accountId}/${randomUUID()}/${randomUUID()}/papers.pdf`;
    const { error } = await service.storage.from(BUCKET).upload(ours, file());
    if (error) throw new Error(`fixture upload: ${error.message}`);
  }, 120_000);
  afterAll(async () => backend?.stop());

  it('is private', async () => {
    const { data } = await service.storage.getBucket(BUCKET);
    expect(data).toMatchObject({ public: false });
  });

  it.each(ROLES)("%s reads the account's attachment only when staff, and writes nothing", async (role) => {
    const storage = users[role].client.storage.from(BUCKET);
    const download = await storage.download(ours);
    if (READERS.includes(role)) expect(await download.data?.text()).toBe('%PDF-1.4 attachment');
    else expect(download.data).toBeNull();
    const upload = await storage.upload(`${users[role].accountId}/${randomUUID()}/x/forged.pdf`, file());
    expect(upload.error).not.toBeNull();
  });

  it('another account and the anonymous key read nothing', async () => {
    expect((await outsider.client.storage.from(BUCKET).download(ours)).data).toBeNull();
    expect((await anonClient(backend).storage.from(BUCKET).download(ours)).data).toBeNull();
  });
});
