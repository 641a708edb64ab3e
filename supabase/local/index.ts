// startBackend(): the whole local Supabase-compatible backend in one call:
// a database (PGlite under dataDir, or PostgreSQL at databaseUrl) brought up to
// date by the migrations, and one HTTP server answering /rest/v1, /auth/v1,
// /storage/v1, /functions/v1 and /_outbox.
import type { AddressInfo } from 'node:net';
import { handleAuth } from './auth/index.ts';
import type { MailTemplate } from './auth/templates.ts';
import type { BackendContext, Outbox } from './context.ts';
import { LocalSetupError } from './data-dir.ts';
import { type Db, openPglite, openPostgres } from './db.ts';
import { createFunctionsHandler } from './functions.ts';
import { DEFAULT_AUDIT_SIGNING_SECRET, DEFAULT_JWT_SECRET, loadOrCreateSigningKey, makeApiKeys, type SigningKey } from './keys.ts';
import { migrate, PROJECT_ROOT } from './migrate.ts';
import { createOutbox } from './outbox.ts';
import { readExposedSchemas } from './rest/exposed-schemas.ts';
import { createRestHandler } from './rest/handler.ts';
import { createStorageHandler, diskBlobStore, memoryBlobStore } from './storage/index.ts';
import { createBackendServer } from './server.ts';
import { startSmtpListener } from './smtp.ts';
import { pointDemoSmtpAt } from './demo-smtp.ts';
import { demoFeedAnchor, demoTenderResponse, pointDemoFeedAt } from './demo-tenders.ts';

export interface BackendOptions {
  /** 54321 by default; 0 picks a free port (the real URL is returned). */
  port?: number;
  host?: string;
  /** PGlite data directory; omitted (and no databaseUrl): an in-memory database. */
  dataDir?: string;
  /** Where Storage keeps file bytes; omitted: in memory (tests). */
  storageDir?: string;
  /** A PostgreSQL connection string; wins over dataDir. */
  databaseUrl?: string;
  /** Schemas /rest/v1 serves, the first the default; `[api] schemas` of supabase/config.toml unless given. */
  exposedSchemas?: string[];
  jwtSecret?: string;
  /**
   * How access tokens are signed: 'ES256' (default) with the project's signing
   * key, as Supabase's asymmetric signing keys; 'HS256' with jwtSecret, as a
   * project still on the legacy secret. Both verify either way.
   */
  jwtAlgorithm?: 'ES256' | 'HS256';
  /** Where the ES256 signing key is kept (made on first start); none: a new key per start. */
  signingKeyFile?: string;
  /**
   * The key the app's Worker signs the client's IP and user agent with
   * (AUDIT_SIGNING_SECRET), stored in the database at start.
   */
  auditSigningSecret?: string;
  /** The app's origin, for links in mail (GoTrue's SITE_URL). */
  siteUrl?: string;
  /** No request log, no mail lines (tests). */
  quiet?: boolean;
  /** Run supabase/seed.sql on a fresh database (default true). */
  seed?: boolean;
  /** Require e-mail confirmation before sign-in (default false, like `supabase start`). */
  confirmEmail?: boolean;
  /** The sign-up mail's template (the project's, from supabase/config.toml); GoTrue's default when absent. */
  confirmationTemplate?: MailTemplate;
  /** The password reset and e-mail change mails' templates; GoTrue's defaults when absent. */
  recoveryTemplate?: MailTemplate;
  emailChangeTemplate?: MailTemplate;
  jwtExpiry?: number;
  /** An already opened database (test snapshots); the backend closes it on stop. */
  db?: Db;
  /** Skip bootstrap and migrations (the database is known to be up to date). */
  skipMigrations?: boolean;
  migrationsDir?: string;
  seedFile?: string;
  functionsDir?: string;
  /** The SMTP listener's port (default 0: a free one; `npm start` asks for 54325, as `supabase start`'s Inbucket); false: none. */
  smtpPort?: number | false;
  /** Credentials the SMTP listener requires (tests of a refused login); any login is accepted without them. */
  smtpAuth?: { user: string; pass: string };
  /** Runs after stop() closed the server and the database (e.g. dropping a test database). */
  onStop?: () => Promise<void>;
}

export interface Backend {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  /** null when access tokens are HS256. */
  signingKey: SigningKey | null;
  auditSigningSecret: string;
  db: Db;
  /** Whether this start ran supabase/seed.sql (a fresh database): the demo data's first start. */
  seeded: boolean;
  outbox: Outbox;
  /** The SMTP listener's port, or null when it was not started. */
  smtpPort: number | null;
  ctx: BackendContext;
  /** Forget the REST schema cache (after DDL run directly on db). */
  reloadSchema(): void;
  stop(): Promise<void>;
}

/**
 * The development JWT secret is public (it is in this repository), and the mail
 * outbox (/_outbox) shows every mail sent, confirmation links included. Both
 * are fine on loopback, where only this machine reaches them, and unsafe
 * anywhere else: listening on another address needs a secret of one's own.
 */
