// `npm run db:schema`: writes supabase/schemas/<feature>.sql, the schema as the
// migrations leave it, one file per feature (scripts/db-schema/features.ts),
// and their order into supabase/config.toml; then builds a database from the
// files and checks it has the migrated database's catalogue. Comments people
// wrote above a statement in the files are kept. See docs/schema-files.md.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPglite } from '../supabase/local/db.ts';
import { migrate } from '../supabase/local/migrate.ts';
import { readCatalogue } from './db-schema/catalogue.ts';
import { catalogueFacts, differences } from './db-schema/compare.ts';
import { applySchemaFiles, NO_MIGRATIONS, SCHEMAS_DIR, writeSchemaPaths } from './db-schema/files.ts';
import { layout, ownObjects, readComments } from './db-schema/write.ts';

const [migrated, bootstrapped] = await Promise.all([openPglite(), openPglite()]);
await migrate(migrated, { seed: false });
await migrate(bootstrapped, { migrationsDir: NO_MIGRATIONS, seed: false });
const { own, problems } = ownObjects(await readCatalogue(migrated), await readCatalogue(bootstrapped));
await bootstrapped.close();
if (problems.length > 0) {
  console.error(`the schema files cannot say:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

mkdirSync(SCHEMAS_DIR, { recursive: true });
const current = readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith('.sql'));
const kept = readComments(current.map((f) => ({ feature: f.replace(/\.sql$/, ''), text: readFileSync(join(SCHEMAS_DIR, f), 'utf8') })));
const { files, notes } = layout(own, kept);
for (const file of current) if (!files.some((f) => `${f.feature}.sql` === file)) rmSync(join(SCHEMAS_DIR, file));
for (const file of files) writeFileSync(join(SCHEMAS_DIR, `${file.feature}.sql`), file.text);
writeSchemaPaths(files.map((f) => f.feature));
console.log(`wrote ${files.length} files to supabase/schemas (${own.length} objects)`);
for (const note of notes) console.log(`  note: ${note}`);

// The same check as tests/db/schema-files.test.ts, at once.
const fromFiles = await openPglite();
try {
  await applySchemaFiles(fromFiles);
  const diff = differences(await catalogueFacts(migrated), await catalogueFacts(fromFiles));
  if (diff.length > 0) {
    console.error(`the schema files do not make the migrations' schema:\n  ${diff.join('\n  ')}`);
    process.exitCode = 1;
  } else console.log('a database built from the schema files has the migrations\' catalogue');
} finally {
  await Promise.all([fromFiles.close(), migrated.close()]);
}
if (!existsSync(SCHEMAS_DIR)) process.exitCode = 1;
