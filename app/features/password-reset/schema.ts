// The password reset forms: the address to mail the link to, and the new
// password (typed twice). The profile's password change uses the same pair.
import { z } from '../../lib/schemas/zod';
import { PASSWORD_MIN_LENGTH } from '../../lib/pricing';

export const forgotPasswordSchema = z.object({
  email: z.email({ error: (issue) => (issue.input ? 'Enter a valid email address' : 'Email is required') }).max(254),
});

export const newPasswordFields = {
  password: z
    .string({ error: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long` })
    .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`)
    .max(72, 'Password must be at most 72 characters long'),
  confirm_password: z.string({ error: 'Passwords do not match' }),
};

const samePasswords = (value: { password: string; confirm_password: string }) => value.password === value.confirm_password;

export const newPasswordSchema = z
  .object(newPasswordFields)
  .refine(samePasswords, { message: 'Passwords do not match', path: ['confirm_password'] });
