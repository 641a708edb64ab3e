// `npm run backend`: the local Supabase-compatible backend on its own.
// Env: PORT (54321), DATABASE_URL (PostgreSQL instead of PGlite in .data/pglite),
// JWT_SECRET, SITE_URL, QUIET=1.
import { startBackend } from './index.ts';

const backend = await startBackend({
  port: process.env.PORT ? Number(process.env.PORT) : 54321,
  databaseUrl: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATABASE_URL ? undefined : (process.env.PGLITE_DATA_DIR ?? '.data/pglite'),
  jwtSecret: process.env.JWT_SECRET || undefined,
  siteUrl: process.env.SITE_URL || undefined,
  quiet: process.env.QUIET === '1',
});

console.log(`
  Local Supabase backend: ${backend.url}   (${backend.db.kind})
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
