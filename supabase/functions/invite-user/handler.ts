// invite-user {email, role, first_name, last_name}: an admin invites someone
// into their account. Creates the invitation (32-byte random token, of which
// the database keeps only the sha256; 7 days) and mails the /invite/<token> link.
import type { FunctionHandler } from '../_shared/deps.ts';
import { requireAdminCaller } from '../_shared/caller.ts';
import { HttpError, json, postHandler, readJsonObject } from '../_shared/http.ts';
import { INVITATION_DAYS, mailInvitation } from '../_shared/invitation.ts';
import { randomToken, tokenHash } from '../_shared/token.ts';
import { optionalName, parseRole, requireEmail } from '../_shared/validate.ts';

const handler: FunctionHandler = postHandler('invite-user', async (request, deps) => {
  const body = await readJsonObject(request);
  const caller = await requireAdminCaller(request, deps, 'Only administrators can invite users');
  const email = requireEmail(body.email);
  const role = parseRole(body.role, 'member');
  const firstName = optionalName(body.first_name, 'First name');
  const lastName = optionalName(body.last_name, 'Last name');

  const { data: member, error: memberError } = await deps.admin
    .from('users')
    .select('id')
    .eq('account_id', caller.account_id)
    .eq('email', email)
    .maybeSingle();
  if (memberError) throw new Error(`checking members: ${memberError.message}`);
  if (member) throw new HttpError(409, 'This email already belongs to a user of this account');

  const { data: pending, error: pendingError } = await deps.admin
    .from('user_invitations')
    .select('id')
    .eq('account_id', caller.account_id)
    .eq('email', email)
    .is('accepted_at', null)
    .gt('expires_at', new Date().toISOString())
    .limit(1);
  if (pendingError) throw new Error(`checking invitations: ${pendingError.message}`);
  if (pending.length > 0) throw new HttpError(409, 'An invitation is already pending for this email');

  // Inserted as the caller, so RLS (admins invite into their own account)
  // applies and the audit row names them.
  const caller_client = deps.asCaller(request.headers.get('Authorization'));
  const token = randomToken();
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000).toISOString();
  const { data: invitation, error: insertError } = await caller_client
    .from('user_invitations')
    .insert({
      account_id: caller.account_id,
      email,
      role,
      first_name: firstName,
      last_name: lastName,
      // Only the hash is stored: the token itself is in the mail alone.
      token_hash: await tokenHash(token),
      invited_by: caller.id,
      expires_at: expiresAt,
    })
    .select('id, email, role, first_name, last_name, expires_at')
    .single();
  if (insertError || !invitation) throw new HttpError(403, insertError?.message ?? 'Failed to send invitation');

  try {
    await mailInvitation(deps, caller, invitation, token);
  } catch (error) {
    // No mail, no invitation: withdraw it so the admin can simply retry.
    await deps.admin.from('user_invitations').delete().eq('id', invitation.id);
    console.error('[invite-user] mail failed:', error instanceof Error ? error.message : String(error));
    throw new HttpError(502, 'Failed to send invitation email');
  }

  return json({ invitation }, 201);
});

export default handler;
