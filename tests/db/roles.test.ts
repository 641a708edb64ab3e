// Member administration and account settings are admins' alone: members,
// auditors, suppliers and clients are refused by the database itself, each
// signed in with their own token. (Table by table, the whole matrix is
// role-matrix.test.ts; the attacks of issue 15, role-attacks.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, invoke, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';
import { ROLES, uniqueEmail } from '../support/accounts.ts';

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;
const members: Record<string, Member> = {};

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'role-admin');
  for (const role of NON_ADMINS) members[role] = await addMember(backend, admin, role);
});
afterAll(async () => backend?.stop());

const userState = async (userId: string) =>
  (await service.from('users').select('role, is_active, account_id').eq('id', userId).single()).data;

const NON_ADMINS = ROLES.filter((role) => role !== 'admin');
const readsAuditLog = (role: string) => role === 'auditor';

const refused = (result: { error: unknown; data: unknown[] | null }) => result.error !== null || (result.data ?? []).length === 0;

for (const role of NON_ADMINS) {
  describe(`a ${role}`, () => {
    const me = () => members[role];
    const colleague = () => members[role === 'client' ? 'auditor' : 'client'];

    it(readsAuditLog(role) ? 'reads the audit log' : 'cannot read the audit log, though the account has one', async () => {
      const { count } = await service.from('audit_logs').select('id', { count: 'exact', head: true }).eq('account_id', admin.accountId);
      expect(count).toBeGreaterThan(0);
      const { data } = await me().client.from('audit_logs').select('*');
      expect(data ?? []).toHaveLength(readsAuditLog(role) ? count! : 0);
    });

    it("cannot change another user's role or activation", async () => {
      const before = await userState(colleague().userId);
      expect(refused(await me().client.from('users').update({ role: 'admin' }).eq('id', colleague().userId).select())).toBe(true);
      expect(refused(await me().client.from('users').update({ is_active: false }).eq('id', colleague().userId).select())).toBe(true);
      expect(refused(await me().client.from('users').update({ role: 'client' }).eq('id', admin.userId).select())).toBe(true);
      expect(await userState(colleague().userId)).toEqual(before);
      expect((await userState(admin.userId))?.role).toBe('admin');
    });

    it('cannot promote itself or move itself to another account', async () => {
      expect(refused(await me().client.from('users').update({ role: 'admin' }).eq('id', me().userId).select())).toBe(true);
      expect(refused(await me().client.from('users').update({ account_id: admin.accountId }).eq('id', me().userId).select())).toBe(true);
      expect((await userState(me().userId))?.role).toBe(role);
      // Its own name is its own to edit.
      const renamed = await me().client.from('users').update({ first_name: 'Renamed' }).eq('id', me().userId).select('first_name');
      expect(renamed.error).toBeNull();
      expect(renamed.data).toEqual([{ first_name: 'Renamed' }]);
    });

    it('cannot see invitations (their tokens), invite users or manage roles', async () => {
      const { data } = await me().client.from('user_invitations').select('*');
      expect(data ?? []).toEqual([]);
      const inserted = await me().client.from('user_invitations').insert({ account_id: me().accountId, email: 'x@y.test', token: 'e'.repeat(64) }).select();
      expect(inserted.error).not.toBeNull();
      const invite = await invoke(me().client, 'invite-user', { email: uniqueEmail('nope'), role: 'admin' });
      expect(invite).toEqual({ status: 403, body: { error: 'Only administrators can invite users' } });
      const manage = await invoke(me().client, 'manage-user-role', { user_id: me().userId, new_role: 'admin' });
      expect(manage).toEqual({ status: 403, body: { error: 'Only administrators can manage users' } });
    });

    it('cannot change account or website settings', async () => {
      const before = (await service.from('accounts').select('name, description').eq('id', admin.accountId).single()).data;
      expect(refused(await me().client.from('accounts').update({ name: 'Taken over' }).eq('id', me().accountId).select())).toBe(true);
      expect(refused(await me().client.from('accounts').update({ description: 'Defaced' }).eq('id', me().accountId).select())).toBe(true);
      expect((await service.from('accounts').select('name, description').eq('id', admin.accountId).single()).data).toEqual(before);
    });

    const staff = role === 'member' || role === 'auditor';
    it(staff ? 'reads its colleagues' : 'reads only its own user row, none of its colleagues', async () => {
      const { data: users } = await me().client.from('users').select('id');
      expect(users?.map((u) => u.id)).toEqual(staff ? expect.arrayContaining([admin.userId, me().userId]) : [me().userId]);
      expect(users).toHaveLength(staff ? 5 : 1);
    });

    it(role === 'member' ? 'works with the business records' : 'cannot create business records', async () => {
      const lead = await me().client.from('leads').insert({ account_id: me().accountId, name: 'Lead', email: 'l@x.test', company: 'Co' }).select('status');
      if (role === 'member') {
        expect(lead.error).toBeNull();
        expect(lead.data).toEqual([{ status: 'new' }]);
      } else {
        expect(lead.error?.message).toMatch(/row-level security/);
      }
    });
  });
}

