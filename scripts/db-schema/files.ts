// Where the schema files are and the order they apply in: supabase/config.toml's
// [db.migrations] schema_paths, as the Supabase CLI reads it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../supabase/local/db.ts';
import { migrate, PROJECT_ROOT } from '../../supabase/local/migrate.ts';

export const SCHEMAS_DIR = join(PROJECT_ROOT, 'supabase/schemas');
export const CONFIG_FILE = join(PROJECT_ROOT, 'supabase/config.toml');

/** A migrations folder that does not exist: migrate() with it runs the bootstrap and nothing else. */
export const NO_MIGRATIONS = join(SCHEMAS_DIR, 'no-migrations');

const SCHEMA_PATHS = /^schema_paths = \[([^\]]*)\]$/m;

/** The schema files in the order they apply (paths relative to the project). */
export function schemaFiles(): string[] {
  const paths = SCHEMA_PATHS.exec(readFileSync(CONFIG_FILE, 'utf8'));
  if (!paths) throw new Error('supabase/config.toml has no [db.migrations] schema_paths: run npm run db:schema');
  return [...paths[1]!.matchAll(/"\.\/([^"]+)"/g)].map((m) => join('supabase', m[1]!));
}

/** Writes the files' order into supabase/config.toml. */
export function writeSchemaPaths(features: string[]): void {
  const line = `schema_paths = [${features.map((f) => `"./schemas/${f}.sql"`).join(', ')}]`;
  const config = readFileSync(CONFIG_FILE, 'utf8');
  const next = SCHEMA_PATHS.test(config)
    ? config.replace(SCHEMA_PATHS, line)
    : config.replace(/(\[db\.seed\])/, `# The schema as it is now, one file per feature, in the order they apply\n# (docs/schema-files.md); the migrations stay the deployable history.\n[db.migrations]\n${line}\n\n$1`);
  writeFileSync(CONFIG_FILE, next);
}

/** The bootstrap (as on a new hosted project), then every schema file in order, each in one transaction. */
export async function applySchemaFiles(db: Db): Promise<void> {
  // Only the bootstrap, on a database that has not had it yet.
  await migrate(db, { migrationsDir: NO_MIGRATIONS, seed: false });
  for (const file of schemaFiles()) {
    const sql = readFileSync(join(PROJECT_ROOT, file), 'utf8');
    try {
      await db.transaction((tx) => tx.exec(sql));
    } catch (error) {
      throw new Error(`${file} does not apply: ${(error as Error).message}`, { cause: error });
    }
  }
}
