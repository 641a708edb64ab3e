// Users (docs/product-guide.md): invite by email with a role (default member)
// and names; edit role and names (email locked); activate/deactivate; revoke
// a pending invitation, resend it or copy its link (both make a new link).
import { z } from '~/lib/schemas/zod';
import { DEFAULT_INVITE_ROLE, ROLES } from '~/lib/roles';
import { optionalText, requiredEmail, setActiveSchema, uuid } from '~/lib/schemas/fields';

const role = z.enum(ROLES, { error: 'Choose a role' });

export const inviteUserSchema = z.object({
  intent: z.literal('invite'),
  email: requiredEmail('Email'),
  role: role.default(DEFAULT_INVITE_ROLE),
  first_name: optionalText('First name', 100),
  last_name: optionalText('Last name', 100),
});

export const editUserSchema = z.object({
  intent: z.literal('update'),
  id: uuid,
  role,
  first_name: optionalText('First name', 100),
  last_name: optionalText('Last name', 100),
});

export const revokeInvitationSchema = z.object({ intent: z.literal('revoke'), id: uuid });

export const resendInvitationSchema = z.object({ intent: z.literal('resend'), id: uuid });
export const invitationLinkSchema = z.object({ intent: z.literal('copy-link'), id: uuid });

export const userActionSchema = z.discriminatedUnion('intent', [
  inviteUserSchema,
  editUserSchema,
  setActiveSchema,
  revokeInvitationSchema,
  resendInvitationSchema,
  invitationLinkSchema,
]);

export const USER_TEXTS = {
  restrictedTitle: 'Access Restricted',
  restricted: 'Only administrators can manage users. You need admin privileges to access this page.',
  invitedTitle: 'Invitation Sent',
  invited: (email: string) => `Invitation sent to ${email}. They will receive an email with setup instructions.`,
  inviteFailed: 'Failed to send invitation',
  updated: 'User updated successfully',
  updateFailed: 'Failed to update user',
  /** The invite or edit function did not answer at all. */
  saveFailed: 'Failed to save user',
  activated: 'User activated successfully',
  deactivated: 'User deactivated successfully',
  statusFailed: 'Failed to update user status',
  revoked: 'Invitation revoked',
  revokeFailed: 'Failed to revoke invitation',
  loadFailed: 'Failed to fetch users',
  resent: (email: string) => `Invitation resent to ${email}. The link mailed before no longer works.`,
  resendFailed: 'Failed to resend invitation',
  linkReady: 'Invitation link ready',
  linkFailed: 'Failed to create invitation link',
  linkLabel: (email: string) => `Invitation link for ${email}`,
  linkNote: 'This is a new link: the one mailed before no longer works. It expires in 7 days.',
} as const;
