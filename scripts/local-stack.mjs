// The whole product on one machine: the embedded Supabase-compatible backend
// (PGlite under .data/, migrations and demo data) plus the app, either the
// built Worker under `wrangler dev` (npm start) or the Vite dev server (npm run dev).
//   --fresh   delete the local data first and begin again from fresh demo data
// Env: APP_PORT, BACKEND_PORT, PGLITE_DATA_DIR, DATABASE_URL, AUDIT_SIGNING_SECRET.
import { spawn } from 'node:child_process';
import { ensureBuild } from './build-once.mjs';
import { uploadDemoDocuments } from './demo-documents.mjs';
import { wranglerDev } from './wrangler-dev.mjs';

export const DEMO_SIGN_IN = { email: 'demo@opshub.test', password: 'demo1234' };

/** @param {{ mode: 'start' | 'dev' }} options */
export async function runLocalStack({ mode }) {
  const { LocalSetupError } = await import('../supabase/local/data-dir.ts');
  try {
    await run(mode);
  } catch (error) {
    // A set-up problem the person can fix is one sentence, not a stack trace.
    if (error instanceof LocalSetupError) {
      console.error(`\n  ${error.message.replaceAll('\n', '\n  ')}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** @param {'start' | 'dev'} mode */
async function run(mode) {
  // No network lookups a machine without internet would print an error for:
  // wrangler's metrics, and miniflare's download of the Request.cf sample.
  const env = { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };
  const fresh = process.argv.includes('--fresh');
  const appPort = Number(process.env.APP_PORT ?? (mode === 'dev' ? 5173 : 8787));
  const appUrl = `http://127.0.0.1:${appPort}`;
  const script = mode === 'dev' ? 'npm run dev' : 'npm start';

  const { assertPortFree } = await import('../supabase/local/port.ts');
  const { startPersistentBackend } = await import('../supabase/local/persistent.ts');
  await assertPortFree(appPort, 'APP_PORT');
  const backend = await startPersistentBackend({
    port: Number(process.env.BACKEND_PORT ?? 54321),
    portVariable: 'BACKEND_PORT',
    fresh,
    freshHint: `${script} -- --fresh`,
    siteUrl: appUrl,
    // HS256: access tokens signed with the shared secret, as a project without a signing key (decision 024).
    jwtAlgorithm: process.env.JWT_ALGORITHM === 'HS256' ? 'HS256' : undefined,
  });

  /** @type {import('node:child_process').ChildProcess | undefined} */
  let app;
  /** @type {{ remove: () => void } | undefined} */
  let envFile;
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    if (app) await stopGroup(app);
    envFile?.remove();
    await backend.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  // The Worker signs the client's IP and user agent for the audit log with the key the backend stored.
  // The jobs runner's service role key and the platform mail API (the backend's outbox) are the
  // local stand-ins of the Worker secrets of decisions 021 and 022.
  const vars = {
    SUPABASE_URL: backend.url,
    SUPABASE_ANON_KEY: backend.anonKey,
    AUDIT_SIGNING_SECRET: backend.auditSigningSecret,
    SUPABASE_SERVICE_ROLE_KEY: backend.serviceRoleKey,
    MAIL_API_URL: `${backend.url}/_mail`,
    SMTP_ALLOW_HOSTS: `127.0.0.1:${backend.smtpPort}`, // the demo SMTP integration's own listener (decision 039)
    FEED_ALLOW_HOSTS: new URL(backend.url).host, // the demo tender feed this backend serves (decision 092)
    // Links in mail (a quote's /q/<token>) point at this app.
    SITE_URL: appUrl,
  };
  if (mode === 'start') {
    if (!(await ensureBuild(env))) return stop(1);
    // --test-scheduled (the jobs runner, driven below); the secrets in a private file, never in
    // the command line every user of the machine can read (wrangler-dev.mjs).
    const command = wranglerDev({ config: 'build/server/wrangler.json', port: appPort, vars });
    envFile = command.envFile;
    app = spawn('npx', command.args, { stdio: ['ignore', 'inherit', 'inherit'], env, detached: true });
  } else {
    // CLOUDFLARE_INCLUDE_PROCESS_ENV lets the Cloudflare Vite plugin take these
    // bindings from the environment, over wrangler.toml's [vars].
    app = spawn('npx', ['react-router', 'dev', '--host', '127.0.0.1', '--port', String(appPort), '--strictPort'], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...env, ...vars, CLOUDFLARE_INCLUDE_PROCESS_ENV: 'true' },
      detached: true,
    });
  }
  app.on('exit', () => void stop(stopping ? 0 : 1));

  await waitForApp(appUrl, app);
  const runner = mode === 'start' ? driveJobRunner(appUrl) : undefined;
  // Fresh demo data: its documents go in through the app's upload, as their files must be in Storage.
  if (backend.seeded) {
    try {
      await uploadDemoDocuments(appUrl, DEMO_SIGN_IN);
    } catch (error) {
      console.error(`The demo documents could not be uploaded (${error instanceof Error ? error.message : error}); the rest of the demo data is there.`);
    }
  }
  process.on('exit', () => runner && clearInterval(runner));
  console.log(`
  App:      ${appUrl}
  Sign in:  ${DEMO_SIGN_IN.email} / ${DEMO_SIGN_IN.password}
  Backend:  ${backend.url}  (mail outbox: ${backend.url}/_outbox; SMTP on 127.0.0.1:${backend.smtpPort})
  Data:     ${backend.location}  (begin again from fresh demo data: ${script} -- --fresh)
  Ctrl-C stops both.
`);
}

/**
 * The Cron Trigger of production, every 15 s: wrangler dev's /cdn-cgi/handler/scheduled runs
 * the Worker's scheduled handler (the jobs runner). A tick that fails is said
 * once and tried again at the next.
 * @param {string} appUrl
 */
function driveJobRunner(appUrl) {
  let failing = false;
  const tick = async () => {
    try {
      const response = await fetch(`${appUrl}/cdn-cgi/handler/scheduled?cron=*+*+*+*+*`);
      if (!response.ok) throw new Error(`answered ${response.status}`);
      failing = false;
    } catch (error) {
      if (!failing) console.error(`jobs runner tick failed: ${error instanceof Error ? error.message : error}`);
      failing = true;
    }
  };
  return setInterval(() => void tick(), 15_000);
}

/**
 * Ends a detached child's whole process group (npx, wrangler, workerd or
 * vite) and waits until none of it is left, so its port is free when this
 * process exits.
 * @param {import('node:child_process').ChildProcess} child
 */
async function stopGroup(child) {
  if (!child.pid) return;
  const group = -child.pid;
  /** @param {NodeJS.Signals | 0} signal */
  const send = (signal) => {
    try {
      process.kill(group, signal);
      return true;
    } catch {
      return false; // no process left in the group
    }
  };
  send('SIGTERM');
  const deadline = Date.now() + 5_000;
  while (send(0)) {
    if (Date.now() > deadline) send('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** @param {string} url @param {import('node:child_process').ChildProcess} child */
async function waitForApp(url, child) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the app server exited during start-up');
    try {
      const response = await fetch(`${url}/robots.txt`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`the app did not answer at ${url}`);
}
