// `npm run db:types`: writes app/lib/database.types.ts from a database migrated
// with supabase/migrations (in memory, nothing else needed). `-- --check` only
// compares, and fails when the file is stale (a migration changed the schema).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestBackend } from '../supabase/local/testing.ts';
import { generateDatabaseTypes } from '../supabase/local/typegen.ts';

export const DATABASE_TYPES_FILE = fileURLToPath(new URL('../app/lib/database.types.ts', import.meta.url));

const backend = await startTestBackend({ seed: false });
const generated = await generateDatabaseTypes(backend.db);
await backend.stop();

if (process.argv.includes('--check')) {
  const current = readFileSync(DATABASE_TYPES_FILE, 'utf8');
  if (current !== generated) {
    console.error('app/lib/database.types.ts is stale: run npm run db:types');
    process.exit(1);
  }
  console.log('app/lib/database.types.ts is up to date');
} else {
  writeFileSync(DATABASE_TYPES_FILE, generated);
  console.log('wrote app/lib/database.types.ts');
}
