// Direct-SQL harness for the database rules: a fresh database (PGlite, or a
// throwaway database on the PostgreSQL server in TEST_POSTGRES_URL) with
// bootstrap.sql, every migration and optionally the seed (applied by the
// backend's migration runner), and a helper to run
// statements as an end user the way PostgREST does (set local role + JWT claims).
import { readdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
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
