// The four forms that set a password (sign-up, invitation, reset, the
// profile's change) build it from app/lib/schemas/passwords.ts: each keeps
// its own words for a missing field and its own longest password.
import { describe, expect, it } from 'vitest';
import { acceptInvitationSchema, signUpSchema } from '../../app/lib/schemas/auth.ts';
import { newPasswordSchema } from '../../app/features/password-reset/schema.ts';
import { profilePasswordSchema } from '../../app/features/profile/schema.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

const SHORT = ['Password must be at least 6 characters long'];
const DIFFER = ['Passwords do not match'];
const signUp = { intent: 'signup', company_name: 'Acme', email: 'a@b.test' };
const profile = { intent: 'password', current_password: 'old-one' };

describe('new passwords', () => {
  it('sign-up: required, at least 6, at most 200', () => {
    expect(errorsOf(signUpSchema, signUp).password).toEqual(['Password is required']);
    expect(errorsOf(signUpSchema, { ...signUp, password: 'abc' }).password).toEqual(SHORT);
    expect(errorsOf(signUpSchema, { ...signUp, password: 'x'.repeat(201) }).password).toEqual(['Password is too long']);
    expect(valueOf(signUpSchema, { ...signUp, password: 'x'.repeat(200) }).password).toHaveLength(200);
  });

  it('invitation: at least 6, at most 200, a mismatch shown even beside a short one', () => {
    expect(errorsOf(acceptInvitationSchema, { confirm_password: 'x' }).password).toEqual(SHORT);
    expect(errorsOf(acceptInvitationSchema, { password: 'x'.repeat(201), confirm_password: 'x'.repeat(201) }).password)
      .toEqual(['Password is too long']);
    expect(errorsOf(acceptInvitationSchema, { password: 'abc', confirm_password: 'abd' })).toMatchObject({ password: SHORT, confirm_password: DIFFER });
    expect(errorsOf(acceptInvitationSchema, { password: 'abcdefg' }).confirm_password).toEqual(DIFFER);
    expect(valueOf(acceptInvitationSchema, { password: 'abcdefg', confirm_password: 'abcdefg' }).password).toBe('abcdefg');
  });

  for (const [name, schema, rest] of [['reset', newPasswordSchema, {}], ['profile', profilePasswordSchema, profile]] as const) {
    it(`${name}: at least 6, at most 72, a mismatch shown`, () => {
      expect(errorsOf(schema, { ...rest, confirm_password: 'x' }).password).toEqual(SHORT);
      expect(errorsOf(schema, { ...rest, password: 'x'.repeat(73), confirm_password: 'x'.repeat(73) }).password)
        .toEqual(['Password must be at most 72 characters long']);
      expect(errorsOf(schema, { ...rest, password: 'abc', confirm_password: 'abd' })).toMatchObject({ password: SHORT, confirm_password: DIFFER });
      expect(errorsOf(schema, { ...rest, password: 'abcdefg', confirm_password: 'abcdefh' }).confirm_password).toEqual(DIFFER);
      expect(valueOf(schema, { ...rest, password: 'abcdefg', confirm_password: 'abcdefg' }).password).toBe('abcdefg');
    });
  }
});
