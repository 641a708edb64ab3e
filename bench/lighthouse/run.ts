// `npm run bench:lighthouse`: Lighthouse (performance, accessibility, best
// practices, SEO; its default mobile profile with simulated throttling) on
// Debian's Chromium, offline, for `/`, `/pricing`, `/auth`, and signed in as
// the demo admin `/dashboard`, `/quotes`, `/settings/users`. The built Worker
// under `wrangler dev` and a fresh local backend. Build first (`npm run build`).
// Targets: performance ≥ 95, accessibility 100.
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { signInCookie } from '../weight/measure.ts';
import { freePort } from '../../tests/e2e/support/app-server.ts';
import { runHeader, startStack } from '../support/stack.ts';

const PAGES: { path: string; signedIn: boolean }[] = [
  { path: '/', signedIn: false },
  { path: '/pricing', signedIn: false },
  { path: '/auth', signedIn: false },
  { path: '/dashboard', signedIn: true },
  { path: '/quotes', signedIn: true },
  { path: '/settings/users', signedIn: true },
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const stack = await startStack();
const port = await freePort();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--remote-debugging-port=${port}`,
  ],
});
const rows: string[] = [];
const misses: string[] = [];
try {
  const cookie = await signInCookie(stack.appUrl, 'demo@opshub.test', 'demo1234');
  for (const page of PAGES) {
    const result = await lighthouse(`${stack.appUrl}${page.path}`, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      extraHeaders: page.signedIn ? { Cookie: cookie } : undefined,
    });
    if (!result) throw new Error(`no Lighthouse result for ${page.path}`);
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    rows.push(`| ${page.path} | ${CATEGORIES.map(score).join(' | ')} | ${audits['first-contentful-paint']?.displayValue ?? ''} | ${audits['largest-contentful-paint']?.displayValue ?? ''} | ${audits['total-blocking-time']?.displayValue ?? ''} |`);
    // The audits behind each lost point, by category, to say what to fix.
    const lost = CATEGORIES.flatMap((id) =>
      (categories[id]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => `${id}/${ref.id}`),
    );
    if (lost.length) misses.push(`${page.path}: ${lost.join(', ')}`);
  }
} finally {
  await browser.close();
  await stack.stop();
}
console.log(`\n${runHeader()}; Lighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, mobile profile, simulated throttling\n`);
console.log('| page | performance | accessibility | best practices | SEO | FCP | LCP | TBT |');
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
if (misses.length) console.log(`\nAudits not passed (weighted):\n${misses.join('\n')}`);
process.exit(0);
