// accept-invitation {token, password, first_name, last_name}: creates the
// invited user's auth account. The claim itself happens in the database's
// sign-up trigger, in the same transaction as the auth user's insert, so a
// token works exactly once even when two requests race.
import type { FunctionHandler } from '../_shared/deps.ts';
import type { SupabaseClient } from '@supabase/supabase-js';
import { HttpError, json, postHandler, readJsonObject } from '../_shared/http.ts';
import { tokenHash } from '../_shared/token.ts';
import { optionalName } from '../_shared/validate.ts';

const INVALID = 'This invitation is invalid or has expired.';
const TOKEN = /^[A-Za-z0-9_-]{32,128}$/;

interface Invitation {
  id: string;
  email: string;
  role: string;
  account_id: string;
  expires_at: string;
  accepted_at: string | null;
}

async function findInvitation(admin: SupabaseClient, token: string): Promise<Invitation | null> {
  const { data, error } = await admin
    .from('user_invitations')
    .select('id, email, role, account_id, expires_at, accepted_at')
    .eq('token_hash', await tokenHash(token))
    .maybeSingle<Invitation>();
  if (error) throw new Error(`reading invitation: ${error.message}`);
  return data;
}

/** 404 for an unknown token, 410 for a used or expired one. */
function assertUsable(invitation: Invitation | null): asserts invitation is Invitation {
  if (!invitation) throw new HttpError(404, INVALID);
  if (invitation.accepted_at || new Date(invitation.expires_at).getTime() <= Date.now()) {
    throw new HttpError(410, INVALID);
  }
}

const handler: FunctionHandler = postHandler('accept-invitation', async (request, deps) => {
  const body = await readJsonObject(request);
  const token = typeof body.token === 'string' ? body.token.trim() : '';
  if (!TOKEN.test(token)) throw new HttpError(404, INVALID);
  const password = typeof body.password === 'string' ? body.password : '';
  if (password.length < 6) throw new HttpError(400, 'Password must be at least 6 characters long');
  if (password.length > 72) throw new HttpError(400, 'Password must be at most 72 characters long');
  const firstName = optionalName(body.first_name, 'First name');
  const lastName = optionalName(body.last_name, 'Last name');

  const invitation = await findInvitation(deps.admin, token);
  assertUsable(invitation);

  const user_metadata: Record<string, string> = {};
  if (firstName) user_metadata.first_name = firstName;
  if (lastName) user_metadata.last_name = lastName;
  const { data, error } = await deps.admin.auth.admin.createUser({
    email: invitation.email,
    password,
    email_confirm: true,
    user_metadata,
    app_metadata: { invitation_token: token },
  });

  if (error || !data.user) {
    // Whatever GoTrue reports, the invitation's state now says what happened:
    // claimed by a racing request, expired meanwhile, or still open.
    assertUsable(await findInvitation(deps.admin, token));
    if (error && (error.status === 422 || /already (been )?registered|exists/i.test(error.message))) {
      throw new HttpError(409, 'A user with this email address has already been registered');
    }
    console.error('[accept-invitation] createUser failed:', error?.message);
    throw new HttpError(500, 'Failed to create account');
  }

  return json({ user: { id: data.user.id, email: data.user.email }, role: invitation.role }, 201);
});

export default handler;
