// JWTs as Supabase issues them: the anon and service-role API keys (HS256, the
// project's shared secret, as its legacy keys are), and the access tokens
// GoTrue hands out after sign-in: ES256 with the project's signing key (kid in
// the header, public key at /auth/v1/.well-known/jwks.json) as Supabase's
// asymmetric signing keys do, or HS256 for a project without one.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  SignJWT,
  errors as joseErrors,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  type CryptoKey,
  type JWK,
  type JWTHeaderParameters,
  type JWTPayload,
} from 'jose';

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

/** The project's asymmetric signing key: access tokens are signed with it. */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** What the JWKS document publishes (as Supabase's: kty, crv, x, y, kid, alg, use, key_ops, ext). */
  publicJwk: JWK;
}

/** What verifies a token here: the shared secret (HS256) and, when the project has one, the signing key (ES256). */
export interface JwtKeys {
  jwtSecret: string;
  signingKey: SigningKey | null;
}

/**
 * Verifies signature and expiry; throws on anything else. HS256 tokens (the
 * API keys, tokens issued before the project had a signing key) verify with the
 * secret, ES256 ones with the signing key their kid names.
 */
export async function verifyJwt(token: string, keys: JwtKeys | string): Promise<JWTPayload & { role?: string }> {
  const { jwtSecret, signingKey } = typeof keys === 'string' ? { jwtSecret: keys, signingKey: null } : keys;
  const { payload } = await jwtVerify(
    token,
    (header: JWTHeaderParameters) => {
      if (header.alg === 'HS256') return encoder.encode(jwtSecret);
      if (signingKey && header.alg === 'ES256' && header.kid === signingKey.kid) return signingKey.publicKey;
      throw new joseErrors.JWSSignatureVerificationFailed();
    },
    { algorithms: signingKey ? ['HS256', 'ES256'] : ['HS256'] },
  );
  return payload as JWTPayload & { role?: string };
}

/** An access token: ES256 with the signing key when the project has one, else HS256 with the secret. */
export async function signAccessJwt(
  payload: JWTPayload,
  keys: JwtKeys,
  expiresInSeconds: number,
  now = Math.floor(Date.now() / 1000),
): Promise<string> {
  if (!keys.signingKey) return signJwt(payload, keys.jwtSecret, expiresInSeconds, now);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: keys.signingKey.kid })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresInSeconds)
    .sign(keys.signingKey.privateKey);
}

async function signingKeyOf(privateJwk: JWK & { kid: string }): Promise<SigningKey> {
  const { d: _private, ...publicPart } = privateJwk;
  const publicJwk: JWK = { ...publicPart, alg: 'ES256', use: 'sig', key_ops: ['verify'], ext: true };
  const [privateKey, publicKey] = await Promise.all([
    importJWK(privateJwk, 'ES256') as Promise<CryptoKey>,
    importJWK({ ...publicPart, alg: 'ES256' }, 'ES256') as Promise<CryptoKey>,
  ]);
  return { kid: privateJwk.kid, privateKey, publicKey, publicJwk };
}

/**
 * The project's ES256 signing key. With a file, it is read from there, or made
 * once and written there (owner-only), so sessions outlive a restart; without
 * one it lives as long as the process (tests).
 */
export async function loadOrCreateSigningKey(file?: string): Promise<SigningKey> {
  if (file && existsSync(file)) return signingKeyOf(JSON.parse(readFileSync(file, 'utf8')) as JWK & { kid: string });
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), kid: crypto.randomUUID() };
  if (file) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(privateJwk)}\n`, { mode: 0o600 });
  }
  return signingKeyOf(privateJwk);
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