function refuseOpenDefaults(host: string, jwtSecret: string): void {
  const loopback = host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  if (!loopback && jwtSecret === DEFAULT_JWT_SECRET) {
    throw new LocalSetupError(
      `Refusing to listen on ${host} with the public development JWT secret: anyone who reaches this port could sign their own ` +
        'tokens and read the mail outbox. Set JWT_SECRET to a long random string, or listen on 127.0.0.1.',
    );
  }
}

export async function startBackend(options: BackendOptions = {}): Promise<Backend> {
  const quiet = options.quiet ?? false;
  const jwtSecret = options.jwtSecret ?? DEFAULT_JWT_SECRET;
  const auditSigningSecret = options.auditSigningSecret ?? DEFAULT_AUDIT_SIGNING_SECRET;
  const host = options.host ?? '127.0.0.1';
  refuseOpenDefaults(host, jwtSecret);
  const db = options.db ?? (options.databaseUrl ? await openPostgres(options.databaseUrl) : await openPglite(options.dataDir));
  let seeded = false;
  try {
    if (!options.skipMigrations) {
      ({ seeded } = await migrate(db, {
        migrationsDir: options.migrationsDir,
        seedFile: options.seedFile,
        seed: options.seed,
        log: quiet ? undefined : (line) => console.log(line),
      }));
    }
    await storeAuditSigningSecret(db, auditSigningSecret);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }

  const { anonKey, serviceRoleKey } = await makeApiKeys(jwtSecret);
  const signingKey = options.jwtAlgorithm === 'HS256' ? null : await loadOrCreateSigningKey(options.signingKeyFile);
  const outbox = createOutbox({ quiet });
  const ctx: BackendContext = {
    db,
    url: '',
    siteUrl: options.siteUrl ?? 'http://127.0.0.1:5173',
    jwtSecret,
    signingKey,
    anonKey,
    serviceRoleKey,
    jwtExpiry: options.jwtExpiry ?? 3600,
    confirmEmail: options.confirmEmail ?? false,
    confirmationTemplate: options.confirmationTemplate,
    recoveryTemplate: options.recoveryTemplate,
    emailChangeTemplate: options.emailChangeTemplate,
    outbox,
    quiet,
  };
  const rest = createRestHandler(ctx, options.exposedSchemas ?? readExposedSchemas(`${PROJECT_ROOT}supabase/config.toml`));
  const functions = createFunctionsHandler(ctx, options.functionsDir);
  const storage = createStorageHandler({
    db,
    jwtSecret,
    signingKey: ctx.signingKey,
    blobs: options.storageDir ? diskBlobStore(options.storageDir) : memoryBlobStore(),
    quiet,
  });
  let demoAnchor = new Date();
  const server = createBackendServer({
    routes: { rest, auth: (request) => handleAuth(request, ctx), storage, functions, outbox, demoFeed: (request) => demoTenderResponse(request, demoAnchor) },
    baseUrl: () => ctx.url,
    log: !quiet,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 54321, host, () => resolve());
  }).catch(async (error) => {
    await db.close().catch(() => {});
    throw error;
  });
  const smtp =
    options.smtpPort === false
      ? null
      : await startSmtpListener(outbox, { port: options.smtpPort ?? 0, host, auth: options.smtpAuth }).catch(async (error) => {
          server.close();
          await db.close().catch(() => {});
          if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
            throw new LocalSetupError(`Port ${options.smtpPort} is in use: set SMTP_PORT to another port`);
          }
          throw error;
        });
  if (smtp) {
    // The demo integration mails through this listener, not whichever one holds the seed's port.
    const demo = await pointDemoSmtpAt(db, smtp.port);
    if (typeof demo === 'object') console.error(`The demo "Company SMTP" integration was switched off: it could not be pointed at port ${smtp.port} (${demo.deactivated}).`);
  }
  const { port } = server.address() as AddressInfo;
  ctx.url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // The demo tender source reads this backend's own demo feed, its deadlines counted from the seeding day.
  demoAnchor = await demoFeedAnchor(db);
  await pointDemoFeedAt(db, ctx.url).catch((error) => console.error(`The demo tender feed could not be pointed at ${ctx.url}: ${(error as Error).message}`));

  let stopped: Promise<void> | null = null;
  return {
    url: ctx.url,
    anonKey,
    serviceRoleKey,
    jwtSecret,
    signingKey,
    auditSigningSecret,
    db,
    seeded,
    outbox,
    smtpPort: smtp?.port ?? null,
    ctx,
    reloadSchema: () => rest.invalidate(),
    stop: () =>
      (stopped ??= (async () => {
        await smtp?.stop();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await db.close();
        await options.onStop?.();
      })()),
  };
}

/**
 * What a hosted deployment does once by hand (README, Deploying): the audit
 * signing key goes where no API role can read it. A schema without the table
 * (a test fixture's own migrations) has nothing to store it in.
 */
async function storeAuditSigningSecret(db: Db, secret: string): Promise<void> {
  const { rows } = await db.query(`select to_regclass('private.audit_signing_key') is not null as present`);
  if (!(rows[0] as { present: boolean }).present) return;
  await db.query(
    `insert into private.audit_signing_key (id, secret) values (true, $1)
     on conflict (id) do update set secret = excluded.secret, updated_at = now()`,
    [secret],
  );
}
