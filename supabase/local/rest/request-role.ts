// Who is asking: the JWT in `Authorization: Bearer` (else the `apikey` header),
// verified with the project's secret (HS256) or signing key (ES256). Its `role` claim becomes the database
// role of the request, as PostgREST does; only Supabase's API roles qualify.
import { type JwtKeys, verifyJwt } from '../keys.ts';
import { RestError } from './errors.ts';

export const API_ROLES = new Set(['anon', 'authenticated', 'service_role']);

export interface RequestRole {
  role: string;
  claims: Record<string, unknown>;
}

function jwtError(error: unknown, token: string): RestError {
  const code = (error as { code?: string }).code;
  const parts = token.split('.').length;
  let message = 'JWSError JWSInvalidSignature';
  if (code === 'ERR_JWT_EXPIRED') {
    return new RestError(401, 'PGRST303', 'JWT expired');
  }
  if (parts !== 3) message = `Expected 3 parts in JWT; got ${parts}`;
  else if (code === 'ERR_JWS_INVALID' || code === 'ERR_JWT_INVALID') message = 'JWT is malformed';
  else if (code === 'ERR_JOSE_ALG_NOT_ALLOWED') message = 'JWT algorithm is not allowed';
  return new RestError(401, 'PGRST301', message);
}

// The same few keys and session tokens arrive on every request: remember
// verified ones (until they expire) instead of checking the HMAC each time.
const verified = new Map<string, Record<string, unknown>>();
const MAX_REMEMBERED = 1000;

/** The token's claims, verified (and remembered until they expire); throws a PostgREST-style 401 error. */
export async function verifyRequestToken(token: string, keys: JwtKeys): Promise<Record<string, unknown>> {
  const cacheKey = `${keys.jwtSecret}\0${keys.signingKey?.kid ?? ''}\0${token}`;
  const known = verified.get(cacheKey);
  if (known && (typeof known.exp !== 'number' || known.exp > Date.now() / 1000)) return known;
  verified.delete(cacheKey);
  try {
    const claims = (await verifyJwt(token, keys)) as Record<string, unknown>;
    if (verified.size >= MAX_REMEMBERED) verified.delete(verified.keys().next().value!);
    verified.set(cacheKey, claims);
    return claims;
  } catch (error) {
    throw jwtError(error, token);
  }
}

export async function requestRole(request: Request, keys: JwtKeys): Promise<RequestRole> {
  const apikey = request.headers.get('apikey');
  const authorization = request.headers.get('authorization');
  const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  if (authorization && !bearer) throw new RestError(401, 'PGRST301', 'Authorization header is not a Bearer token');
  const token = bearer ?? apikey;
  if (!token) {
    throw new RestError(401, 'PGRST301', 'No API key found in request', { hint: 'No `apikey` request header or url param was found.' });
  }
  // Like Supabase's gateway, a present apikey must itself be a valid key.
  if (apikey && apikey !== token) await verifyRequestToken(apikey, keys);
  const claims = await verifyRequestToken(token, keys);
  const role = typeof claims.role === 'string' ? claims.role : 'anon';
  if (!API_ROLES.has(role)) throw new RestError(401, 'PGRST301', `JWT role '${role}' is not allowed`);
  return { role, claims };
}
