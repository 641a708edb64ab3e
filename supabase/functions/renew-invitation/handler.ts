// renew-invitation {invitation_id, send}: a new link for a pending invitation
// of the admin's account, seven more days. The database keeps only the hash of
// the mailed token, so the old link cannot be shown again: a new token is
// drawn and its hash swapped in by public.renew_invitation (as the caller, so
// the database checks they are the account's admin and audits it). With
// `send` the new link is mailed (Resend); without, it is answered to the admin
// to hand over themselves (Copy link). Either way the earlier link stops working.
import type { FunctionHandler } from '../_shared/deps.ts';
import { requireAdminCaller } from '../_shared/caller.ts';
import { HttpError, json, postHandler, readJsonObject } from '../_shared/http.ts';
import { invitationLink, mailInvitation } from '../_shared/invitation.ts';
import { randomToken, tokenHash } from '../_shared/token.ts';
import { requireUuid } from '../_shared/validate.ts';

interface Renewed {
  id: string;
  email: string;
  role: string;
  first_name: string | null;
  last_name: string | null;
  expires_at: string;
}

const handler: FunctionHandler = postHandler('renew-invitation', async (request, deps) => {
  const body = await readJsonObject(request);
  const caller = await requireAdminCaller(request, deps, 'Only administrators can resend invitations');
  const invitationId = requireUuid(body.invitation_id, 'invitation_id');
  const send = body.send === true;

  const token = randomToken();
  const { data, error } = await deps
    .asCaller(request.headers.get('Authorization'))
    .rpc('renew_invitation', { p_invitation_id: invitationId, p_token_hash: await tokenHash(token) })
    .maybeSingle<Renewed>();
  if (error || !data) {
    // Another account's invitation is reported exactly like a missing or accepted one.
    if (!error || error.code === 'P0002') throw new HttpError(404, 'Invitation not found or already accepted');
    if (error.code === '42501') throw new HttpError(403, error.message);
    throw new Error(`renewing invitation: ${error.message}`);
  }

  if (!send) return json({ invitation: data, link: invitationLink(deps, token) });
  try {
    await mailInvitation(deps, caller, data, token);
  } catch (mailError) {
    console.error('[renew-invitation] mail failed:', mailError instanceof Error ? mailError.message : String(mailError));
    throw new HttpError(502, 'Failed to send invitation email');
  }
  return json({ invitation: data });
});

export default handler;
