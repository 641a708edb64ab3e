import { describe, expect, it } from 'vitest';
import { randomToken, tokenHash } from '../../supabase/functions/_shared/token';
import { serviceClient } from './support/backend';
import { pageText, signIn, Visitor } from './support/app';
import { uniqueEmail } from '../support/accounts';

async function demoAccountId(): Promise<string> {
  const { data, error } = await serviceClient().from('accounts').select('id').eq('name', 'OpsHub Pro').single();
  if (error) throw error;
  return data.id as string;
}

async function createInvitation(options: { role?: string; expiresInDays?: number } = {}) {
  const token = randomToken();
  const email = uniqueEmail('invitee');
  const expires = new Date(Date.now() + (options.expiresInDays ?? 7) * 86_400_000).toISOString();
  const { error } = await serviceClient()
    .from('user_invitations')
    .insert({ account_id: await demoAccountId(), email, role: options.role ?? 'supplier', token_hash: await tokenHash(token), expires_at: expires });
  if (error) throw error;
  return { token, email };
}

function toastOf(response: Response): boolean {
  return response.headers.getSetCookie().some((c) => c.startsWith('toast-session='));
}

describe('invitation acceptance', () => {
  it('shows the invited email, the role as a coloured badge and the expiry date', async () => {
    const { token, email } = await createInvitation({ role: 'auditor' });
    const response = await new Visitor().get(`/invite/${token}`);
    expect(response.status).toBe(200);
    const html = await pageText(response);
    expect(html).toContain(email);
    expect(html).toMatch(/bg-blue-100[^"]*"[^>]*>Auditor</); // auditor is blue
    expect(html).toContain('Expires');
    expect(html).toContain('Create Account');
    expect(html).toContain('Already have an account? Sign In');
  });

  it('refuses mismatched and weak passwords with the spec texts, keeping the names', async () => {
    const { token } = await createInvitation();
    const mismatch = await new Visitor().post(`/invite/${token}`, {
      first_name: 'Grace',
      last_name: 'Hopper',
      password: 'abcdef',
      confirm_password: 'abcdeg',
    });
    expect(mismatch.status).toBe(400);
    const mismatchHtml = await pageText(mismatch);
    expect(mismatchHtml).toContain('Password Mismatch');
    expect(mismatchHtml).toContain('Passwords do not match');
    expect(mismatchHtml).toContain('value="Grace"');

    const weak = await new Visitor().post(`/invite/${token}`, { password: 'abc', confirm_password: 'abc' });
    expect(weak.status).toBe(400);
    const weakHtml = await pageText(weak);
    expect(weakHtml).toContain('Weak Password');
    expect(weakHtml).toContain('Password must be at least 6 characters long');
  });

  it('creates the account once, with the invited role, signs the new user in, and then the token is spent', async () => {
    const { token, email } = await createInvitation({ role: 'supplier' });
    const invitee = new Visitor();
    const accepted = await invitee.post(`/invite/${token}`, {
      first_name: 'Sam',
      last_name: 'Supplier',
      password: 'supplier-pass',
      confirm_password: 'supplier-pass',
    });
    // Signed in at once, on the home of the invited role (a supplier is outside the company: its own page).
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get('Location')).toBe('/portal');
    expect(toastOf(accepted)).toBe(true);
    expect(invitee.names().some((name) => /^sb-.+-auth-token/.test(name))).toBe(true);
    const home = await pageText(await invitee.follow(accepted));
    expect(home).toContain('Account Created');
    expect(home).toContain('Your account has been created successfully. Welcome!');
    expect(home).toContain('Your quotes');
    expect(home).toContain('Supplier Account');
    expect(home).toContain('Sam Supplier');
    expect(home).not.toContain('href="/settings/users"');
    // The password chosen is the one to sign in with from now on.
    await signIn({ email, password: 'supplier-pass' });

    const again = await new Visitor().get(`/invite/${token}`);
    expect(again.status).toBe(302);
    expect(again.headers.get('Location')).toBe('/auth');
    // Posting the spent token again: the function refuses, and the page itself
    // is no longer valid, so the visitor is sent to /auth with the toast.
    const reuse = await new Visitor().post(`/invite/${token}`, { password: 'another-pass', confirm_password: 'another-pass' });
    expect(reuse.status).toBe(302);
    expect(reuse.headers.get('Location')).toBe('/auth');
    const { count } = await serviceClient().from('users').select('id', { count: 'exact', head: true }).eq('email', email);
    expect(count).toBe(1);
  });

  it('sends expired and unknown tokens to /auth with Invalid Invitation', async () => {
    const { token } = await createInvitation({ expiresInDays: -1 });
    for (const candidate of [token, randomToken(), 'short', '..%2F..%2Fetc']) {
      const response = await new Visitor().get(`/invite/${candidate}`);
      expect(response.status, candidate).toBe(302);
      expect(response.headers.get('Location'), candidate).toBe('/auth');
      expect(toastOf(response), candidate).toBe(true);
    }
  });
});
