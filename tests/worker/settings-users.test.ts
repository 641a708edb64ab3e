import { describe, expect, it } from 'vitest';
import { tokenHash } from '../../supabase/functions/_shared/token';
import { outbox, serviceClient } from './support/backend';
import { pageText, signIn, Visitor } from './support/app';
import { freshTeam, joinAs, profileOf, toastIn } from './support/settings';
import { DEMO_ADMIN, DEMO_AUDITOR, uniqueEmail } from '../support/accounts';

async function invitationsTo(email: string) {
  const { data, error } = await serviceClient()
    .from('user_invitations')
    .select('id, account_id, email, role, first_name, last_name, token_hash, expires_at, accepted_at')
    .eq('email', email);
  if (error) throw error;
  return data;
}

async function mailTo(email: string) {
  return (await outbox()).filter((mail) => mail.to === email);
}

/** The invitation token the mail carries (the database keeps only its hash). */
async function mailedToken(email: string): Promise<string> {
  const [mail] = await mailTo(email);
  const token = /\/invite\/([0-9a-f]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no invitation mail for ${email}`);
  return token;
}

describe('/settings/users loader', () => {
  it("shows 'Access Restricted' with the spec text to a member", async () => {
    const team = await freshTeam();
    const member = await joinAs(team.accountId, 'member');
    const response = await member.visitor.get('/settings/users');
    expect(response.status).toBe(200);
    const html = await pageText(response);
    expect(html).toContain('Access Restricted');
    expect(html).toContain('Only administrators can manage users. You need admin privileges to access this page.');
    expect(html).not.toContain(team.admin.email);
  });

  it('shows auditors the users without a button to change them, and no invitations (they carry tokens)', async () => {
    const team = await freshTeam();
    await team.admin.visitor.post('/settings/users?invite', { intent: 'invite', email: uniqueEmail('pending') });
    for (const visitor of [await signIn(DEMO_AUDITOR), team.auditor.visitor]) {
      const html = await pageText(await visitor.get('/settings/users?invite'));
      expect(html).not.toContain('Access Restricted');
      expect(html).not.toContain('Pending Invitations');
      for (const button of ['Invite User', 'aria-label="Edit ', 'aria-label="Deactivate ', 'aria-label="Revoke ', 'role="dialog"']) {
        expect(html, button).not.toContain(button);
      }
    }
    expect(await pageText(await team.auditor.visitor.get('/settings/users'))).toContain(team.admin.email);
  });

  it('lists the members newest first with role badges and active state, and the pending invitations with expiry', async () => {
    const team = await freshTeam();
    await serviceClient().from('users').update({ is_active: false }).eq('email', team.supplier.email);
    const pendingEmail = uniqueEmail('pending');
    await serviceClient().from('user_invitations').insert({
      account_id: team.accountId,
      email: pendingEmail,
      role: 'auditor',
      token_hash: await tokenHash(crypto.randomUUID()),
      expires_at: new Date(Date.UTC(2099, 4, 17, 12)).toISOString(),
    });
    const newestFirst = [team.client.email, team.supplier.email, team.auditor.email, team.admin.email];
    for (const [index, email] of newestFirst.entries()) {
      await serviceClient().from('users').update({ created_at: new Date(Date.UTC(2026, 0, 10 - index)).toISOString() }).eq('email', email);
    }
    const html = await pageText(await team.admin.visitor.get('/settings/users'));
    const list = html.slice(html.indexOf('>Users</caption>'));
    const positions = newestFirst.map((email) => list.indexOf(`>${email}<`));
    expect(positions.every((p) => p > -1)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(html).toMatch(/bg-red-100[^"]*" data-role="admin">Admin</);
    expect(html).toMatch(/bg-blue-100[^"]*" data-role="auditor">Auditor</);
    expect(html).toMatch(/bg-purple-100[^"]*" data-role="supplier">Supplier</);
    expect(html).toMatch(/bg-green-100[^"]*" data-role="client">Client</);
    expect(html).toContain('aria-label="Activate Supplier Member"');
    expect(html).toContain('aria-label="Deactivate Client Member"');
    expect(html).toContain('data-status="inactive"');
    expect(html).toContain('Pending Invitations');
    expect(html).toContain(pendingEmail);
    expect(html).toContain('May 17, 2099');
  });

  it("lists the demo account's pending invitation, not another account's people", async () => {
    const html = await pageText(await (await signIn(DEMO_ADMIN)).get('/settings/users'));
    expect(html).toContain('new.hire@opshub.test');
    expect(html).toContain('auditor@opshub.test');
    expect(html).not.toContain('admin@northwind.test');
  });
});

describe('inviting a user', () => {
  it("sends the invitation through invite-user: the spec toast, the mail in the outbox, the invitation pending (role member by default)", async () => {
    const team = await freshTeam();
    const email = uniqueEmail('invitee');
    const response = await team.admin.visitor.post('/settings/users?invite', { intent: 'invite', email, first_name: 'Ivy', last_name: 'Invitee' });
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/settings/users');
    const page = await pageText(await team.admin.visitor.follow(response));
    expect(toastIn(page)).toBe(`success: Invitation Sent — Invitation sent to ${email}. They will receive an email with setup instructions.`);
    expect(page).toContain(email);

    const [invitation] = await invitationsTo(email);
    expect(invitation).toMatchObject({ account_id: team.accountId, role: 'member', first_name: 'Ivy', last_name: 'Invitee', accepted_at: null });
    const token = await mailedToken(email);
    expect(invitation.token_hash).toBe(await tokenHash(token));

    // The invitee can accept it and lands in this account with the invited role.
    const accepted = await new Visitor().post(`/invite/${token}`, { password: 'invitee-pass', confirm_password: 'invitee-pass' });
    expect(accepted.status).toBe(302);
    expect(await profileOf(email)).toMatchObject({ account_id: team.accountId, role: 'member', is_active: true });
  });

  it('keeps the chosen role, and answers a bad email with a field error and a 400', async () => {
    const team = await freshTeam();
    const email = uniqueEmail('supplier');
    const ok = await team.admin.visitor.post('/settings/users?invite', { intent: 'invite', email, role: 'supplier' });
    expect(ok.status).toBe(302);
    expect((await invitationsTo(email))[0].role).toBe('supplier');

    const bad = await team.admin.visitor.post('/settings/users?invite', { intent: 'invite', email: 'nope', role: 'auditor', first_name: 'Kept' });
    expect(bad.status).toBe(400);
    const html = await pageText(bad);
    expect(html).toContain('Enter a valid email address');
    expect(html).toContain('value="Kept"');
    expect(html).toContain('role="dialog"');
  });

  it("shows the function's message when it refuses (a second invitation to the same email)", async () => {
    const team = await freshTeam();
    const email = uniqueEmail('twice');
    await team.admin.visitor.post('/settings/users?invite', { intent: 'invite', email });
    const again = await team.admin.visitor.post('/settings/users?invite', { intent: 'invite', email });
    expect(again.status).toBe(400);
    expect(toastIn(await pageText(again))).toContain('An invitation is already pending for this email');
    expect(await invitationsTo(email)).toHaveLength(1);
  });

  it('refuses a non-admin posting directly: the function says no and nothing is sent', async () => {
    const team = await freshTeam();
    const email = uniqueEmail('sneaky');
    const response = await team.auditor.visitor.post('/settings/users', { intent: 'invite', email, role: 'admin' });
    expect(response.status).toBe(403);
    expect(toastIn(await pageText(response))).toContain('Only administrators can manage users');
    expect(await invitationsTo(email)).toHaveLength(0);
    expect(await mailTo(email)).toHaveLength(0);
  });

  it('revokes a pending invitation after a confirmation that works without JavaScript', async () => {
    const team = await freshTeam();
    const email = uniqueEmail('revoked');
    await team.admin.visitor.post('/settings/users?invite', { intent: 'invite', email });
    const [invitation] = await invitationsTo(email);
    const confirm = await pageText(await team.admin.visitor.get(`/settings/users?revoke=${invitation.id}`));
    expect(confirm).toContain('Revoke Invitation');
    expect(confirm).toContain(`Revoke the invitation of ${email}?`);
    const response = await team.admin.visitor.post('/settings/users', { intent: 'revoke', id: invitation.id });
    expect(response.status).toBe(302);
    expect(toastIn(await pageText(await team.admin.visitor.follow(response)))).toContain('Invitation revoked');
    expect(await invitationsTo(email)).toHaveLength(0);
    expect((await new Visitor().get(`/invite/${await mailedToken(email)}`)).headers.get('Location')).toBe('/auth');
  });

  it("refuses a non-admin's revoke with the screen's restriction", async () => {
    const team = await freshTeam();
    const email = uniqueEmail('kept');
    await team.admin.visitor.post('/settings/users?invite', { intent: 'invite', email });
    const [invitation] = await invitationsTo(email);
    const response = await team.auditor.visitor.post('/settings/users', { intent: 'revoke', id: invitation.id });
    expect(response.status).toBe(403);
    expect(toastIn(await pageText(response))).toContain('Only administrators can manage users');
    expect(await invitationsTo(email)).toHaveLength(1);
  });
});

describe('resending an invitation or copying its link', () => {
  it('resends: a new link is mailed, naming who invited them to which company; the first link no longer works', async () => {
    const team = await freshTeam();
    const email = uniqueEmail('resent');
    await team.admin.visitor.post('/settings/users?invite', { intent: 'invite', email });
    const firstToken = await mailedToken(email);
    const [invitation] = await invitationsTo(email);
    const list = await pageText(await team.admin.visitor.get('/settings/users'));
    expect(list).toContain(`aria-label="Resend: invitation of ${email}"`);
    expect(list).toContain(`aria-label="Copy Link: invitation of ${email}"`);

    const response = await team.admin.visitor.post('/settings/users', { intent: 'resend', id: invitation.id });
    expect(response.status).toBe(302);
    expect(toastIn(await pageText(await team.admin.visitor.follow(response)))).toContain(`Invitation resent to ${email}`);
    const mails = await mailTo(email);
    expect(mails).toHaveLength(2);
    const { data: account } = await serviceClient().from('accounts').select('name').eq('id', team.accountId).single();
    expect(mails[1].text).toContain(`Test Admin has invited you to join ${account!.name}`);
    const newToken = /\/invite\/([0-9a-f]+)/.exec(mails[1].text)![1];
    expect(newToken).not.toBe(firstToken);
    expect((await new Visitor().get(`/invite/${firstToken}`)).headers.get('Location')).toBe('/auth');
    expect((await new Visitor().get(`/invite/${newToken}`)).status).toBe(200);
  });

  it('copies the link: shown to the admin in a read-only field (no JavaScript needed), nothing mailed', async () => {
    const team = await freshTeam();
    const email = uniqueEmail('copied');
    await team.admin.visitor.post('/settings/users?invite', { intent: 'invite', email });
    const [invitation] = await invitationsTo(email);
    const response = await team.admin.visitor.post('/settings/users', { intent: 'copy-link', id: invitation.id });
    expect(response.status).toBe(200);
    const html = await pageText(response);
    expect(html).toContain(`Invitation link for ${email}`);
    const field = /<input[^>]*id="invitation-link-[^"]+"[^>]*>/.exec(html)?.[0] ?? '';
    expect(field.toLowerCase()).toContain('readonly=""');
    const link = /value="([^"]+)"/.exec(field)![1];
    const token = /\/invite\/([0-9a-f]{64})$/.exec(link)![1];
    expect((await invitationsTo(email))[0].token_hash).toBe(await tokenHash(token));
    expect(await mailTo(email)).toHaveLength(1);
    const accepted = await new Visitor().post(`/invite/${token}`, { password: 'copied-pass', confirm_password: 'copied-pass' });
    expect(accepted.status).toBe(302);
  });

  it("refuses a non-admin's resend or copy with the screen's restriction", async () => {
    const team = await freshTeam();
    const email = uniqueEmail('guarded');
    await team.admin.visitor.post('/settings/users?invite', { intent: 'invite', email });
    const [invitation] = await invitationsTo(email);
    for (const intent of ['resend', 'copy-link']) {
      const response = await team.auditor.visitor.post('/settings/users', { intent, id: invitation.id });
      expect(response.status, intent).toBe(403);
      expect(await pageText(response)).not.toContain('/invite/');
    }
    expect(await mailTo(email)).toHaveLength(1);
  });
});

describe('editing a user', () => {
  it('opens the edit dialog with the email locked, then changes role and names through manage-user-role', async () => {
    const team = await freshTeam();
    const member = await profileOf(team.client.email);
    const dialog = await pageText(await team.admin.visitor.get(`/settings/users?edit=${member.id}`));
    expect(dialog).toContain('Edit User');
    expect(dialog).toMatch(new RegExp(`value="${team.client.email}" readOnly=""|readOnly="" [^>]*value="${team.client.email}"|value="${team.client.email}"[^>]*readonly`, 'i'));
    expect(dialog).not.toMatch(new RegExp(`name="email"[^>]*value="${team.client.email}"`));

    const response = await team.admin.visitor.post(`/settings/users?edit=${member.id}`, {
      intent: 'update',
      id: member.id,
      role: 'auditor',
      first_name: 'Renamed',
      last_name: 'Person',
      email: 'ignored@example.test',
    });
    expect(response.status).toBe(302);
    expect(toastIn(await pageText(await team.admin.visitor.follow(response)))).toContain('User updated successfully');
    const { data } = await serviceClient().from('users').select('role, first_name, last_name, email').eq('id', member.id).single();
    expect(data).toEqual({ role: 'auditor', first_name: 'Renamed', last_name: 'Person', email: team.client.email });
  });

  it("refuses non-admins and other accounts' users with the function's message", async () => {
    const team = await freshTeam();
    const other = await freshTeam();
    const target = await profileOf(team.client.email);
    const byAuditor = await team.auditor.visitor.post('/settings/users', { intent: 'update', id: target.id, role: 'admin' });
    expect(byAuditor.status).toBe(403);
    expect(toastIn(await pageText(byAuditor))).toContain('Only administrators can manage users');

    const foreign = await profileOf(other.client.email);
    const byOtherAdmin = await team.admin.visitor.post('/settings/users', { intent: 'update', id: foreign.id, role: 'admin' });
    expect(byOtherAdmin.status).toBe(400);
    expect(toastIn(await pageText(byOtherAdmin))).toContain('User not found');
    expect((await profileOf(team.client.email)).role).toBe('client');
    expect((await profileOf(other.client.email)).role).toBe('client');
  });
});

describe('activating and deactivating users', () => {
  it('locks a deactivated user out of sign-in and their existing session, and lets them back in once activated', async () => {
    const team = await freshTeam();
    const member = await joinAs(team.accountId, 'member', 'locked-out-pass');
    expect((await member.visitor.get('/dashboard')).status).toBe(200);
    const { id } = await profileOf(member.email);

    const off = await team.admin.visitor.post('/settings/users', { intent: 'set-active', id, active: 'false' });
    expect(off.status).toBe(302);
    expect(toastIn(await pageText(await team.admin.visitor.follow(off)))).toContain('User deactivated successfully');
    expect((await profileOf(member.email)).is_active).toBe(false);

    const existing = await member.visitor.get('/dashboard');
    expect(existing.status).toBe(302);
    expect(existing.headers.get('Location')).toMatch(/^\/auth/);
    const signInAgain = await new Visitor().post('/auth', { intent: 'signin', email: member.email, password: 'locked-out-pass' });
    expect(signInAgain.status).not.toBe(302);

    const on = await team.admin.visitor.post('/settings/users', { intent: 'set-active', id, active: 'true' });
    expect(toastIn(await pageText(await team.admin.visitor.follow(on)))).toContain('User activated successfully');
    const back = await signIn({ email: member.email, password: 'locked-out-pass' });
    expect((await back.get('/dashboard')).status).toBe(200);
  });

  it("answers 'Failed to update user status' to an admin on themselves and for another account's user, and refuses a non-admin", async () => {
    const team = await freshTeam();
    const other = await freshTeam();
    const client = await profileOf(team.client.email);
    const self = await profileOf(team.admin.email);
    const foreign = await profileOf(other.client.email);
    const byAuditor = await team.auditor.visitor.post('/settings/users', { intent: 'set-active', id: client.id, active: 'false' });
    expect(byAuditor.status).toBe(403);
    expect(toastIn(await pageText(byAuditor))).toContain('Only administrators can manage users');
    const attempts: [Visitor, string][] = [
      [team.admin.visitor, self.id],
      [team.admin.visitor, foreign.id],
    ];
    for (const [visitor, id] of attempts) {
      const response = await visitor.post('/settings/users', { intent: 'set-active', id, active: 'false' });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(toastIn(await pageText(response))).toContain('Failed to update user status');
    }
    for (const email of [team.client.email, team.admin.email, other.client.email]) {
      expect((await profileOf(email)).is_active).toBe(true);
    }
  });
});
