// Sessions, rotating refresh tokens and the access tokens GoTrue issues.
import { randomBytes } from 'node:crypto';
import type { BackendContext } from '../context.ts';
import type { Queryable } from '../db.ts';
import { signAccessJwt } from '../keys.ts';
import { type UserRow, userJson } from './users.ts';

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: Date;
  not_after: Date | null;
  aal: string;
}

export interface RefreshTokenRow {
  id: string;
  token: string;
  user_id: string;
  session_id: string;
  parent: string | null;
  revoked: boolean;
  updated_at: Date;
}

/** How the session was signed in: the amr claim's method (GoTrue's names). */
export type SignInMethod = 'password' | 'otp' | 'email/signup' | 'email_change' | 'recovery' | 'magiclink';

function newTokenValue(): string {
  return randomBytes(16).toString('base64url');
}

export async function findSession(q: Queryable, sessionId: string): Promise<SessionRow | undefined> {
  const { rows } = await q.query<SessionRow>(
    `select id, user_id, created_at, not_after, aal from auth.sessions where id = $1`,
    [sessionId],
  );
  return rows[0];
}

/** A fresh session with its first refresh token. */
export async function createSession(
  q: Queryable,
  userId: string,
  method: SignInMethod,
  userAgent: string | null,
): Promise<{ sessionId: string; refreshToken: string }> {
  const { rows } = await q.query<{ id: string }>(
    `insert into auth.sessions (user_id, aal, user_agent, created_at, updated_at) values ($1, 'aal1', $2, now(), now())
     returning id`,
    [userId, userAgent],
  );
  const sessionId = rows[0].id;
  await q.query(`insert into auth.mfa_amr_claims (session_id, authentication_method) values ($1, $2)`, [
    sessionId,
    method,
  ]);
  const refreshToken = await issueRefreshToken(q, userId, sessionId, null);
  return { sessionId, refreshToken };
}

export async function issueRefreshToken(
  q: Queryable,
  userId: string,
  sessionId: string,
  parent: string | null,
): Promise<string> {
  const token = newTokenValue();
  await q.query(
    `insert into auth.refresh_tokens (token, user_id, session_id, parent, revoked, created_at, updated_at)
     values ($1, $2, $3, $4, false, now(), now())`,
    [token, userId, sessionId, parent],
  );
  return token;
}

/** Locks the token's row, so two refreshes with one token cannot both rotate it. */
export async function findRefreshTokenForUpdate(q: Queryable, token: string): Promise<RefreshTokenRow | undefined> {
  const { rows } = await q.query<RefreshTokenRow>(
    `select id::text as id, token, user_id, session_id, parent, revoked, updated_at
     from auth.refresh_tokens where token = $1 for update`,
    [token],
  );
  return rows[0];
}

/** The session's newest unrevoked token: what a lost refresh response carried. */
export async function findActiveRefreshToken(q: Queryable, sessionId: string): Promise<RefreshTokenRow | undefined> {
  const { rows } = await q.query<RefreshTokenRow>(
    `select id::text as id, token, user_id, session_id, parent, revoked, updated_at
     from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1`,
    [sessionId],
  );
  return rows[0];
}

/** Rotation: the presented token is revoked and its child issued in the same session. */
export async function rotateRefreshToken(q: Queryable, current: RefreshTokenRow): Promise<string> {
  await q.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`, [current.id]);
  await q.query(`update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1`, [
    current.session_id,
  ]);
  return issueRefreshToken(q, current.user_id, current.session_id, current.token);
}

/** GoTrue's reuse detection: a stolen token's whole family stops working. */
export async function revokeSessionTokens(q: Queryable, sessionId: string): Promise<void> {
  await q.query(
    `update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked`,
    [sessionId],
  );
}

export async function deleteSession(q: Queryable, sessionId: string): Promise<void> {
  await q.query(`delete from auth.sessions where id = $1`, [sessionId]);
}

export async function deleteUserSessions(q: Queryable, userId: string, keepSessionId?: string): Promise<void> {
  if (keepSessionId) {
    await q.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [userId, keepSessionId]);
  } else {
    await q.query(`delete from auth.sessions where user_id = $1`, [userId]);
  }
}

async function amrClaims(q: Queryable, sessionId: string): Promise<{ method: string; timestamp: number }[]> {
  const { rows } = await q.query<{ authentication_method: string; created_at: Date }>(
    `select authentication_method, created_at from auth.mfa_amr_claims where session_id = $1 order by created_at`,
    [sessionId],
  );
  return rows.map((row) => ({
    method: row.authentication_method,
    timestamp: Math.floor(row.created_at.getTime() / 1000),
  }));
}

function issuer(ctx: BackendContext): string {
  return `${ctx.url.replace(/\/+$/, '')}/auth/v1`;
}

/** The access token, with GoTrue's claims (AccessTokenClaims). */
export async function signAccessToken(
  ctx: BackendContext,
  q: Queryable,
  user: UserRow,
  sessionId: string,
  issuedAt: number,
): Promise<string> {
  return signAccessJwt(
    {
      iss: issuer(ctx),
      sub: user.id,
      aud: user.aud ?? 'authenticated',
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      role: user.role ?? 'authenticated',
      aal: 'aal1',
      amr: await amrClaims(q, sessionId),
      session_id: sessionId,
      is_anonymous: user.is_anonymous,
    },
    ctx,
    ctx.jwtExpiry,
    issuedAt,
  );
}

/** GoTrue's AccessTokenResponse: what every grant answers with. */
export async function sessionJson(
  ctx: BackendContext,
  q: Queryable,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
): Promise<Record<string, unknown>> {
  const issuedAt = Math.floor(Date.now() / 1000);
  return {
    access_token: await signAccessToken(ctx, q, user, sessionId, issuedAt),
    token_type: 'bearer',
    expires_in: ctx.jwtExpiry,
    expires_at: issuedAt + ctx.jwtExpiry,
    refresh_token: refreshToken,
    user: await userJson(q, user),
  };
}
