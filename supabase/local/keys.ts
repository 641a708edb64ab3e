// HS256 JWTs as Supabase issues them: the anon and service-role API keys, and
// the access tokens GoTrue hands out after sign-in.
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';

/** The development secret `supabase start` uses; override with JWT_SECRET. */
export const DEFAULT_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

const encoder = new TextEncoder();

export async function signJwt(payload: JWTPayload, secret: string, expiresInSeconds: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
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

const TEN_YEARS = 10 * 365 * 24 * 3600;

export async function makeApiKeys(secret: string): Promise<{ anonKey: string; serviceRoleKey: string }> {
  const [anonKey, serviceRoleKey] = await Promise.all([
    signJwt({ iss: 'supabase-demo', role: 'anon' }, secret, TEN_YEARS),
    signJwt({ iss: 'supabase-demo', role: 'service_role' }, secret, TEN_YEARS),
  ]);
  return { anonKey, serviceRoleKey };
}
