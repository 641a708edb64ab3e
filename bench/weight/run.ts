// `npm run bench:weight`: the bytes a first visit to every route downloads,
// from the build (run `npm run build` first), served by the built Worker under
// `wrangler dev` against a fresh local backend with the demo data.
import { startTestBackend } from '../../supabase/local/testing.ts';
import { freePort, startAppServer } from '../../tests/e2e/support/app-server.ts';
import { measureAllPages, weightTable } from './measure.ts';

const buildDir = process.env.BUILD_DIR ?? 'build';
const port = await freePort();
const backend = await startTestBackend({ seed: true, siteUrl: `http://127.0.0.1:${port}` });
const app = await startAppServer({ SUPABASE_URL: backend.url, SUPABASE_ANON_KEY: backend.anonKey }, port);
try {
  const { pages, token } = await measureAllPages(app.url, backend.url, backend.serviceRoleKey, buildDir);
  console.log(`\nPage weight of a first visit, ${new Date().toISOString().slice(0, 10)} (gzip level 6; the invite token shortened)\n`);
  console.log(weightTable(pages).replace(token, '<token>'));
  const over = pages.filter((page) => page.overBudget);
  console.log(over.length ? `\n${over.length} route(s) over budget: ${over.map((p) => p.path).join(', ')}` : '\nEvery route within budget.');
} finally {
  await app.stop();
  await backend.stop();
}
process.exit(0);
