// POST /token: the password, refresh_token and pkce grants.
import type { BackendContext } from '../../context.ts';
import type { Queryable } from '../../db.ts';
import { type AuthError, badRequest, forbidden, json, notFound, optionalString, readBody } from '../http.ts';
import { passwordMatches } from '../passwords.ts';
import { isFlowStateExpired, takeFlowState, verifierMatches } from '../pkce.ts';
import {
  createSession,
  findActiveRefreshToken,
  findRefreshTokenForUpdate,
  findSession,
  revokeSessionTokens,
  rotateRefreshToken,
  type SignInMethod,
  sessionJson,
} from '../sessions.ts';
import { authSettings } from '../settings.ts';
import { findUserByEmail, findUserById, isBanned, markSignedIn } from '../users.ts';

export async function token(request: Request, ctx: BackendContext): Promise<Response> {
  const grantType = new URL(request.url).searchParams.get('grant_type');
  const body = await readBody(request);
  switch (grantType) {
    case 'password':
      return passwordGrant(request, ctx, body);
    case 'refresh_token':
      return refreshTokenGrant(ctx, body);
    case 'pkce':
      return pkceGrant(request, ctx, body);
    default:
      throw badRequest('unsupported_grant_type', 'unsupported_grant_type');
  }
}

const invalidCredentials = () => badRequest('invalid_credentials', 'Invalid login credentials');

async function passwordGrant(request: Request, ctx: BackendContext, body: Record<string, unknown>) {
  const email = optionalString(body, 'email');
  const phone = optionalString(body, 'phone');
  const password = optionalString(body, 'password') ?? '';
  if (!email && !phone) throw badRequest('validation_failed', 'missing email or phone');
  // Phone sign-in is not offered locally; such users never exist here.
  const user = email ? await findUserByEmail(ctx.db, email) : undefined;
  if (!(await passwordMatches(password, user?.encrypted_password)) || !user) throw invalidCredentials();
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
  return json(await signIn(request, ctx, user.id, 'password'));
}

/** A new session for the user; updates last_sign_in_at. */
export async function signIn(
  request: Request,
  ctx: BackendContext,
  userId: string,
  method: SignInMethod,
  q?: Queryable,
): Promise<Record<string, unknown>> {
  const run = async (tx: Queryable) => {
    const { sessionId, refreshToken } = await createSession(tx, userId, method, request.headers.get('user-agent'));
    return sessionJson(ctx, tx, await markSignedIn(tx, userId), sessionId, refreshToken);
  };
  return q ? run(q) : ctx.db.transaction(run);
}

const tokenNotFound = () => badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');

async function refreshTokenGrant(ctx: BackendContext, body: Record<string, unknown>) {
  const presented = optionalString(body, 'refresh_token');
  if (!presented) throw badRequest('validation_failed', 'refresh_token required');
  const reuseIntervalMs = authSettings(ctx).refreshTokenReuseInterval * 1000;
  // Reuse detection must commit the revocation and still refuse, so the
  // transaction returns its refusal instead of throwing it (which would roll back).
  const outcome = await ctx.db.transaction(async (tx): Promise<{ refusal: AuthError } | { session: object }> => {
    const row = await findRefreshTokenForUpdate(tx, presented);
    if (!row) return { refusal: tokenNotFound() };
    const user = await findUserById(tx, row.user_id);
    const session = await findSession(tx, row.session_id);
    if (!user || !session) return { refusal: tokenNotFound() };
    if (isBanned(user)) return { refusal: badRequest('user_banned', 'Invalid Refresh Token: User Banned') };
    if (session.not_after && session.not_after.getTime() < Date.now()) {
      return { refusal: badRequest('session_expired', 'Invalid Refresh Token: Session Expired') };
    }
    let issued: string | undefined;
    if (row.revoked) {
      const active = await findActiveRefreshToken(tx, session.id);
      if (active && active.parent === row.token) {
        // The client lost the response that rotated this token: it gets
        // that response's token again instead of a new one.
        issued = active.token;
      } else if (row.updated_at.getTime() + reuseIntervalMs < Date.now()) {
        // An older token presented after the reuse interval: likely stolen.
        await revokeSessionTokens(tx, session.id);
        return { refusal: badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used') };
      }
    }
    issued ??= await rotateRefreshToken(tx, row);
    return { session: await sessionJson(ctx, tx, user, session.id, issued) };
  });
  if ('refusal' in outcome) throw outcome.refusal;
  return json(outcome.session);
}

async function pkceGrant(request: Request, ctx: BackendContext, body: Record<string, unknown>) {
  const authCode = optionalString(body, 'auth_code');
  const verifier = optionalString(body, 'code_verifier');
  if (!authCode || !verifier) {
    throw badRequest('validation_failed', 'invalid request: both auth code and code verifier should be non-empty');
  }
  const session = await ctx.db.transaction(async (tx) => {
    // Taken (deleted) at once: an auth code works a single time.
    const flow = await takeFlowState(tx, authCode);
    if (!flow || !flow.user_id) throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    if (isFlowStateExpired(flow)) throw badRequest('flow_state_expired', 'invalid flow state, flow state has expired');
    if (!verifierMatches(flow, verifier)) {
      throw forbidden('bad_code_verifier', 'code challenge does not match previously saved code verifier');
    }
    const user = await findUserById(tx, flow.user_id);
    if (!user) throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
    return signIn(request, ctx, user.id, flow.authentication_method as SignInMethod, tx);
  });
  return json(session);
}
