// `npm run backend`: the local Supabase-compatible backend on its own.
//   --fresh   delete the local data first and begin again from fresh demo data
// Env: BACKEND_PORT (or PORT; 54321), DATABASE_URL (PostgreSQL instead of PGlite),
// PGLITE_DATA_DIR (.data/pglite), HOST (127.0.0.1; another address needs JWT_SECRET),
// JWT_SECRET, JWT_ALGORITHM (ES256, or HS256 for access tokens signed with the secret),
// AUDIT_SIGNING_SECRET, SITE_URL, QUIET=1.
import { LocalSetupError } from './data-dir.ts';
import { type PersistentBackend, startPersistentBackend } from './persistent.ts';

// BACKEND_PORT as for npm start; PORT still works. The message names whichever was set.
const portVariable = process.env.BACKEND_PORT || !process.env.PORT ? 'BACKEND_PORT' : 'PORT';
let backend: PersistentBackend;
try {
  backend = await startPersistentBackend({
    port: Number(process.env[portVariable] ?? 54321),
    portVariable,
    host: process.env.HOST || undefined,
    fresh: process.argv.includes('--fresh'),
    freshHint: 'npm run backend -- --fresh',
    jwtSecret: process.env.JWT_SECRET || undefined,
    jwtAlgorithm: process.env.JWT_ALGORITHM === 'HS256' ? 'HS256' : undefined,
    siteUrl: process.env.SITE_URL || undefined,
    quiet: process.env.QUIET === '1',
  });
} catch (error) {
  if (!(error instanceof LocalSetupError)) throw error;
  console.error(`\n  ${error.message.replaceAll('\n', '\n  ')}\n`);
  process.exit(1);
}

console.log(`
  Local Supabase backend: ${backend.url}   (${backend.db.kind}: ${backend.location})
  anon key:         ${backend.anonKey}
  service_role key: ${backend.serviceRoleKey}
  mail outbox:      ${backend.url}/_outbox
`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  await backend.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
