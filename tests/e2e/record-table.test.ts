// The one record table of every list (issue 32, decision 053), in Chromium:
// sorting by header links with JavaScript off, the row's one link opening the
// record, leads marked lost in bulk without JavaScript, an empty list that
// says what it is for, 15 rows on a 1280×800 screen, and no list page that
// scrolls sideways at 390 px. Each list is photographed at 1280 and 390 px
// into test-results/screenshots (git-ignored) for a person to look at.
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { DEMO_ADMIN } from '../support/accounts.ts';
import { signInThroughForm, signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, waitForToast } from './support/browser.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');
const SCREENSHOTS = 'test-results/screenshots';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** Every list on the record table, named for its screenshot. */
const LISTS = [
  ['leads', '/leads'],
  ['clients', '/clients'],
  ['quotes', '/quotes'],
  ['invoices', '/invoices'],
  ['bills', '/bills'],
  ['documents', '/documents'],
  ['templates', '/settings/templates'],
  ['users', '/settings/users'],
  ['audit-log', '/settings/audit-logs'],
] as const;

/** The amounts of a table's Total column, in row order. */
async function totals(page: Page): Promise<number[]> {
  const table = page.locator('table[data-record-table]');
  const headers = await table.locator('thead th').allTextContents();
  const column = headers.findIndex((text) => text.trim() === 'Total') + 1;
  expect(column).toBeGreaterThan(0);
  const cells = await table.locator(`tbody tr td:nth-child(${column})`).allTextContents();
  return cells.map((text) => Number(text.replace(/[^0-9.]/g, '')));
}

describe('the record table with JavaScript off', () => {
  it('sorts by a header link, both ways, with aria-sort; an unknown sort is the default order', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: false, baseURL });
    page.setDefaultTimeout(15_000);
    await signInThroughForm(page, DEMO_ADMIN);
    await page.goto('/invoices');
    const header = page.getByRole('columnheader', { name: /Total/ });
    expect(await header.getAttribute('aria-sort')).toBeNull();

    await header.getByRole('link').click();
    await page.waitForURL('**/invoices?sort=total&dir=desc');
    expect(await page.getByRole('columnheader', { name: /Total/ }).getAttribute('aria-sort')).toBe('descending');
    const down = await totals(page);
    expect(down.length).toBeGreaterThan(1);
    expect(down).toEqual([...down].sort((a, b) => b - a));

    await page.getByRole('columnheader', { name: /Total/ }).getByRole('link').click();
    await page.waitForURL('**/invoices?sort=total&dir=asc');
    expect(await page.getByRole('columnheader', { name: /Total/ }).getAttribute('aria-sort')).toBe('ascending');
    const up = await totals(page);
    expect(up).toEqual([...up].sort((a, b) => a - b));

    // The search form keeps the sort.
    expect(await page.locator('form[role="search"] input[name="sort"]').getAttribute('value')).toBe('total');

    for (const search of ['?sort=nope&dir=desc', '?sort=total;drop%20table%20invoices&dir=up', '?sort=client_email', '?sort=total&dir=sideways&page=abc']) {
      const response = await page.goto(`/invoices${search}`);
      expect(response?.status(), search).toBe(200);
      await page.locator('table[data-record-table] tbody tr').first().waitFor();
    }
    await context.close();
  });

  it('opens the record from the row’s one link', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: false, baseURL });
    page.setDefaultTimeout(15_000);
    await signInThroughForm(page, DEMO_ADMIN);
    for (const [path, pattern] of [
      ['/leads', /\/leads\/[0-9a-f-]{36}$/],
      ['/invoices', /\/invoices\/[0-9a-f-]{36}$/],
      ['/quotes', /\/quotes\/[0-9a-f-]{36}$/],
    ] as const) {
      await page.goto(path);
      const rows = page.locator('table[data-record-table] tbody tr');
      // One link per row, nothing interactive nested in it.
      const linksPerRow = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('a').length));
      expect(linksPerRow.every((count) => count === 1), path).toBe(true);
      // The link covers the row: a click in the row's last cell opens the record.
      const first = rows.first();
      // (Playwright sees the link intercept the click, which is the point: force clicks the cell's middle anyway.)
      await first.locator('td').last().click({ force: true });
      await page.waitForURL(pattern);
    }
    await context.close();
  });

  it('marks the ticked leads lost, and an empty list says what it is for', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: false, baseURL });
    page.setDefaultTimeout(15_000);
    await signUpThroughForm(page, { first: 'Bulk', last: 'Lost', label: 'e2e-bulk-lost' });

    await page.goto('/leads');
    const list = page.getByRole('region', { name: 'Recent Leads' });
    await list.getByText('No leads yet. Add your first lead to get started!').waitFor();
    await list.getByText('Capture and follow up the people interested in your modules.').waitFor();
    await list.getByRole('link', { name: 'Add your first lead' }).click();
    await page.getByRole('dialog', { name: 'New Lead' }).waitFor();

    for (const name of ['Lena Lost', 'Kai Kept', 'Mo Lost']) {
      await page.goto('/leads?new');
      const create = page.getByRole('dialog', { name: 'New Lead' });
      await create.getByLabel('Full name').fill(name);
      await create.getByLabel('Email').fill(`${name.split(' ')[0].toLowerCase()}@bulk.test`);
      await create.getByLabel('Company').fill('Bulk Co');
      await create.getByRole('button', { name: 'Create Lead', exact: true }).click();
      await waitForToast(page, `Lead ${name} created`);
    }

    // Nothing ticked: refused with a toast, nothing changed.
    await page.getByRole('button', { name: 'Mark lost' }).click();
    await page.getByRole('alert').filter({ hasText: 'Select the leads to mark lost' }).waitFor();
    expect(await page.locator('[data-status="lost"]').count()).toBe(0);

    await page.goto('/leads?sort=name&dir=asc');
    await page.getByLabel('Select Lena Lost').check();
    await page.getByLabel('Select Mo Lost').check();
    await page.getByRole('button', { name: 'Mark lost' }).click();
    await waitForToast(page, '2 leads marked lost');
    // Back on the same list page, in the same order.
    expect(new URL(page.url()).search).toBe('?sort=name&dir=asc');
    const row = (name: string) => page.locator('table[data-record-table] tbody tr').filter({ hasText: name });
    expect(await row('Lena Lost').locator('[data-status]').getAttribute('data-status')).toBe('lost');
    expect(await row('Mo Lost').locator('[data-status]').getAttribute('data-status')).toBe('lost');
    expect(await row('Kai Kept').locator('[data-status]').getAttribute('data-status')).toBe('new');
    await context.close();
  });
});

