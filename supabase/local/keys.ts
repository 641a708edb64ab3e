// HS256 JWTs as Supabase issues them: the anon and service-role API keys, and
// the access tokens GoTrue hands out after sign-in.
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';

/** The development secret `supabase start` uses; override with JWT_SECRET. */
export const DEFAULT_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

/**
 * The development key of the app's signed audit header (x-opshub-client): the
 * local backend stores it in private.audit_signing_key at start, and
 * wrangler.toml gives the Worker the same value. Override with
 * AUDIT_SIGNING_SECRET (both sides); hosted deployments set their own.
 */
export const DEFAULT_AUDIT_SIGNING_SECRET = 'local-development-audit-signing-secret-change-me';

const encoder = new TextEncoder();

export async function signJwt(
  payload: JWTPayload,
  secret: string,
  expiresInSeconds: number,
  now = Math.floor(Date.now() / 1000),
): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(encoder.encode(secret));
}

/** Verifies signature and expiry; throws on anything else. */
export async function verifyJwt(token: string, secret: string): Promise<JWTPayload & { role?: string }> {
  const { payload } = await jwtVerify(token, encoder.encode(secret), { algorithms: ['HS256'] });
  return payload as JWTPayload & { role?: string };
}

// Fixed issue time, so the same secret always yields the same keys (as
// `supabase start`'s demo keys do) and the app's local config can name them.
const KEYS_ISSUED_AT = 1735689600; // 2025-01-01
const THIRTY_YEARS = 30 * 365 * 24 * 3600;

export async function makeApiKeys(secret: string): Promise<{ anonKey: string; serviceRoleKey: string }> {
  const [anonKey, serviceRoleKey] = await Promise.all([
    signJwt({ iss: 'supabase-demo', role: 'anon' }, secret, THIRTY_YEARS, KEYS_ISSUED_AT),
    signJwt({ iss: 'supabase-demo', role: 'service_role' }, secret, THIRTY_YEARS, KEYS_ISSUED_AT),
  ]);
  return { anonKey, serviceRoleKey };
}
