// Input checks with GoTrue's messages and error codes.
import { AuthError, badRequest, unprocessable } from './http.ts';

export const MIN_PASSWORD_LENGTH = 6;
// bcrypt only reads the first 72 bytes; GoTrue refuses longer passwords.
const MAX_PASSWORD_LENGTH = 72;

// The same shape checkmail (GoTrue's validator) accepts: local@domain.tld.
const EMAIL_FORMAT =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** Returns the address lower-cased, as GoTrue stores it. */
export function validateEmail(email: string | undefined): string {
  if (!email) throw badRequest('validation_failed', 'An email address is required');
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long');
  if (!EMAIL_FORMAT.test(email)) {
    throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
  }
  return email.toLowerCase();
}

export function checkPasswordStrength(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new AuthError(422, 'weak_password', `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`, {
      weak_password: { reasons: ['length'] },
    });
  }
  if (new TextEncoder().encode(password).length > MAX_PASSWORD_LENGTH) {
    throw unprocessable('validation_failed', `Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters`);
  }
}

const UUID_FORMAT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_FORMAT.test(value);
}

const DURATION_UNITS_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * A ban_duration as GoTrue reads it (Go's time.ParseDuration: "876000h",
 * "1h30m", "90s"), in milliseconds; 'none' lifts a ban and yields null.
 */
export function parseBanDuration(value: string): number | null {
  if (value === 'none') return null;
  const parts = [...value.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
  const consumed = parts.map((p) => p[0]).join('');
  if (parts.length === 0 || consumed !== value) {
    throw badRequest('validation_failed', `invalid format for ban duration: time: invalid duration "${value}"`);
  }
  return parts.reduce((total, [, amount, unit]) => total + Number(amount) * DURATION_UNITS_MS[unit], 0);
}
