// auth.users and auth.identities: reading, creating and shaping users the way
// GoTrue's API returns them.
import type { Queryable } from '../db.ts';

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  email_change_token_new: string | null;
  email_change_token_current: string | null;
  email_change_confirm_status: number | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  phone: string | null;
  phone_confirmed_at: Date | null;
  banned_until: Date | null;
  is_anonymous: boolean;
}

interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
  email: string | null;
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, confirmed_at, invited_at,
  confirmation_sent_at, recovery_sent_at, email_change, email_change_sent_at, email_change_token_new,
  email_change_token_current, email_change_confirm_status, last_sign_in_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at, phone, phone_confirmed_at,
  banned_until, is_anonymous`;

export async function findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(`select ${USER_COLUMNS} from auth.users where id = $1`, [id]);
  return rows[0];
}

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where lower(email) = lower($1) and deleted_at is null`,
    [email],
  );
  return rows[0];
}

export async function findUserByConfirmationToken(q: Queryable, token: string): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(`select ${USER_COLUMNS} from auth.users where confirmation_token = $1`, [
    token,
  ]);
  return rows[0];
}

export async function findUserByEmailChangeToken(q: Queryable, token: string): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where email_change_token_new = $1 or email_change_token_current = $1`,
    [token],
  );
  return rows[0];
}

export async function findUserByRecoveryToken(q: Queryable, token: string): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(`select ${USER_COLUMNS} from auth.users where recovery_token = $1`, [token]);
  return rows[0];
}

export function isBanned(user: UserRow): boolean {
  return user.banned_until !== null && user.banned_until.getTime() > Date.now();
}

export interface NewUser {
  /** Admins may choose the id; otherwise the database makes one. */
  id?: string;
  email: string;
  passwordHash: string | null;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
  confirmed: boolean;
  confirmationToken?: string;
  bannedUntil?: Date | null;
}

/**
 * A plain insert, so the project's triggers on auth.users run (and can refuse
 * the user) inside the caller's transaction; then the user's email identity.
 */
export async function insertUser(q: Queryable, user: NewUser): Promise<UserRow> {
  const { rows } = await q.query<UserRow>(
    `insert into auth.users (id, instance_id, aud, role, email, encrypted_password, email_confirmed_at,
       confirmation_token, confirmation_sent_at, raw_app_meta_data, raw_user_meta_data, banned_until,
       created_at, updated_at)
     values (coalesce($8::uuid, gen_random_uuid()), '00000000-0000-0000-0000-000000000000', 'authenticated',
       'authenticated', $1, $2, case when $3::boolean then now() end, $4::text,
       case when $4::text is not null then now() end, $5::jsonb, $6::jsonb, $7, now(), now())
     returning ${USER_COLUMNS}`,
    [
      user.email,
      user.passwordHash,
      user.confirmed,
      user.confirmationToken ?? null,
      JSON.stringify(user.appMetadata),
      JSON.stringify(user.userMetadata),
      user.bannedUntil ?? null,
      user.id ?? null,
    ],
  );
  const created = rows[0];
  await q.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
     values ($1::text, $2::uuid, $3::jsonb, 'email', now(), now())`,
    [created.id, created.id, JSON.stringify(emailIdentityData(created))],
  );
  return created;
}

function emailIdentityData(user: UserRow): Record<string, unknown> {
  return { sub: user.id, email: user.email, email_verified: user.email_confirmed_at !== null, phone_verified: false };
}

/** Keeps the email identity in step after the address or its confirmation changes. */
export async function syncEmailIdentity(q: Queryable, user: UserRow): Promise<void> {
  await q.query(
    `update auth.identities set identity_data = identity_data || $2::jsonb, updated_at = now()
     where user_id = $1 and provider = 'email'`,
    [user.id, JSON.stringify(emailIdentityData(user))],
  );
}

export async function confirmEmail(q: Queryable, userId: string): Promise<UserRow> {
  const { rows } = await q.query<UserRow>(
    `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()), confirmation_token = null,
       updated_at = now()
     where id = $1 returning ${USER_COLUMNS}`,
    [userId],
  );
  await syncEmailIdentity(q, rows[0]);
  return rows[0];
}

/** Returns the user as it is now; the project's migrations may watch last_sign_in_at. */
export async function markSignedIn(q: Queryable, userId: string): Promise<UserRow> {
  const { rows } = await q.query<UserRow>(
    `update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1 returning ${USER_COLUMNS}`,
    [userId],
  );
  await q.query(`update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = 'email'`, [
    userId,
  ]);
  return rows[0];
}

