// A password being chosen (sign-up, an invitation, a reset, the profile's
// change) and its repetition, said the same way on every form that sets one.
// Relative imports: the unit tests load the schemas in Node.
import { z } from './zod';
import { PASSWORD_MIN_LENGTH } from '../pricing';

export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`;
export const PASSWORDS_DIFFER = 'Passwords do not match';

/**
 * At least PASSWORD_MIN_LENGTH characters. `missing`: the message for a field
 * not sent at all; `max` and `tooLong`: the longest accepted and its message.
 */
export function newPasswordField({
  missing = PASSWORD_TOO_SHORT,
  max = 200,
  tooLong = 'Password is too long',
}: { missing?: string; max?: number; tooLong?: string } = {}) {
  return z.string({ error: missing }).min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT).max(max, tooLong);
}

export const confirmPasswordField = z.string({ error: PASSWORDS_DIFFER });

interface TwoPasswords {
  password: string;
  confirm_password: string;
}

/**
 * The repetition must match, reported under it. `evenIfInvalid`: checked
 * whenever both were typed, whatever else about the form fails.
 */
export function sameTwice<Schema extends z.ZodType<TwoPasswords>>(schema: Schema, { evenIfInvalid = false } = {}) {
  return schema.refine((value) => value.password === value.confirm_password, {
    message: PASSWORDS_DIFFER,
    path: ['confirm_password'],
    ...(evenIfInvalid
      ? {
          when: (payload: { value: unknown }) => {
            const value = payload.value as Partial<Record<keyof TwoPasswords, unknown>> | undefined;
            return typeof value?.password === 'string' && typeof value.confirm_password === 'string';
          },
        }
      : {}),
  });
}
