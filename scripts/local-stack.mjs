// The whole product on one machine: the embedded Supabase-compatible backend
// (PGlite under .data/, migrations and demo data) plus the app, either the
// built Worker under `wrangler dev` (npm start) or the Vite dev server (npm run dev).
import { spawn } from 'node:child_process';

export const DEMO_SIGN_IN = { email: 'demo@opshub.test', password: 'demo1234' };

/** @param {{ mode: 'start' | 'dev' }} options */
export async function runLocalStack({ mode }) {
  const env = { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' };
  const appPort = Number(process.env.APP_PORT ?? (mode === 'dev' ? 5173 : 8787));
  const appUrl = `http://127.0.0.1:${appPort}`;

  const { startBackend } = await import('../supabase/local/index.ts');
  const backend = await startBackend({
    port: Number(process.env.BACKEND_PORT ?? 54321),
    dataDir: process.env.DATABASE_URL ? undefined : '.data/pglite',
    databaseUrl: process.env.DATABASE_URL,
    siteUrl: appUrl,
  });

  const vars = { SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.anonKey };
  /** @type {import('node:child_process').ChildProcess} */
  let app;
  if (mode === 'start') {
    const build = spawn('npx', ['react-router', 'build'], { stdio: 'inherit', env });
    const code = await new Promise((resolve) => build.on('exit', resolve));
    if (code !== 0) {
      await backend.stop();
      process.exit(1);
    }
    const args = ['wrangler', 'dev', '-c', 'build/server/wrangler.json', '--ip', '127.0.0.1', '--port', String(appPort)];
    for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
    app = spawn('npx', args, { stdio: ['ignore', 'inherit', 'inherit'], env, detached: true });
  } else {
    // CLOUDFLARE_INCLUDE_PROCESS_ENV lets the Cloudflare Vite plugin take these
    // bindings from the environment, over wrangler.toml's [vars].
    app = spawn('npx', ['react-router', 'dev', '--host', '127.0.0.1', '--port', String(appPort), '--strictPort'], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...env, ...vars, CLOUDFLARE_INCLUDE_PROCESS_ENV: 'true' },
      detached: true,
    });
  }

  await waitForApp(appUrl, app);
  console.log(`
  App:      ${appUrl}
  Sign in:  ${DEMO_SIGN_IN.email} / ${DEMO_SIGN_IN.password}
  Backend:  ${backend.url}  (mail outbox: ${backend.url}/_outbox)
  Ctrl-C stops both.
`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    if (app.pid && app.exitCode === null) {
      try {
        process.kill(-app.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    await backend.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  app.on('exit', stop);
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
