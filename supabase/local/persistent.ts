// The local backend as `npm start`, `npm run dev` and `npm run backend` run it:
// kept on disk between runs (PGlite under .data/pglite, or PostgreSQL at
// DATABASE_URL), with every set-up problem said as a sentence (LocalSetupError).
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readProjectAuthConfig } from './auth/templates.ts';
import { FRESH_HINT, LocalSetupError, prepareDataDir, recordDataFormat, unreadableDataDir } from './data-dir.ts';
import { type Backend, startBackend } from './index.ts';
import { MigrationFailedError } from './migrate.ts';
import { assertPortFree } from './port.ts';

export const DEFAULT_DATA_DIR = '.data/pglite';
export const DEFAULT_STORAGE_DIR = '.data/storage';
/** The ES256 key access tokens are signed with, kept with the data so sessions outlive a restart (and go with --fresh). */
const SIGNING_KEY_FILE = 'auth-signing-key.json';

export interface PersistentBackendOptions {
  port: number;
  /** 127.0.0.1 by default; any other address needs a JWT secret of one's own. */
  host?: string;
  /** The environment variable that sets the port, named in the 'in use' message. */
  portVariable: string;
  /** Remove the data folder first: begin again from fresh demo data. */
  fresh?: boolean;
  /** The command that starts fresh, named in messages (`npm start -- --fresh`). */
  freshHint?: string;
  siteUrl?: string;
  jwtSecret?: string;
  /** 'HS256': sign access tokens with the JWT secret instead of the ES256 signing key (JWT_ALGORITHM). */
  jwtAlgorithm?: 'ES256' | 'HS256';
  /** Default: AUDIT_SIGNING_SECRET from the environment, else the development key. */
  auditSigningSecret?: string;
  quiet?: boolean;
  /** The SMTP listener's port (default: SMTP_PORT, else 54325). */
  smtpPort?: number;
  env?: NodeJS.ProcessEnv;
}

export interface PersistentBackend extends Backend {
  /** Where the data lives: a folder, or 'DATABASE_URL'. */
  location: string;
}

export async function startPersistentBackend(options: PersistentBackendOptions): Promise<PersistentBackend> {
  const env = options.env ?? process.env;
  const freshHint = options.freshHint ?? FRESH_HINT;
  await assertPortFree(options.port, options.portVariable, options.host);
  const databaseUrl = env.DATABASE_URL || undefined;
  const auditSigningSecret = options.auditSigningSecret ?? (env.AUDIT_SIGNING_SECRET || undefined);
  // As hosted with the project's config: sign-up needs the mailed link (kept in the outbox).
  const { confirmEmail, confirmationTemplate, recoveryTemplate, emailChangeTemplate } = readProjectAuthConfig();
  const storageDir = resolve(env.STORAGE_DATA_DIR || DEFAULT_STORAGE_DIR);
  // Files belong with the database that names them: a fresh start drops both.
  if (options.fresh && !databaseUrl) rmSync(storageDir, { recursive: true, force: true });
  const common = {
    storageDir,
    port: options.port,
    smtpPort: options.smtpPort ?? Number(env.SMTP_PORT || 54325),
    host: options.host,
    siteUrl: options.siteUrl,
    jwtSecret: options.jwtSecret,
    jwtAlgorithm: options.jwtAlgorithm,
    auditSigningSecret,
    quiet: options.quiet,
    confirmEmail,
    confirmationTemplate,
    recoveryTemplate,
    emailChangeTemplate,
  };
  if (databaseUrl) {
    if (options.fresh) throw new LocalSetupError('--fresh works on the PGlite data folder; with DATABASE_URL, drop and recreate that database instead.');
    // No data folder of ours: the key goes where the rest of the local state is.
    const backend = await startBackend({ ...common, databaseUrl, signingKeyFile: resolve('.data', SIGNING_KEY_FILE) });
    return Object.assign(backend, { location: 'DATABASE_URL' });
  }

  const dataDir = resolve(env.PGLITE_DATA_DIR || DEFAULT_DATA_DIR);
  prepareDataDir(dataDir, { fresh: options.fresh, freshHint });
  let backend: Backend;
  try {
    backend = await startBackend({ ...common, dataDir, signingKeyFile: join(dataDir, SIGNING_KEY_FILE) });
  } catch (error) {
    // The port was free a moment ago; anything else here is the folder's content.
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new LocalSetupError(`Port ${options.port} is in use: set ${options.portVariable} to another port`);
    if (error instanceof MigrationFailedError || error instanceof LocalSetupError) throw error;
    throw unreadableDataDir(dataDir, error, freshHint);
  }
  recordDataFormat(dataDir);
  return Object.assign(backend, { location: dataDir });
}
