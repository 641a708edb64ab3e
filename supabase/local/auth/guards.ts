// Who is calling: the apikey gate Kong puts in front of GoTrue, then GoTrue's
// own Bearer-token checks for user and admin endpoints.
import { errors as joseErrors } from 'jose';
import type { BackendContext } from '../context.ts';
import { verifyJwt } from '../keys.ts';
import { AuthError, badRequest, forbidden, json } from './http.ts';
import { findSession, type SessionRow } from './sessions.ts';
import { findUserById, isBanned, type UserRow } from './users.ts';
import { isUuid } from './validate.ts';

export type Claims = Awaited<ReturnType<typeof verifyJwt>> & { session_id?: string };

const API_KEY_ROLES = new Set(['anon', 'service_role']);
const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);

/** Kong's key-auth: a Response refusing the request, or null to let it through. */
export async function checkApiKey(request: Request, ctx: BackendContext): Promise<Response | null> {
  const apikey = request.headers.get('apikey') ?? new URL(request.url).searchParams.get('apikey');
  if (!apikey) {
    return json({ message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' }, 401);
  }
  if (apikey === ctx.anonKey || apikey === ctx.serviceRoleKey) return null;
  try {
    const claims = await verifyJwt(apikey, ctx.jwtSecret);
    if (claims.role && API_KEY_ROLES.has(claims.role)) return null;
  } catch {
    // falls through to the refusal below
  }
  return json({ message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }, 401);
}

function bearerToken(request: Request): string {
  const header = request.headers.get('authorization') ?? '';
  const match = /^bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw new AuthError(401, 'no_authorization', 'This endpoint requires a Bearer token');
  return match[1];
}

// golang-jwt's wording, which GoTrue puts after its own prefix.
function describeJwtFailure(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'token has invalid claims: token is expired';
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return 'token signature is invalid: signature is invalid';
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `token has invalid claims: ${error.message}`;
  return 'token is malformed: could not parse the token';
}

export async function bearerClaims(request: Request, ctx: BackendContext): Promise<Claims> {
  const token = bearerToken(request);
  try {
    return (await verifyJwt(token, ctx)) as Claims;
  } catch (error) {
    throw forbidden('bad_jwt', `invalid JWT: unable to parse or verify signature, ${describeJwtFailure(error)}`);
  }
}

export interface Caller {
  claims: Claims;
  user: UserRow;
  /** Absent only for tokens minted without a session_id (e.g. by hand). */
  session: SessionRow | undefined;
}

/**
 * GoTrue's requireAuthentication + maybeLoadUserOrSession: the token must be
 * valid, its user must exist and not be banned, and its session must not have
 * been signed out.
 */
export async function requireUser(request: Request, ctx: BackendContext): Promise<Caller> {
  const claims = await bearerClaims(request, ctx);
  if (!claims.sub) throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  if (!isUuid(claims.sub)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await findUserById(ctx.db, claims.sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  // An access token issued before a ban stops working with it.
  if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
  let session: SessionRow | undefined;
  if (claims.session_id) {
    session = isUuid(claims.session_id) ? await findSession(ctx.db, claims.session_id) : undefined;
    if (!session || session.user_id !== user.id) {
      throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    }
  }
  return { claims, user, session };
}

export async function requireAdmin(request: Request, ctx: BackendContext): Promise<Claims> {
  const claims = await bearerClaims(request, ctx);
  if (!claims.role || !ADMIN_ROLES.has(claims.role)) throw forbidden('not_admin', 'User not allowed');
  return claims;
}
