// Who a Storage request acts for, and running SQL as them. As Supabase's
// storage server does: the JWT in Authorization decides the database role,
// its claims are set for the transaction (auth.uid() in a policy reads them),
// and Postgres's policies on storage.objects decide. What the server does on
// its own behalf afterwards (writing the row it was allowed to write) runs as
// the connection's own user.
import type { Db, Queryable } from '../db.ts';
import type { JwtKeys } from '../keys.ts';
import { API_ROLES, verifyRequestToken } from '../rest/request-role.ts';
import { ERRORS } from './errors.ts';

export interface Caller {
  role: string;
  claims: Record<string, unknown>;
  /** A valid JWT was presented (storage's request.isAuthenticated). */
  authenticated: boolean;
  /** The user's id (the JWT's sub), the owner of what they upload. */
  owner: string | undefined;
}

const ANON: Caller = { role: 'anon', claims: { role: 'anon' }, authenticated: false, owner: undefined };

/**
 * `optional`: routes that also serve without a token (public buckets) treat a
 * missing or bad one as anon, as Storage's allowInvalidJwt routes do.
 */
export async function callerOf(request: Request, keys: JwtKeys, optional = false): Promise<Caller> {
  const token = (request.headers.get('authorization') ?? '').replace(/^Bearer\s+/i, '');
  if (!token && optional) return ANON;
  try {
    const claims = await verifyRequestToken(token, keys);
    const role = typeof claims.role === 'string' ? claims.role : 'anon';
    if (!API_ROLES.has(role)) throw new Error(`role ${role} is not allowed`);
    return { role, claims, authenticated: true, owner: typeof claims.sub === 'string' ? claims.sub : undefined };
  } catch (error) {
    if (optional) return ANON;
    throw ERRORS.accessDenied((error as Error).message || 'Invalid JWT');
  }
}

const SETTINGS = `select
  set_config('request.jwt.claims', $1, true),
  set_config('request.jwt.claim.sub', $2, true),
  set_config('request.jwt.claim.role', $3, true),
  set_config('request.jwt.claim.email', $4, true),
  set_config('request.method', $5, true),
  set_config('request.path', $6, true),
  set_config('storage.allow_delete_query', 'true', true),
  set_config('TimeZone', 'UTC', true),
  set_config('role', $3, true)`;

export interface CallContext {
  method: string;
  path: string;
}

/** Runs fn in one transaction as the caller; everything fn does is subject to their grants and policies. */
export function asCaller<T>(db: Db, caller: Caller, call: CallContext, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(SETTINGS, [
      JSON.stringify(caller.claims),
      caller.owner ?? '',
      caller.role,
      typeof caller.claims.email === 'string' ? caller.claims.email : '',
      call.method,
      call.path,
    ]);
    return fn(tx);
  });
}

class PermissionTested extends Error {}

/**
 * Storage's testPermission: do the write as the caller to learn whether the
 * policies allow it, then roll it back (the real write comes later, once the
 * bytes are stored).
 */
export async function testPermission(db: Db, caller: Caller, call: CallContext, fn: (tx: Queryable) => Promise<unknown>): Promise<void> {
  try {
    await asCaller(db, caller, call, async (tx) => {
      await fn(tx);
      throw new PermissionTested();
    });
  } catch (error) {
    if (!(error instanceof PermissionTested)) throw error;
  }
}

/** Runs fn in one transaction as the backend itself (Storage's superuser connection). */
export function asServer<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(`select set_config('storage.allow_delete_query', 'true', true)`);
    return fn(tx);
  });
}
