// The invitation flow and role management through /functions/v1 with
// supabase-js: invite-user, accept-invitation (valid, expired, used, unknown,
// raced) and manage-user-role.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  addMember, anonClient, invitationTokenFor, invoke, PASSWORD, serviceClient, signInAs, signUpFreshAdmin, startBackend, type Member, type TestBackend,
} from './support/backend.ts';
import { uniqueEmail } from '../support/accounts.ts';

const INVALID = { error: 'This invitation is invalid or has expired.' };

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'inviter');
});
afterAll(async () => backend?.stop());

async function inviteAndGetToken(email: string, role?: string): Promise<string> {
  const result = await invoke(admin.client, 'invite-user', { email, ...(role ? { role } : {}) });
  expect(result.status).toBe(201);
  return invitationTokenFor(backend, email);
}

describe('invite-user', () => {
  it('creates a 7-day invitation, defaulting to member, and mails the /invite/<token> link', async () => {
    const email = uniqueEmail('newbie');
    const result = await invoke<{ invitation: { email: string; role: string; expires_at: string } }>(
      admin.client, 'invite-user', { email: email.toUpperCase(), first_name: 'New', last_name: 'Bie' });
    expect(result.status).toBe(201);
    expect(result.body.invitation).toMatchObject({ email, role: 'member' });
    const days = (new Date(result.body.invitation.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    const token = await invitationTokenFor(backend, email);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const { data } = await service.from('user_invitations').select('token_hash, invited_by').eq('email', email).single();
    expect(data).toEqual({ token_hash: createHash('sha256').update(token).digest('hex'), invited_by: admin.userId });
  });

  it("builds the mail's subject from a single-line, length-limited account name", async () => {
    const owner = await signUpFreshAdmin(backend, 'phisher');
    // A name that would break the subject's line is refused where it is written (issue 30, item 2).
    const injected = await owner.client.from('accounts').update({ name: 'Acme\r\nBcc: victim@example.test' }).eq('id', owner.accountId);
    expect(injected.error?.code).toBe('23514');
    const name = `Acme Bcc: victim@example.test URGENT: reset your password at evil.example ${'x'.repeat(80)}`;
    const { error } = await owner.client.from('accounts').update({ name }).eq('id', owner.accountId);
    expect(error).toBeNull();
    const email = uniqueEmail('subject');
    expect((await invoke(owner.client, 'invite-user', { email })).status).toBe(201);
    const mails = (await (await fetch(`${backend.url}/_outbox`)).json()) as { to: string; subject: string }[];
    const subject = mails.filter((m) => m.to === email).at(-1)!.subject;
    expect(subject).not.toMatch(/\p{Cc}/u);
    expect(subject.startsWith("You're invited to join Acme Bcc: victim@example.test URGENT")).toBe(true);
    expect(subject.length).toBeLessThanOrEqual("You're invited to join ".length + 60);
    expect(subject.endsWith('…')).toBe(true);
  });

  it('refuses an email already pending or already a user of the account', async () => {
    const email = uniqueEmail('twice');
    await inviteAndGetToken(email);
    expect(await invoke(admin.client, 'invite-user', { email })).toEqual({
      status: 409, body: { error: 'An invitation is already pending for this email' },
    });
    expect(await invoke(admin.client, 'invite-user', { email: admin.email })).toEqual({
      status: 409, body: { error: 'This email already belongs to a user of this account' },
    });
  });

  it('answers clear 4xx errors for bad input and missing authorization', async () => {
    expect((await invoke(admin.client, 'invite-user', { email: 'not-an-email' })).status).toBe(400);
    expect((await invoke(admin.client, 'invite-user', { email: uniqueEmail('r'), role: 'owner' })).body).toEqual({
      error: 'Role must be one of admin, member, auditor, supplier, client',
    });
    const anonymous = await invoke(anonClient(backend), 'invite-user', { email: uniqueEmail('anon') });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toHaveProperty('error');
    const raw = await fetch(`${backend.url}/functions/v1/invite-user`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${backend.anonKey}`, apikey: backend.anonKey, 'Content-Type': 'application/json' },
      body: '{not json',
    });
    expect(raw.status).toBe(400);
    expect(JSON.stringify(await raw.json())).not.toMatch(/at .*\.ts/);
  });
});

describe('accept-invitation', () => {
  it('creates the user in the inviting account with the invited role; sign-in then works', async () => {
    const email = uniqueEmail('joiner');
    const token = await inviteAndGetToken(email, 'auditor');
    const result = await invoke(anonClient(backend), 'accept-invitation', { token, password: PASSWORD, first_name: 'Jo', last_name: 'Iner' });
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ user: { email }, role: 'auditor' });
    const member = await signInAs(backend, email);
    expect(member).toMatchObject({ accountId: admin.accountId, role: 'auditor' });
    const { data: me } = await member.client.from('users').select('first_name, last_name').eq('id', member.userId).single();
    expect(me).toEqual({ first_name: 'Jo', last_name: 'Iner' });
    const { data: invitation } = await service.from('user_invitations').select('accepted_at').eq('token_hash', createHash('sha256').update(token).digest('hex')).single();
    expect(invitation!.accepted_at).not.toBeNull();
  });

  it('refuses an already accepted invitation', async () => {
    const email = uniqueEmail('again');
    const token = await inviteAndGetToken(email);
    expect((await invoke(anonClient(backend), 'accept-invitation', { token, password: PASSWORD })).status).toBe(201);
    expect(await invoke(anonClient(backend), 'accept-invitation', { token, password: 'another-pass' })).toEqual({ status: 410, body: INVALID });
  });

  it('refuses an expired invitation and creates no user', async () => {
    const email = uniqueEmail('late');
    const token = await inviteAndGetToken(email);
    await service.from('user_invitations').update({ expires_at: new Date(Date.now() - 60_000).toISOString() }).eq('token_hash', createHash('sha256').update(token).digest('hex'));
    expect(await invoke(anonClient(backend), 'accept-invitation', { token, password: PASSWORD })).toEqual({ status: 410, body: INVALID });
    const { data } = await service.from('users').select('id').eq('email', email);
    expect(data).toEqual([]);
  });

  it('refuses a wrong token', async () => {
    expect(await invoke(anonClient(backend), 'accept-invitation', { token: 'a'.repeat(64), password: PASSWORD })).toEqual({ status: 404, body: INVALID });
    expect(await invoke(anonClient(backend), 'accept-invitation', { token: "'; drop table users; --", password: PASSWORD })).toEqual({ status: 404, body: INVALID });
  });

  it('refuses a password shorter than 6 characters', async () => {
    const token = await inviteAndGetToken(uniqueEmail('weak'));
    expect(await invoke(anonClient(backend), 'accept-invitation', { token, password: '12345' })).toEqual({
      status: 400, body: { error: 'Password must be at least 6 characters long' },
    });
  });

  it('lets exactly one of two simultaneous acceptances succeed', async () => {
    const email = uniqueEmail('racer');
    const token = await inviteAndGetToken(email, 'supplier');
    const results = await Promise.all([
      invoke(anonClient(backend), 'accept-invitation', { token, password: 'first-pass' }),
      invoke(anonClient(backend), 'accept-invitation', { token, password: 'second-pass' }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(201);
    expect(statuses[1]).toBeGreaterThanOrEqual(400);
    expect(results.find((r) => r.status !== 201)?.body).toEqual(INVALID);
    const { data } = await service.from('users').select('role').eq('email', email);
    expect(data).toEqual([{ role: 'supplier' }]);
  });
});

describe('the invitation mail', () => {
  it('says who invited them (the admin by name) to which company', async () => {
    const email = uniqueEmail('named');
    await inviteAndGetToken(email);
    const { data: account } = await service.from('accounts').select('name').eq('id', admin.accountId).single();
    const mails = (await (await fetch(`${backend.url}/_outbox`)).json()) as { to: string; text: string }[];
    const text = mails.filter((m) => m.to === email).at(-1)!.text;
    expect(text).toContain(`inviter Tester has invited you to join ${account!.name} on OpsHub Pro as member.`);
  });
});

describe('renew-invitation (Resend, Copy link)', () => {
  const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
  const pending = async (email: string) =>
    (await service.from('user_invitations').select('id, token_hash, expires_at').eq('email', email).single()).data!;

  it('resends: a new link is mailed, the old one stops working, the new one is accepted', async () => {
    const email = uniqueEmail('resend');
    const oldToken = await inviteAndGetToken(email);
    const before = await pending(email);
    await service.from('user_invitations').update({ expires_at: new Date(Date.now() + 86_400_000).toISOString() }).eq('id', before.id);
    const result = await invoke<{ invitation: { id: string; email: string }; link?: string }>(
      admin.client, 'renew-invitation', { invitation_id: before.id, send: true });
    expect(result.status).toBe(200);
    expect(result.body.invitation).toMatchObject({ id: before.id, email });
    expect(result.body.link).toBeUndefined();
    const newToken = await invitationTokenFor(backend, email);
    expect(newToken).not.toBe(oldToken);
    const after = await pending(email);
    expect(after.token_hash).toBe(hashOf(newToken));
    // Seven days again from now.
    expect(new Date(after.expires_at).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(await invoke(anonClient(backend), 'accept-invitation', { token: oldToken, password: PASSWORD })).toEqual({ status: 404, body: INVALID });
    expect((await invoke(anonClient(backend), 'accept-invitation', { token: newToken, password: PASSWORD })).status).toBe(201);
    const { data: audit } = await service.from('audit_logs').select('action, user_id').eq('resource_id', before.id).eq('action', 'invitation_renewed');
    expect(audit).toEqual([{ action: 'invitation_renewed', user_id: admin.userId }]);
  });

  it('copies: the new link is answered to the admin and nothing is mailed', async () => {
    const email = uniqueEmail('copy');
    await inviteAndGetToken(email);
    const { id } = await pending(email);
    const mailsBefore = ((await (await fetch(`${backend.url}/_outbox`)).json()) as { to: string }[]).filter((m) => m.to === email).length;
    const result = await invoke<{ link: string }>(admin.client, 'renew-invitation', { invitation_id: id, send: false });
    expect(result.status).toBe(200);
    const token = /\/invite\/([0-9a-f]{64})$/.exec(result.body.link)?.[1];
    expect(token).toBeDefined();
    expect((await pending(email)).token_hash).toBe(hashOf(token!));
    const mailsAfter = ((await (await fetch(`${backend.url}/_outbox`)).json()) as { to: string }[]).filter((m) => m.to === email).length;
    expect(mailsAfter).toBe(mailsBefore);
  });

  it("refuses non-admins, another account's invitation and an accepted one, alike", async () => {
    const email = uniqueEmail('guarded');
    const token = await inviteAndGetToken(email);
    const { id } = await pending(email);
    const member = await addMember(backend, admin, 'member', 'renewer');
    expect(await invoke(member.client, 'renew-invitation', { invitation_id: id, send: false })).toEqual({
      status: 403, body: { error: 'Only administrators can resend invitations' },
    });
    const stranger = await signUpFreshAdmin(backend, 'stranger');
    expect((await invoke(stranger.client, 'renew-invitation', { invitation_id: id, send: false })).status).toBe(404);
    // The database refuses the same to a direct call.
    const direct = await member.client.rpc('renew_invitation', { p_invitation_id: id, p_token_hash: hashOf('x') });
    expect(direct.error?.code).toBe('42501');
    const foreign = await stranger.client.rpc('renew_invitation', { p_invitation_id: id, p_token_hash: hashOf('y') });
    expect(foreign.error?.code).toBe('P0002');
    expect((await pending(email)).token_hash).toBe(hashOf(token));
    expect((await invoke(anonClient(backend), 'accept-invitation', { token, password: PASSWORD })).status).toBe(201);
    expect((await invoke(admin.client, 'renew-invitation', { invitation_id: id, send: true })).status).toBe(404);
    expect((await invoke(admin.client, 'renew-invitation', { invitation_id: 'nope', send: true })).status).toBe(400);
  });
});

describe('manage-user-role', () => {
  it('lets an admin change a user role and names', async () => {
    const member = await addMember(backend, admin, 'client', 'managed');
    const result = await invoke<{ user: Record<string, unknown> }>(admin.client, 'manage-user-role', {
      user_id: member.userId, new_role: 'auditor', first_name: 'Mia', last_name: 'Managed',
    });
    expect(result.status).toBe(200);
    expect(result.body.user).toMatchObject({ id: member.userId, role: 'auditor', first_name: 'Mia', last_name: 'Managed' });
    expect((await service.from('users').select('role').eq('id', member.userId).single()).data).toEqual({ role: 'auditor' });
  });

  it("refuses demoting the account's last admin", async () => {
    const loneAdmin = await signUpFreshAdmin(backend, 'lone');
    expect(await invoke(loneAdmin.client, 'manage-user-role', { user_id: loneAdmin.userId, new_role: 'client' })).toEqual({
      status: 400, body: { error: "Cannot demote the account's last admin" },
    });
    expect((await service.from('users').select('role').eq('id', loneAdmin.userId).single()).data).toEqual({ role: 'admin' });
  });

  it('refuses an admin changing their own role even when another admin exists', async () => {
    const owner = await signUpFreshAdmin(backend, 'owner');
    await addMember(backend, owner, 'admin', 'coadmin');
    expect(await invoke(owner.client, 'manage-user-role', { user_id: owner.userId, new_role: 'client' })).toEqual({
      status: 403, body: { error: 'You cannot change your own role' },
    });
  });

  it("does not reach another account's users", async () => {
    const stranger = await signUpFreshAdmin(backend, 'stranger');
    expect(await invoke(stranger.client, 'manage-user-role', { user_id: admin.userId, new_role: 'client' })).toEqual({
      status: 404, body: { error: 'User not found' },
    });
    expect((await service.from('users').select('role').eq('id', admin.userId).single()).data).toEqual({ role: 'admin' });
  });

  it('validates its input', async () => {
    expect((await invoke(admin.client, 'manage-user-role', { user_id: 'nope', new_role: 'client' })).status).toBe(400);
    expect((await invoke(admin.client, 'manage-user-role', { user_id: admin.userId, new_role: 'boss' })).status).toBe(400);
  });
});

// On PostgreSQL the two requests really run at the same time on two
// connections (PGlite queues transactions), so the row lock is what decides.
describe.skipIf(!process.env.TEST_POSTGRES_URL)('accept-invitation on PostgreSQL', () => {
  let pgBackend: TestBackend;
  beforeAll(async () => {
    pgBackend = await startBackend({ on: 'postgres' });
  });
  afterAll(async () => pgBackend?.stop());

  it('lets exactly one of several simultaneous acceptances succeed', async () => {
    const owner = await signUpFreshAdmin(pgBackend, 'pg-owner');
    for (let round = 0; round < 3; round++) {
      const email = uniqueEmail('pg-racer');
      expect((await invoke(owner.client, 'invite-user', { email, role: 'client' })).status).toBe(201);
      const token = await invitationTokenFor(pgBackend, email);
      const results = await Promise.all(
        [1, 2, 3, 4].map((n) => invoke(anonClient(pgBackend), 'accept-invitation', { token, password: `password-${n}` })),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      for (const failed of results.filter((r) => r.status !== 201)) expect(failed.body).toEqual(INVALID);
      const { data } = await serviceClient(pgBackend).from('users').select('role').eq('email', email);
      expect(data).toEqual([{ role: 'client' }]);
    }
  });
});
