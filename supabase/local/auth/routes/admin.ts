// /admin/users: the service role manages users (supabase.auth.admin.*).
import type { BackendContext } from '../../context.ts';
import { isUniqueViolation } from '../db-errors.ts';
import { requireAdmin } from '../guards.ts';
import { AuthError, badRequest, json, notFound, optionalObject, optionalString, readBody } from '../http.ts';
import { hashPassword } from '../passwords.ts';
import { deleteUserSessions } from '../sessions.ts';
import {
  deleteUser,
  findUserByEmail,
  findUserById,
  insertUser,
  listUsers,
  type UserChanges,
  type UserRow,
  updateUser,
  userJson,
} from '../users.ts';
import { checkPasswordStrength, isUuid, parseBanDuration, validateEmail } from '../validate.ts';
import { emailTaken } from './user.ts';

export async function adminUsers(request: Request, ctx: BackendContext, userId?: string): Promise<Response> {
  await requireAdmin(request, ctx);
  if (userId === undefined) {
    if (request.method === 'GET') return list(request, ctx);
    if (request.method === 'POST') return create(request, ctx);
  } else {
    if (!isUuid(userId)) throw notFound('validation_failed', 'user_id must be an UUID');
    const user = await findUserById(ctx.db, userId);
    if (!user) throw notFound('user_not_found', 'User not found');
    if (request.method === 'GET') return json(await userJson(ctx.db, user));
    if (request.method === 'PUT') return update(request, ctx, user);
    if (request.method === 'DELETE') return remove(request, ctx, user);
  }
  throw new AuthError(405, 'method_not_allowed', 'Method Not Allowed');
}

function optionalBoolean(body: Record<string, unknown>, key: string): boolean {
  return body[key] === true;
}

function banUntil(body: Record<string, unknown>): Date | null | undefined {
  const duration = optionalString(body, 'ban_duration');
  if (duration === undefined || duration === '') return undefined;
  const ms = parseBanDuration(duration);
  return ms === null ? null : new Date(Date.now() + ms);
}

const EMAIL_PROVIDER = { provider: 'email', providers: ['email'] };

async function create(request: Request, ctx: BackendContext): Promise<Response> {
  const body = await readBody(request);
  const rawEmail = optionalString(body, 'email');
  if (!rawEmail) {
    throw badRequest('validation_failed', 'Cannot create a user without either an email or phone');
  }
  const email = validateEmail(rawEmail);
  if (await findUserByEmail(ctx.db, email)) throw emailTaken();
  const password = optionalString(body, 'password');
  if (password !== undefined) checkPasswordStrength(password);
  const passwordHash = password !== undefined ? await hashPassword(password) : null;
  const bannedUntil = banUntil(body);
  const role = optionalString(body, 'role');
  const id = optionalString(body, 'id');
  if (id !== undefined && !isUuid(id)) throw badRequest('validation_failed', 'id must be a valid UUID');

  let created: UserRow;
  try {
    created = await ctx.db.transaction(async (tx) => {
      const user = await insertUser(tx, {
        id,
        email,
        passwordHash,
        userMetadata: optionalObject(body, 'user_metadata') ?? {},
        appMetadata: { ...EMAIL_PROVIDER, ...optionalObject(body, 'app_metadata') },
        confirmed: optionalBoolean(body, 'email_confirm'),
        bannedUntil,
      });
      return role ? updateUser(tx, user.id, { role }) : user;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      if (await findUserByEmail(ctx.db, email)) throw emailTaken();
      if (id && (await findUserById(ctx.db, id))) {
        throw new AuthError(422, 'user_already_exists', 'User already exists');
      }
    }
    if (!ctx.quiet) console.error('[auth] admin user creation failed in the database:', (error as Error).message);
    throw new AuthError(500, 'unexpected_failure', 'Database error creating new user');
  }
  return json(await userJson(ctx.db, created));
}

async function list(request: Request, ctx: BackendContext): Promise<Response> {
  const url = new URL(request.url);
  const page = pageNumber(url.searchParams.get('page'), 1);
  const perPage = pageNumber(url.searchParams.get('per_page'), 50);
  const { users, total } = await listUsers(ctx.db, page, perPage);
  const lastPage = Math.ceil(total / perPage);
  const link = (target: number, rel: string) => {
    const query = new URLSearchParams({ page: String(target), per_page: String(perPage) });
    return `<${url.pathname}?${query}>; rel="${rel}"`;
  };
  const links = page < lastPage ? [link(page + 1, 'next'), link(lastPage, 'last')] : [link(lastPage, 'last')];
  const body = { users: await Promise.all(users.map((user) => userJson(ctx.db, user))), aud: 'authenticated' };
  return json(body, 200, { 'x-total-count': String(total), link: links.join(', ') });
}

function pageNumber(value: string | null, fallback: number): number {
  if (value === null || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw badRequest('validation_failed', 'Bad Pagination Parameters');
  return n;
}

async function update(request: Request, ctx: BackendContext, user: UserRow): Promise<Response> {
  const body = await readBody(request);
  const changes: UserChanges = {};
  const rawEmail = optionalString(body, 'email');
  if (rawEmail !== undefined && rawEmail.toLowerCase() !== user.email?.toLowerCase()) {
    const email = validateEmail(rawEmail);
    const holder = await findUserByEmail(ctx.db, email);
    if (holder && holder.id !== user.id) throw emailTaken();
    changes.email = email;
  }
  const password = optionalString(body, 'password');
  if (password !== undefined) {
    checkPasswordStrength(password);
    changes.passwordHash = await hashPassword(password);
  }
  if (body.email_confirm === true) changes.emailConfirmed = true;
  const userMetadata = optionalObject(body, 'user_metadata');
  if (userMetadata) changes.userMetadata = userMetadata;
  const appMetadata = optionalObject(body, 'app_metadata');
  if (appMetadata) changes.appMetadata = appMetadata;
  const bannedUntil = banUntil(body);
  if (bannedUntil !== undefined) changes.bannedUntil = bannedUntil;
  const role = optionalString(body, 'role');
  if (role) changes.role = role;

  const updated = await ctx.db.transaction(async (tx) => {
    const row = await updateUser(tx, user.id, changes);
    // As GoTrue: a password set by an admin ends all the user's sessions. (A ban
    // keeps them, but refuses the banned user's tokens while it lasts.)
    if (changes.passwordHash) await deleteUserSessions(tx, user.id);
    return row;
  });
  return json(await userJson(ctx.db, updated));
}

async function remove(request: Request, ctx: BackendContext, user: UserRow): Promise<Response> {
  const body = await readBody(request);
  try {
    if (body.should_soft_delete === true) {
      // GoTrue's soft delete: the row stays (for references) but can no longer sign in.
      await ctx.db.transaction(async (tx) => {
        await tx.query(
          `update auth.users set deleted_at = now(), email = null, phone = null, encrypted_password = null,
             confirmation_token = null, recovery_token = null, email_change = null, email_change_token_new = null,
             raw_user_meta_data = '{}'::jsonb, updated_at = now()
           where id = $1`,
          [user.id],
        );
        await tx.query(`delete from auth.identities where user_id = $1`, [user.id]);
        await deleteUserSessions(tx, user.id);
      });
    } else {
      await ctx.db.transaction((tx) => deleteUser(tx, user.id));
    }
  } catch (error) {
    if (!ctx.quiet) console.error('[auth] user deletion failed in the database:', (error as Error).message);
    throw new AuthError(500, 'unexpected_failure', 'Database error deleting user');
  }
  return json({});
}
