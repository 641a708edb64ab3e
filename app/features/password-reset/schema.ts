// The password reset forms: the address to mail the link to, and the new
// password (typed twice). The profile's password change uses the same pair.
import { z } from '~/lib/schemas/zod';
import { confirmPasswordField, newPasswordField, sameTwice } from '~/lib/schemas/passwords';

export const forgotPasswordSchema = z.object({
  email: z.email({ error: (issue) => (issue.input ? 'Enter a valid email address' : 'Email is required') }).max(254),
});

export const newPasswordFields = {
  password: newPasswordField({ max: 72, tooLong: 'Password must be at most 72 characters long' }),
  confirm_password: confirmPasswordField,
};

export const newPasswordSchema = sameTwice(z.object(newPasswordFields));
