// The page-weight budget (issue 9, docs/decisions/006): every route's first
// visit, as the built Worker serves it, measured from the build. Fails when a
// route goes over budget; `npm run bench:weight` prints the full table.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { isPlainFormPath, measureAllPages, weightTable, type PageWeight } from '../../bench/weight/measure.ts';

const appUrl = inject('appUrl');
const backendUrl = inject('backendUrl');
const serviceRoleKey = inject('serviceRoleKey');
const buildDir = process.env.BUILD_DIR ?? 'build';

let pages: PageWeight[];

beforeAll(async () => {
  ({ pages } = await measureAllPages(appUrl, backendUrl, serviceRoleKey, buildDir));
});

describe('page weight', () => {
  it('measures every page of the route table, each rendered (not redirected)', () => {
    expect(pages).toHaveLength(24);
    for (const page of pages) expect([page.path, page.status]).toEqual([page.path, page.path === '/no-such-page' ? 404 : 200]);
  });

  it('ships no JavaScript on the marketing pages', () => {
    const marketing = pages.filter((page) => page.path === '/' || page.path === '/pricing');
    expect(marketing.map((page) => [page.path, page.jsFiles])).toEqual([
      ['/', 0],
      ['/pricing', 0],
    ]);
  });

  it('ships no JavaScript file on the sign-in and invitation pages, only their small inline script', () => {
    const plain = pages.filter((page) => isPlainFormPath(page.path));
    const shown = (path: string) => (path.startsWith('/invite/') ? '/invite/<token>' : path);
    expect(plain.map((page) => [shown(page.path), page.jsFiles])).toEqual([
      ['/auth', 0],
      ['/invite/<token>', 0],
    ]);
    // Within the whole-page budget by far: the enhancer, no hydration data.
    for (const page of plain) expect(page.inlineJs.gzip, page.path).toBeLessThan(2 * 1024);
  });

  it('keeps every page within its JavaScript budget', () => {
    const over = pages.filter((page) => page.overBudget);
    expect(over.map((page) => page.path), weightTable(over)).toEqual([]);
  });

  it('counts the framework runtime apart from the app code on hydrated pages', () => {
    const dashboard = pages.find((page) => page.path === '/dashboard')!;
    // If the runtime chunks were renamed, everything would count as app code.
    expect(dashboard.js.gzip - dashboard.appJs.gzip).toBeGreaterThan(60 * 1024);
    expect(dashboard.appJs.gzip).toBeGreaterThan(0);
  });
});
