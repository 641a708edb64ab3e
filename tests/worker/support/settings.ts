// Moves the settings tests share: a fresh account with a member of any role
// (joined through a real invitation), reading what the database stored, and
// the texts a page shows (toasts, JSON parser messages, escaped values).
import { randomToken, tokenHash } from '../../../supabase/functions/_shared/token';
import { serviceClient } from './backend';
import { type Role, uniqueEmail } from '../../support/accounts';
import { signIn, signUpFreshAdmin, Visitor } from './app';

export async function profileOf(email: string): Promise<{ id: string; account_id: string; role: string; is_active: boolean }> {
  const { data, error } = await serviceClient()
    .from('users')
    .select('id, account_id, role, is_active')
    .eq('email', email)
    .single();
  if (error) throw error;
  return data as { id: string; account_id: string; role: string; is_active: boolean };
}

/** Adds a member of this role to the account, through the real invitation acceptance, and signs them in. */
export async function joinAs(accountId: string, role: Role, password = 'member-pass'): Promise<{ visitor: Visitor; email: string }> {
  const email = uniqueEmail(role);
  const token = randomToken();
  const { error } = await serviceClient().from('user_invitations').insert({
    account_id: accountId,
    email,
    role,
    token_hash: await tokenHash(token),
    first_name: role.charAt(0).toUpperCase() + role.slice(1),
    last_name: 'Member',
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  if (error) throw error;
  const accepted = await new Visitor().post(`/invite/${token}`, { password, confirm_password: password });
  if (accepted.status !== 302) throw new Error(`accepting the ${role} invitation failed: ${accepted.status}`);
  return { visitor: await signIn({ email, password }), email };
}

/** A fresh account (not the master one) with its admin and one member of each other role. */
export async function freshTeam() {
  const admin = await signUpFreshAdmin();
  const { account_id: accountId } = await profileOf(admin.email);
  const [auditor, supplier, client] = await Promise.all(
    (['auditor', 'supplier', 'client'] as const).map((role) => joinAs(accountId, role)),
  );
  return { accountId, admin, auditor, supplier, client };
}

/** The toast text of a page (root-rendered flash toast). */
export function toastIn(html: string): string | null {
  const match = /data-toast-type="(\w+)"[\s\S]*?<p class="text-sm font-semibold">([^<]*)<\/p><p class="mt-1 text-sm">([^<]*)<\/p>/.exec(html);
  return match ? `${match[1]}: ${match[2]} — ${match[3]}` : null;
}

/** What JSON.parse says about this text, in the same engine the Worker runs on. */
export function parserMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('valid JSON');
}

/** A text as React escapes it into the HTML of a page. */
export const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll("'", '&#x27;').replaceAll('<', '&lt;');