export interface UserChanges {
  email?: string;
  emailConfirmed?: boolean;
  passwordHash?: string;
  /** Merged into the stored metadata; keys set to null are removed (GoTrue's rule). */
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  /** undefined: unchanged; null: lift the ban. */
  bannedUntil?: Date | null;
  role?: string;
  /** `currentToken`: the link for the current address too (secure e-mail change). */
  emailChange?: { address: string; token: string; currentToken?: string } | null;
}

/** SQL for `column || $n` where keys the patch sets to null are removed (GoTrue's merge rule). */
function mergedMetadata(column: 'raw_user_meta_data' | 'raw_app_meta_data', param: number): string {
  return `(select coalesce(jsonb_object_agg(key, value) filter (where value <> 'null'::jsonb), '{}'::jsonb)
    from jsonb_each(coalesce(${column}, '{}'::jsonb) || $${param}::jsonb))`;
}

export async function updateUser(q: Queryable, userId: string, changes: UserChanges): Promise<UserRow> {
  const sets: string[] = [];
  const params: unknown[] = [userId];
  const set = (column: string, value: unknown, cast = '') => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (changes.email !== undefined) set('email', changes.email);
  if (changes.emailConfirmed === true) sets.push('email_confirmed_at = coalesce(email_confirmed_at, now())');
  if (changes.emailConfirmed === false) sets.push('email_confirmed_at = null');
  if (changes.passwordHash !== undefined) {
    set('encrypted_password', changes.passwordHash);
    // As GoTrue: links mailed before a password change no longer count.
    sets.push('confirmation_token = null', 'recovery_token = null');
    if (changes.emailChange === undefined) sets.push('email_change_token_new = null, email_change_token_current = null');
  }
  if (changes.userMetadata !== undefined) {
    params.push(JSON.stringify(changes.userMetadata));
    sets.push(`raw_user_meta_data = ${mergedMetadata('raw_user_meta_data', params.length)}`);
  }
  if (changes.appMetadata !== undefined) {
    params.push(JSON.stringify(changes.appMetadata));
    sets.push(`raw_app_meta_data = ${mergedMetadata('raw_app_meta_data', params.length)}`);
  }
  if (changes.bannedUntil !== undefined) set('banned_until', changes.bannedUntil);
  if (changes.role !== undefined) set('role', changes.role);
  if (changes.emailChange === null) {
    sets.push(
      'email_change = null, email_change_token_new = null, email_change_token_current = null',
      'email_change_sent_at = null, email_change_confirm_status = 0',
    );
  } else if (changes.emailChange !== undefined) {
    set('email_change', changes.emailChange.address);
    set('email_change_token_new', changes.emailChange.token);
    set('email_change_token_current', changes.emailChange.currentToken ?? null);
    sets.push('email_change_sent_at = now(), email_change_confirm_status = 0');
  }
  sets.push('updated_at = now()');
  const { rows } = await q.query<UserRow>(
    `update auth.users set ${sets.join(', ')} where id = $1 returning ${USER_COLUMNS}`,
    params,
  );
  if (changes.email !== undefined || changes.emailConfirmed !== undefined) await syncEmailIdentity(q, rows[0]);
  return rows[0];
}

export async function listUsers(
  q: Queryable,
  page: number,
  perPage: number,
): Promise<{ users: UserRow[]; total: number }> {
  const { rows } = await q.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where deleted_at is null order by created_at desc, id
     limit $1 offset $2`,
    [perPage, (page - 1) * perPage],
  );
  const count = await q.query<{ total: string | number }>(
    `select count(*) as total from auth.users where deleted_at is null`,
  );
  return { users: rows, total: Number(count.rows[0].total) };
}

export async function deleteUser(q: Queryable, userId: string): Promise<boolean> {
  const { rows } = await q.query(`delete from auth.users where id = $1 returning id`, [userId]);
  return rows.length > 0;
}

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : undefined);

async function loadIdentities(q: Queryable, userId: string): Promise<IdentityRow[]> {
  const { rows } = await q.query<IdentityRow>(
    `select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
     from auth.identities where user_id = $1 order by created_at`,
    [userId],
  );
  return rows;
}

/** The user object of GoTrue's API (models.User's JSON), identities included. */
export async function userJson(q: Queryable, user: UserRow): Promise<Record<string, unknown>> {
  const identities = await loadIdentities(q, user.id);
  return {
    id: user.id,
    aud: user.aud ?? '',
    role: user.role ?? '',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? '',
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change ?? undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: identities.map((identity) => ({
      identity_id: identity.id,
      id: identity.provider_id,
      user_id: identity.user_id,
      identity_data: identity.identity_data,
      provider: identity.provider,
      last_sign_in_at: iso(identity.last_sign_in_at),
      created_at: iso(identity.created_at),
      updated_at: iso(identity.updated_at),
      email: identity.email ?? undefined,
    })),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    is_anonymous: user.is_anonymous,
  };
}