describe('an admin', () => {
  it("changes other users' roles and activation, but not their own", async () => {
    const target = members.supplier;
    const promoted = await admin.client.from('users').update({ role: 'member' }).eq('id', target.userId).select('role');
    expect(promoted.data).toEqual([{ role: 'member' }]);
    await admin.client.from('users').update({ role: 'supplier' }).eq('id', target.userId);
    const self = await admin.client.from('users').update({ role: 'client' }).eq('id', admin.userId).select();
    expect(self.error?.message).toMatch(/own role/);
    const selfOff = await admin.client.from('users').update({ is_active: false }).eq('id', admin.userId).select();
    expect(selfOff.error?.message).toMatch(/own role or status/);
    expect((await userState(admin.userId))).toMatchObject({ role: 'admin', is_active: true });
  });

  it('of a non-master account cannot change website settings, but can change account settings', async () => {
    const { data: master } = await service.from('accounts').select('id').order('created_at').order('id').limit(1).single();
    expect(master?.id).not.toBe(admin.accountId);
    const website = await admin.client.from('accounts').update({ description: 'Not mine to set' }).eq('id', admin.accountId).select();
    expect(website.error?.message).toBe('Only the master account admin can update website settings');
    const account = await admin.client.from('accounts').update({ name: 'Renamed Co', country: 'FR' }).eq('id', admin.accountId).select('name, country');
    expect(account.data).toEqual([{ name: 'Renamed Co', country: 'FR' }]);
    // Billing fields are not an admin's to set.
    const billing = await admin.client.from('accounts').update({ subscription_status: 'active' }).eq('id', admin.accountId).select();
    expect(billing.error).not.toBeNull();
  });

  it('of the master account (the earliest created) changes website settings', async () => {
    const masterAdmin = await signUpFreshAdmin(backend, 'master');
    // Backdate it to make it the earliest account: only the service role may.
    await service.from('accounts').update({ created_at: '2000-01-01T00:00:00Z' }).eq('id', masterAdmin.accountId);
    const { data } = await masterAdmin.client
      .from('accounts')
      .update({ name: 'Master Co', billing_email: 'hello@master.test', description: 'The best hub' })
      .eq('id', masterAdmin.accountId)
      .select('description');
    expect(data).toEqual([{ description: 'The best hub' }]);
    const { data: site } = await (await import('./support/backend.ts')).anonClient(backend).rpc('get_public_site_info').maybeSingle();
    expect(site).toEqual({ name: 'Master Co', contact_email: 'hello@master.test', description: 'The best hub' });
  });
});

describe('a deactivated user', () => {
  // Their token still verifies until it expires (the app checks it without the
  // auth server, decision 024), but deactivation ended its session: the
  // database answers it nothing, not even their own row, and the app signs them out.
  it('reads nothing with their old token, not even their own users row', async () => {
    const member = await addMember(backend, admin, 'member');
    expect((await member.client.from('users').select('id')).data!.length).toBeGreaterThan(1);
    await service.from('users').update({ is_active: false }).eq('id', member.userId);
    const { data: rows } = await member.client.from('users').select('id, is_active');
    expect(rows).toEqual([]);
    expect((await member.client.from('accounts').select('id')).data).toEqual([]);
    expect((await member.client.from('audit_logs').select('id')).data).toEqual([]);
    const write = await member.client.from('users').update({ first_name: 'Still here' }).eq('id', member.userId).select();
    expect(refused(write)).toBe(true);
  });
});
