// Sign-in, sign-up and invitation forms (docs/product-guide.md). Used by the components for
// validation in the browser and by the actions on the server.
import { z } from './zod';
import { requiredText } from './fields';
import { confirmPasswordField, newPasswordField, PASSWORD_TOO_SHORT, PASSWORDS_DIFFER, sameTwice } from './passwords';

const optionalName = z
  .string()
  .trim()
  .max(100, 'Keep it under 100 characters')
  .optional();

export const signInSchema = z.object({
  intent: z.literal('signin'),
  email: z.string({ error: 'Email is required' }).trim().min(1, 'Email is required').max(254, 'Email is too long'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200, 'Password is too long'),
  // A path of this site (safeRedirectPath checks it); no sensible one is this long.
  redirectTo: z.string().max(2048, 'Redirect path is too long').optional(),
});

/** The account's name, given at sign-up (as long as the account settings allow). */
export const COMPANY_NAME_MAX = 200;

export const signUpSchema = z.object({
  intent: z.literal('signup'),
  company_name: requiredText('Company name', COMPANY_NAME_MAX),
  first_name: optionalName,
  last_name: optionalName,
  email: z.email({ error: (issue) => (issue.input ? 'Enter a valid email address' : 'Email is required') }).max(254),
  password: newPasswordField({ missing: 'Password is required' }),
});

/** After sign-up: the same answer whether or not the address already has an account. */
export const CHECK_YOUR_EMAIL = {
  message: 'Check your email',
  description: 'Please check your email for a confirmation link.',
};

/** A confirmation link that is unknown, used or expired (GoTrue's own wording). */
export const CONFIRMATION_FAILED = {
  message: 'Sign in failed',
  description: 'Email link is invalid or has expired',
};

export const signOutSchema = z.object({ intent: z.literal('signout') });

export const authFormSchema = z.discriminatedUnion('intent', [signInSchema, signUpSchema, signOutSchema]);

// A mismatch is reported even when the password is too short (with, and before, it).
export const acceptInvitationSchema = sameTwice(
  z.object({
    first_name: optionalName,
    last_name: optionalName,
    password: newPasswordField(),
    confirm_password: confirmPasswordField,
  }),
  { evenIfInvalid: true },
);

/**
 * The invitation form's toast for a refused form, the same with and without
 * JavaScript: a mismatch first ('Password Mismatch'), else a weak password.
 */
export function invitationRefusalToast(errors: Record<string, string[] | null | undefined>): { message: string; description: string } {
  if (errors.confirm_password?.length) return { message: 'Password Mismatch', description: PASSWORDS_DIFFER };
  if (errors.password?.length) return { message: 'Weak Password', description: PASSWORD_TOO_SHORT };
  return { message: 'Error', description: 'Please check the form.' };
}
