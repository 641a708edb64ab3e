// startTestBackend(): a backend on a fresh, fully migrated database in well
// under a second, for tests.
//
//   const backend = await startTestBackend();                 // PGlite, project migrations + seed
//   const backend = await startTestBackend({ seed: false });  // without supabase/seed.sql
//   const backend = await startTestBackend({ postgresUrl: process.env.TEST_POSTGRES_URL });
//   const backend = await startTestBackend({ migrationsDir, seedFile }); // a fixture schema
//   const backend = await startTestBackend({ restarted: true }); // kept data, started twice more
//   ... backend.url, backend.anonKey, backend.serviceRoleKey, backend.db ...
//   await backend.stop();                                     // also deletes the database
//
// The expensive part (initdb, bootstrap, migrations, seed) runs once per
// content hash of bootstrap.sql + migrations + seed:
// - PGlite: the migrated data directory is kept under .data/snapshots/<hash>/,
//   read into memory once per process, and each test backend runs PGlite on
//   an in-memory copy of it (pglite-snapshot.ts): no folder to copy or delete.
// - PostgreSQL: a template database ops_tpl_<hash> on that server; each test
//   backend gets `create database ... template ops_tpl_<hash>`, dropped on stop.
import { PGlite } from '@electric-sql/pglite';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readProjectAuthConfig } from './auth/templates.ts';
import { openPglite, openPostgres, type Db } from './db.ts';
import { type Backend, type BackendOptions, startBackend } from './index.ts';
import { BOOTSTRAP_FILE, DEFAULT_MIGRATIONS_DIR, DEFAULT_SEED_FILE, listMigrations, migrate, PROJECT_ROOT } from './migrate.ts';
import { readSnapshot, type Snapshot, SnapshotMemoryFs } from './pglite-snapshot.ts';

export interface TestBackendOptions extends Omit<BackendOptions, 'dataDir' | 'databaseUrl' | 'db' | 'skipMigrations' | 'onStop'> {
  /** A PostgreSQL server (superuser URL) to run on instead of PGlite. */
  postgresUrl?: string;
  /**
   * The state people live in rather than a fresh one: the migrated database
   * kept on disk (PGlite) or in its own database (PostgreSQL), started as
   * `npm start` starts it, stopped, and started again, each start running the
   * migrations runner on the kept data. Slower (a real data folder).
   */
  restarted?: boolean;
}

const SNAPSHOT_ROOT = join(PROJECT_ROOT, '.data/snapshots');

/** What the migrated database depends on; any change makes a new snapshot. */
function schemaHash(options: TestBackendOptions): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(BOOTSTRAP_FILE));
  for (const migration of listMigrations(options.migrationsDir ?? DEFAULT_MIGRATIONS_DIR)) {
    hash.update(`\0${migration.version}_${migration.name}\0`);
    hash.update(readFileSync(migration.file));
  }
  const seedFile = options.seedFile ?? DEFAULT_SEED_FILE;
  if (options.seed !== false && existsSync(seedFile)) hash.update('\0seed\0').update(readFileSync(seedFile));
  return hash.digest('hex').slice(0, 20);
}

// PGlite's WebAssembly, compiled once per process and shared by every instance.
let pgliteAssets: Promise<{ pgliteWasmModule: WebAssembly.Module; fsBundle: Blob }> | null = null;
function loadPgliteAssets() {
  pgliteAssets ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    return {
      pgliteWasmModule: await WebAssembly.compile(readFileSync(join(dist, 'pglite.wasm'))),
      fsBundle: new Blob([readFileSync(join(dist, 'pglite.data'))]),
    };
  })();
  return pgliteAssets;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Builds .data/snapshots/<hash> once; concurrent test workers wait for the one that builds it. */
async function ensurePgliteSnapshot(hash: string, options: TestBackendOptions): Promise<string> {
  const dir = join(SNAPSHOT_ROOT, hash);
  if (existsSync(dir)) return dir;
  mkdirSync(SNAPSHOT_ROOT, { recursive: true });
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (existsSync(dir)) return dir;
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch {
      // Someone else is building it; a lock older than 3 minutes is from a crashed run.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 180_000) rmSync(lock, { force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for the snapshot ${dir}`);
      await sleep(200);
    }
  }
  const building = `${dir}.building-${process.pid}`;
  try {
    if (existsSync(dir)) return dir;
    rmSync(building, { recursive: true, force: true });
    const db = await openPglite(building, undefined, await loadPgliteAssets());
    try {
      await migrate(db, { migrationsDir: options.migrationsDir, seedFile: options.seedFile, seed: options.seed });
    } finally {
      await db.close();
    }
    renameSync(building, dir);
    return dir;
  } finally {
    rmSync(building, { recursive: true, force: true });
    rmSync(lock, { force: true });
  }
}

// Test databases are small: 16 MB of shared buffers instead of Postgres's
// 128 MB, which PGlite zeroes on every start (about 100 ms of memset). They
// live in memory, WAL included, so a checkpoint comes after 128 MB of WAL
// rather than the default 1 GB.
const TEST_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', '-c', 'max_wal_size=128MB', '-c', 'min_wal_size=32MB'];

const snapshots = new Map<string, Promise<Snapshot>>();

async function startOnPglite(options: TestBackendOptions, hash: string): Promise<Backend> {
  let snapshot = snapshots.get(hash);
  if (!snapshot) {
    snapshot = ensurePgliteSnapshot(hash, options).then(readSnapshot);
    snapshots.set(hash, snapshot);
    snapshot.catch(() => snapshots.delete(hash));
  }
  // Reading the snapshot and compiling PGlite's WebAssembly do not wait for each other.
  const [files, assets] = await Promise.all([snapshot, loadPgliteAssets()]);
  const db = await openPglite(undefined, undefined, { ...assets, fs: new SnapshotMemoryFs(files), startParams: TEST_START_PARAMS });
  return startBackend({ ...options, port: options.port ?? 0, smtpPort: options.smtpPort ?? 0, quiet: options.quiet ?? true, db, skipMigrations: true });
}

