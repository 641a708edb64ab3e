// Direct-SQL harness for the database rules: a fresh database (PGlite, or a
// throwaway database on the PostgreSQL server in TEST_POSTGRES_URL) with
// bootstrap.sql, every migration and optionally the seed (applied by the
// backend's migration runner), and a helper to run
// statements as an end user the way PostgREST does (set local role + JWT claims).
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPglite, openPostgres, type Db, type Queryable } from '../../../supabase/local/db.ts';
import { migrate, type MigrateResult } from '../../../supabase/local/migrate.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export const migrationFiles = (): string[] =>
  readdirSync(root + 'supabase/migrations').filter((f) => /^\d{14}_.+\.sql$/.test(f)).sort();

/** bootstrap + migrations + (optionally) seed, through the backend's own migration runner. */
export async function applySchema(db: Db, options: { seed?: boolean } = {}): Promise<MigrateResult> {
  return migrate(db, { seed: options.seed ?? false });
}

/**
 * A database as a kept one stood before a migration: bootstrap and every migration older than `version` (and the seed,
 * unless told not), for a test to write rows as they were; `migrate(db)` then applies the rest on them.
 */
export async function migrateBefore(db: Db, version: string, options: { seed?: boolean } = {}): Promise<void> {
  const before = mkdtempSync(join(tmpdir(), 'migrations-before-'));
  try {
    for (const file of migrationFiles().filter((f) => f < version)) cpSync(join(root, 'supabase/migrations', file), join(before, file));
    await migrate(db, { migrationsDir: before, seed: options.seed });
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
}

export const postgresUrl = process.env.TEST_POSTGRES_URL;

export interface TestDatabase {
  db: Db;
  drop(): Promise<void>;
}

export async function createPglite(): Promise<TestDatabase> {
  const db = await openPglite();
  return { db, drop: () => db.close() };
}

/** A database of its own on the PostgreSQL server, dropped afterwards. */
export async function createPostgres(url = postgresUrl!): Promise<TestDatabase> {
  const name = `ops_db_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const db = await openPostgres(target.toString());
  return {
    db,
    async drop() {
      await db.close();
      const again = new pg.Client({ connectionString: url });
      await again.connect();
      await again.query(`drop database if exists "${name}" with (force)`);
      await again.end();
    },
  };
}

/** Runs fn in a transaction as an authenticated end user, like a PostgREST request. */
export function asUser<T>(db: Db, authUserId: string, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return asRole(db, 'authenticated', { sub: authUserId, role: 'authenticated' }, fn);
}

export function asRole<T>(db: Db, role: 'anon' | 'authenticated' | 'service_role', claims: object, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)]);
    await tx.exec(`set local role ${role === 'anon' ? 'anon' : role === 'service_role' ? 'service_role' : 'authenticated'}`);
    return fn(tx);
  });
}

/** Inserts an auth user as GoTrue would; the sign-up trigger does the rest. */
export async function insertAuthUser(
  db: Queryable,
  email: string,
  options: { meta?: object; appMeta?: object } = {},
): Promise<string> {
  const id = randomUUID();
  await db.query(
    `insert into auth.users (id, email, encrypted_password, email_confirmed_at, raw_user_meta_data, raw_app_meta_data)
     values ($1, $2, 'x', now(), $3, $4)`,
    [id, email, JSON.stringify(options.meta ?? {}), JSON.stringify({ provider: 'email', ...(options.appMeta ?? {}) })],
  );
  return id;
}

export async function one<T = Record<string, unknown>>(db: Queryable, sql: string, params: unknown[] = []): Promise<T> {
  const { rows } = await db.query<T>(sql, params);
  if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}: ${sql}`);
  return rows[0];
}

/**
 * What lets an API role (anon, authenticated) read or write a relation of
 * schema public around row-level security, every relation enumerated from the
 * catalogue (so a table added by a later migration is checked without being
 * named here), one sentence per gap:
 * - a table with row-level security off;
 * - a privilege an API role holds on a table (SELECT, INSERT, UPDATE on the
 *   table or any column; DELETE) with no permissive policy for that command
 *   and role: either the grant is a mistake or the policy was forgotten;
 * - TRUNCATE granted to an API role (row-level security does not apply to it);
 * - a view an API role may read that runs with its owner's rights (not
 *   security_invoker), and a materialized view or foreign table an API role
 *   may read (no row-level security at all).
 * Tables of schema private are held to the same rules. Supabase's default
 * privileges grant all of a new table to anon and authenticated, so a table
 * created without RLS, policies and revokes shows here.
 */
export async function rowSecurityGaps(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ gap: string }>(
    // public is what the API serves; private holds what only definer functions
    // touch, and gets row-level security too, so a grant made there by mistake
    // still exposes nothing.
    `with rel as (
       select c.oid, case n.nspname when 'public' then c.relname else n.nspname || '.' || c.relname end as relname,
              c.relkind, c.relrowsecurity, coalesce(c.reloptions, '{}') as options
         from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'private') and c.relkind in ('r', 'p', 'v', 'm', 'f')),
     api(role) as (values ('anon'), ('authenticated')),
     command(name, letter) as (values ('SELECT', 'r'), ('INSERT', 'a'), ('UPDATE', 'w'), ('DELETE', 'd'))
     select format('%s: row-level security is off', rel.relname) as gap
       from rel where rel.relkind in ('r', 'p') and not rel.relrowsecurity
     union all
     select format('%s: %s may %s, and no policy says which rows', rel.relname, api.role, command.name)
       from rel cross join api cross join command
      where rel.relkind in ('r', 'p')
        and case when command.name = 'DELETE' then has_table_privilege(api.role, rel.oid, 'DELETE')
                 else has_any_column_privilege(api.role, rel.oid, command.name) end
        and not exists (
          select 1 from pg_catalog.pg_policy p
           where p.polrelid = rel.oid and p.polpermissive and p.polcmd in (command.letter, '*')
             and (0 = any (p.polroles) or (select r.oid from pg_catalog.pg_roles r where r.rolname = api.role) = any (p.polroles)))
     union all
     select format('%s: %s may TRUNCATE, which row-level security does not stop', rel.relname, api.role)
       from rel cross join api where rel.relkind in ('r', 'p') and has_table_privilege(api.role, rel.oid, 'TRUNCATE')
     union all
     select format('%s: %s may read this view, which runs with its owner''s rights (not security_invoker)', rel.relname, api.role)
       from rel cross join api
      where rel.relkind = 'v' and has_any_column_privilege(api.role, rel.oid, 'SELECT')
        and not exists (select 1 from unnest(rel.options) o where lower(o) in ('security_invoker=true', 'security_invoker=on', 'security_invoker=1'))
     union all
     select format('%s: %s may read it, and row-level security does not apply to a %s', rel.relname, api.role,
                   case rel.relkind when 'm' then 'materialized view' else 'foreign table' end)
       from rel cross join api where rel.relkind in ('m', 'f') and has_any_column_privilege(api.role, rel.oid, 'SELECT')
     order by 1`,
  );
  return rows.map((row) => row.gap);
}