describe('every list at 1280 and 390 px', () => {
  it('fits 15 rows on a 1280×800 screen and never scrolls sideways at 390 px; screenshots of each', async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    page.setDefaultTimeout(15_000);
    await signInThroughForm(page, DEMO_ADMIN);
    const sideways: string[] = [];
    for (const [name, path] of LISTS) {
      await page.setViewportSize(DESKTOP);
      await page.goto(path);
      await page.locator('[data-hydrated]').waitFor({ state: 'attached' });
      const rows = page.locator('table[data-record-table] tbody tr');
      const heights = await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
      // The audit log's rows hold each change on a line of its own: only the business lists are held to the density.
      // (The demo account has no bills or documents: their lists show the empty state.)
      if (name !== 'audit-log' && heights.length > 0) {
        const median = [...heights].sort((a, b) => a - b)[Math.floor(heights.length / 2)];
        expect(median * 15, `${path}: rows of ${median}px`).toBeLessThanOrEqual(DESKTOP.height - 100);
      }
      await page.screenshot({ path: `${SCREENSHOTS}/${name}-1280.png`, fullPage: true });

      await page.setViewportSize(PHONE);
      await page.goto(path);
      await page.locator('[data-hydrated]').waitFor({ state: 'attached' });
      const widths = await page.evaluate(() => {
        const root = document.scrollingElement!;
        const table = document.querySelector('table[data-record-table]');
        return { scroll: root.scrollWidth, client: root.clientWidth, table: table ? table.getBoundingClientRect().right : 0 };
      });
      if (widths.scroll > widths.client || widths.table > widths.client) sideways.push(`${path}: ${JSON.stringify(widths)}`);
      await page.screenshot({ path: `${SCREENSHOTS}/${name}-390.png`, fullPage: true });
    }
    expect(sideways).toEqual([]);
    await context.close();
  });
});