function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

const exists = async (server: Db, name: string) =>
  (await server.query('select 1 from pg_database where datname = $1', [name])).rows.length > 0;

/** The template database of this schema hash; built under a temporary name and renamed, so racing runs are harmless. */
async function ensureTemplate(server: Db, serverUrl: string, hash: string, options: TestBackendOptions): Promise<string> {
  const template = `ops_tpl_${hash}`;
  if (await exists(server, template)) return template;
  const building = `ops_tplbuild_${randomBytes(6).toString('hex')}`;
  await server.exec(`create database ${building}`);
  try {
    const db = await openPostgres(databaseUrl(serverUrl, building));
    try {
      await migrate(db, { migrationsDir: options.migrationsDir, seedFile: options.seedFile, seed: options.seed });
    } finally {
      await db.close();
    }
    if (!(await exists(server, template))) await server.exec(`alter database ${building} rename to ${template}`);
  } catch (error) {
    if (!(await exists(server, template))) throw error;
  } finally {
    await server.exec(`drop database if exists ${building} with (force)`);
  }
  return template;
}

/** A new database `name`, a copy of this schema's template. */
async function createFromTemplate(server: Db, serverUrl: string, hash: string, options: TestBackendOptions, name: string): Promise<void> {
  const template = await ensureTemplate(server, serverUrl, hash, options);
  for (let attempt = 1; ; attempt++) {
    try {
      await server.exec(`create database ${name} template ${template}`);
      return;
    } catch (error) {
      // 55006: the template is briefly in use (another run is cloning or building it).
      if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
      await sleep(100 * attempt);
    }
  }
}

async function startOnPostgres(options: TestBackendOptions, hash: string): Promise<Backend> {
  const serverUrl = options.postgresUrl!;
  const server = await openPostgres(serverUrl);
  const name = `ops_test_${randomBytes(6).toString('hex')}`;
  try {
    await createFromTemplate(server, serverUrl, hash, options, name);
    const db = await openPostgres(databaseUrl(serverUrl, name));
    return await startBackend({
      ...options,
      port: options.port ?? 0,
      smtpPort: options.smtpPort ?? 0,
      quiet: options.quiet ?? true,
      db,
      skipMigrations: true,
      onStop: async () => {
        await server.exec(`drop database if exists ${name} with (force)`);
        await server.close();
      },
    });
  } catch (error) {
    await server.exec(`drop database if exists ${name} with (force)`).catch(() => {});
    await server.close();
    throw error;
  }
}

/**
 * On the project's own schema, auth behaves as the project's config says
 * (sign-up confirmed through the mailed link, the project's mail template);
 * a fixture schema gets GoTrue's defaults unless told otherwise.
 */
function withProjectAuth(options: TestBackendOptions): TestBackendOptions {
  if (options.migrationsDir) return options;
  const project = readProjectAuthConfig();
  return {
    ...options,
    confirmEmail: options.confirmEmail ?? project.confirmEmail,
    confirmationTemplate: options.confirmationTemplate ?? project.confirmationTemplate,
    recoveryTemplate: options.recoveryTemplate ?? project.recoveryTemplate,
    emailChangeTemplate: options.emailChangeTemplate ?? project.emailChangeTemplate,
  };
}

/** Starts on kept data twice, as two runs of `npm start` would; the second start is the one returned. */
async function startTwice(options: TestBackendOptions, where: Pick<BackendOptions, 'dataDir' | 'databaseUrl'>, onStop: () => Promise<void>) {
  const common = { ...options, ...where, port: options.port ?? 0, smtpPort: options.smtpPort ?? 0, quiet: options.quiet ?? true };
  try {
    await (await startBackend(common)).stop();
    return await startBackend({ ...common, onStop });
  } catch (error) {
    await onStop().catch(() => {});
    throw error;
  }
}

async function startRestartedOnPglite(options: TestBackendOptions, hash: string): Promise<Backend> {
  const snapshot = await ensurePgliteSnapshot(hash, options);
  const dataDir = mkdtempSync(join(tmpdir(), 'ops-hub-kept-'));
  cpSync(snapshot, dataDir, { recursive: true });
  return startTwice(options, { dataDir }, async () => rmSync(dataDir, { recursive: true, force: true }));
}

async function startRestartedOnPostgres(options: TestBackendOptions, hash: string): Promise<Backend> {
  const serverUrl = options.postgresUrl!;
  const server = await openPostgres(serverUrl);
  const name = `ops_test_${randomBytes(6).toString('hex')}`;
  const drop = async () => {
    await server.exec(`drop database if exists ${name} with (force)`);
    await server.close();
  };
  try {
    await createFromTemplate(server, serverUrl, hash, options, name);
  } catch (error) {
    await drop().catch(() => {});
    throw error;
  }
  return startTwice(options, { databaseUrl: databaseUrl(serverUrl, name) }, drop);
}

export async function startTestBackend(given: TestBackendOptions = {}): Promise<Backend> {
  const options = withProjectAuth(given);
  const hash = schemaHash(options);
  if (options.restarted) return options.postgresUrl ? startRestartedOnPostgres(options, hash) : startRestartedOnPglite(options, hash);
  return options.postgresUrl ? startOnPostgres(options, hash) : startOnPglite(options, hash);
}
