// Brings a database to the project's schema the way `supabase db reset/push`
// does: Supabase's own objects (sql/bootstrap.sql) on a database that has
// none yet, then every migration not yet recorded in
// supabase_migrations.schema_migrations, each in its own transaction, in
// filename order; then seed.sql on a database that had no migrations before
// this run.
//
// The bootstrap runs once per database, never on a restart (decision 038): it
// grants the API roles everything in public, as a new hosted project starts,
// and the migrations then revoke what they must. Run again on kept data, it
// undid every revoke: the anon key could call service-only functions.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db.ts';

export const BOOTSTRAP_FILE = fileURLToPath(new URL('./sql/bootstrap.sql', import.meta.url));
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DEFAULT_MIGRATIONS_DIR = join(PROJECT_ROOT, 'supabase/migrations');
export const DEFAULT_SEED_FILE = join(PROJECT_ROOT, 'supabase/seed.sql');

export interface MigrateOptions {
  migrationsDir?: string;
  seedFile?: string;
  /** Run the seed on a fresh database (default true). */
  seed?: boolean;
  log?: (line: string) => void;
}

export interface MigrationFile {
  version: string;
  name: string;
  file: string;
}

export interface MigrateResult {
  applied: string[];
  seeded: boolean;
}

/** The database records migrations that the migrations folder does not have. */
export class UnknownMigrationsError extends Error {
  override name = 'UnknownMigrationsError';
  readonly versions: string[];
  constructor(versions: string[]) {
    super(`the database has migrations this checkout does not have (${versions.join(', ')}): it was made by a newer version`);
    this.versions = versions;
  }
}

/** A migration of this checkout failed (and was rolled back): a fault in the migration, not in the data. */
export class MigrationFailedError extends Error {
  override name = 'MigrationFailedError';
}

/** `20260101120000_create_books.sql` → version 20260101120000, name create_books. */
export function listMigrations(dir: string): MigrationFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const [, version, name] = /^(\d+)_(.+)\.sql$/.exec(file)!;
      return { version, name, file: join(dir, file) };
    });
}

/** Whether this database already has Supabase's own objects (a restart on kept data, a test snapshot). */
async function isBootstrapped(db: Db): Promise<boolean> {
  const { rows } = await db.query<{ present: boolean }>(
    `select to_regclass('supabase_migrations.schema_migrations') is not null as present`,
  );
  return rows[0].present;
}

/** Roles are cluster-wide on PostgreSQL: two databases bootstrapping at once may race; retry. */
async function bootstrap(db: Db): Promise<void> {
  const sql = readFileSync(BOOTSTRAP_FILE, 'utf8');
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction((tx) => tx.exec(sql));
      return;
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}

export async function migrate(db: Db, options: MigrateOptions = {}): Promise<MigrateResult> {
  const log = options.log ?? (() => {});
  if (!(await isBootstrapped(db))) await bootstrap(db);
  const done = new Set(
    (await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map((r) => r.version),
  );
  const fresh = done.size === 0;
  const migrations = listMigrations(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR);
  // As `supabase db push` refuses a remote history the local folder lacks: the
  // database was made by a newer checkout, whose schema this one cannot know.
  const known = new Set(migrations.map((m) => m.version));
  const unknown = [...done].filter((version) => !known.has(version)).sort();
  if (unknown.length > 0) throw new UnknownMigrationsError(unknown);
  const applied: string[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    const sql = readFileSync(migration.file, 'utf8');
    try {
      await db.transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query('insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)', [
          migration.version,
          migration.name,
          [sql],
        ]);
      });
    } catch (error) {
      throw new MigrationFailedError(`migration ${migration.version}_${migration.name} failed: ${(error as Error).message}`, { cause: error });
    }
    applied.push(migration.version);
    log(`applied migration ${migration.version}_${migration.name}`);
  }
  const seedFile = options.seedFile ?? DEFAULT_SEED_FILE;
  let seeded = false;
  if (fresh && options.seed !== false && existsSync(seedFile)) {
    await db.transaction((tx) => tx.exec(readFileSync(seedFile, 'utf8')));
    seeded = true;
    log(`seeded from ${seedFile}`);
  }
  return { applied, seeded };
}
