// The invitation's link and mail, shared by invite-user (a new invitation) and
// renew-invitation (a new link for a pending one: resent, or copied by the admin).
import type { FunctionDeps } from './deps.ts';
import { type CallerProfile, callerName } from './caller.ts';
import { invitationMessage } from './mail.ts';

export const INVITATION_DAYS = 7;

export function invitationLink(deps: FunctionDeps, token: string): string {
  return `${deps.siteUrl.replace(/\/+$/, '')}/invite/${token}`;
}

export async function mailInvitation(
  deps: FunctionDeps,
  caller: CallerProfile,
  invitation: { email: string; role: string; expires_at: string },
  token: string,
): Promise<void> {
  const { data: account } = await deps.admin.from('accounts').select('name').eq('id', caller.account_id).single();
  await deps.mailer.send(
    invitationMessage({
      to: invitation.email,
      inviterName: callerName(caller),
      accountName: account?.name ?? 'OpsHub',
      role: invitation.role,
      link: invitationLink(deps, token),
      expiresAt: invitation.expires_at,
    }),
  );
}
