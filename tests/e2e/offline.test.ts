// The network drops while a form is posted, JavaScript on (issue 31, decision
// 044): the page stays, sidebar and typed values included, an alert says
// nothing was saved, focus is back on the button, and sending again once the
// network is back saves exactly once. The New Lead dialog's post and a list
// row's status form (posted to the lead's own page) are cut once on their way
// (aborted as a lost connection); the New Client dialog's with the browser
// switched offline, and a fetcher's post the same way: one mechanism for every
// form (the root's client middleware, lib/offline.ts). A server that answers with a 500 still gets the
// error screen: only a post that got no answer is kept.
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, waitForToast } from './support/browser.ts';

const OFFLINE_TEXT = "You're offline — nothing was saved";
const isDataPost = (url: URL) => url.pathname.endsWith('.data');

interface FetcherRouter {
  fetch(key: string, routeId: string, href: string, options: { formMethod: 'post'; formData: FormData }): Promise<void>;
  subscribe(listener: (state: { fetchers: Map<string, { state: string; data?: unknown }> }) => void): () => void;
}

const browser = browserForFile();
const baseURL = inject('appUrl');

/**
 * Answers the page's next data POST with `how` once it has left (the server
 * never sees it). Resolves once the route is set; `answered` when it was used.
 */
async function cutNextPost(page: Page, how: (route: Route) => Promise<void>): Promise<{ answered: Promise<void> }> {
  let cut = () => {};
  const done = new Promise<void>((resolve) => (cut = resolve));
  let used = false;
  const handler = async (route: Route) => {
    if (used || route.request().method() !== 'POST') return route.fallback();
    used = true;
    await how(route);
    cut();
  };
  await page.route(isDataPost, handler);
  return { answered: done.then(() => page.unroute(isDataPost, handler)) };
}

describe('a post that cannot reach the server, JavaScript on', () => {
  let page: Page;
  let context: BrowserContext;
  let errors: string[];

  beforeAll(async () => {
    ({ page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL }));
    page.setDefaultTimeout(15_000);
    await signUpThroughForm(page, { first: 'Otto', last: 'Offline', label: 'e2e-offline' });
  });
  afterAll(async () => {
    await context?.close();
  });

  const alert = () => page.getByRole('alert').filter({ hasText: OFFLINE_TEXT });
  // By CSS: while the dialog is open the shell is inert, out of the accessibility tree, but on screen.
  const sidebar = () => page.locator('aside nav[aria-label="Application"]');

  it('keeps the New Lead dialog filled in, says so, and saves once when sent again', async () => {
    await page.goto('/leads');
    await page.getByRole('main').getByRole('link', { name: 'New Lead' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Lead' });
    await dialog.waitFor();
    await dialog.getByLabel('Full name').fill('Lise Meitner');
    await dialog.getByLabel('Email').fill('lise@fission.test');
    await dialog.getByLabel('Company').fill('Kaiser Wilhelm Institute');
    await dialog.getByLabel('Source').selectOption({ label: 'Email Campaign' });
    await dialog.getByLabel('CPQ').check();
    await dialog.getByLabel('Notes').fill('Call after the holidays');

    const cut = await cutNextPost(page, (route) => route.abort('internetdisconnected'));
    await dialog.getByRole('button', { name: 'Create Lead', exact: true }).click();
    await cut.answered;
    await alert().waitFor();

    // The same page: shell, dialog and every value as typed; the button ready again.
    expect(await sidebar().isVisible()).toBe(true);
    expect(await page.getByText('Unexpected Application Error!').count()).toBe(0);
    expect(await dialog.getByLabel('Full name').inputValue()).toBe('Lise Meitner');
    expect(await dialog.getByLabel('Email').inputValue()).toBe('lise@fission.test');
    expect(await dialog.getByLabel('Company').inputValue()).toBe('Kaiser Wilhelm Institute');
    expect(await dialog.getByLabel('Source').inputValue()).toBe('email');
    expect(await dialog.getByLabel('CPQ').isChecked()).toBe(true);
    expect(await dialog.getByLabel('Notes').inputValue()).toBe('Call after the holidays');
    const submit = dialog.getByRole('button', { name: 'Create Lead', exact: true });
    expect(await submit.isEnabled()).toBe(true);
    // Focus is back on the button, ready to send again (it was disabled while busy).
    await page.waitForFunction(() => document.activeElement?.textContent === 'Create Lead');
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/leads?new');

    // The network is back: sent again, saved once.
    await submit.click();
    await waitForToast(page, 'Lead Lise Meitner created');
    const list = page.getByRole('region', { name: 'Recent Leads' });
    await list.getByText('Lise Meitner').first().waitFor();
    expect(await list.getByRole('link', { name: 'Lise Meitner' }).count()).toBe(1);
    expect(await alert().count()).toBe(0);
    // Only the lost request itself is logged by the browser.
    expect(errors.filter((error) => !error.includes('ERR_INTERNET_DISCONNECTED'))).toEqual([]);
  });

  it("keeps the list's bulk selection, posted to the list, ticked on the list", async () => {
    await page.goto('/leads');
    const list = page.getByRole('region', { name: 'Recent Leads' });
    await list.getByLabel('Select Lise Meitner', { exact: true }).check();
    const cut = await cutNextPost(page, (route) => route.abort('internetdisconnected'));
    await list.getByRole('button', { name: 'Mark lost' }).click();
    await cut.answered;
    await alert().waitFor();
    await list.getByRole('button', { name: 'Mark lost' }).and(page.locator(':enabled')).waitFor();
    expect(new URL(page.url()).pathname).toBe('/leads');
    expect(await sidebar().isVisible()).toBe(true);
    expect(await list.getByLabel('Select Lise Meitner', { exact: true }).isChecked()).toBe(true);

    await list.getByRole('button', { name: 'Mark lost' }).click();
    await waitForToast(page, '1 lead marked lost');
    expect(new URL(page.url()).pathname).toBe('/leads');
    await list.locator('tr', { hasText: 'Lise Meitner' }).locator('[data-status="lost"]').waitFor();
  });

  it('keeps the New Client dialog filled in with the browser offline, and saves once when back online', async () => {
    await page.goto('/clients?new');
    const dialog = page.getByRole('dialog', { name: 'New Client' });
    await dialog.getByLabel('Name').fill('Chien-Shiung Wu');
    await dialog.getByLabel('Email').fill('wu@parity.test');
    await dialog.getByLabel('Role').fill('Physicist');

    await context.setOffline(true);
    try {
      await dialog.getByRole('button', { name: 'Create Client', exact: true }).click();
      await alert().waitFor();
      expect(await sidebar().isVisible()).toBe(true);
      expect(await dialog.getByLabel('Name').inputValue()).toBe('Chien-Shiung Wu');
      expect(await dialog.getByLabel('Email').inputValue()).toBe('wu@parity.test');
      expect(await dialog.getByLabel('Role').inputValue()).toBe('Physicist');
    } finally {
      await context.setOffline(false);
    }

    await dialog.getByRole('button', { name: 'Create Client', exact: true }).click();
    await waitForToast(page, 'Client Chien-Shiung Wu created');
    const list = page.getByRole('region', { name: 'Client Directory' });
    await list.getByText('Chien-Shiung Wu').first().waitFor();
    expect(await list.getByRole('link', { name: 'Chien-Shiung Wu' }).count()).toBe(1);
  });

  it("a fetcher's post (the page never moves) ends idle with the alert, nothing reloaded, and saves once when back online", async () => {
    // No screen posts through a fetcher yet: the real router's fetch, as useFetcher().submit calls it.
    const post = (name: string) =>
      page.evaluate(async (name) => {
        const router = (window as unknown as { __reactRouterDataRouter: FetcherRouter }).__reactRouterDataRouter;
        const formData = new FormData();
        for (const [key, value] of Object.entries({ name, email: 'emmy@rings.test', company: 'Göttingen', source: 'website' })) formData.append(key, value);
        // The fetcher as a useFetcher would last render it (the router drops a done fetcher once it has told its subscribers).
        let last: { state: string; data?: unknown } | undefined;
        const unsubscribe = router.subscribe((state) => (last = state.fetchers.get('offline-check') ?? last));
        await router.fetch('offline-check', 'features/leads/leads', '/leads?new', { formMethod: 'post', formData });
        unsubscribe();
        return { state: last?.state, data: last?.data };
      }, name);
    await page.goto('/leads');
    await context.setOffline(true);
    try {
      expect(await post('Emmy Noether')).toEqual({ state: 'idle', data: { offline: true } });
      await alert().waitFor();
      expect(new URL(page.url()).pathname).toBe('/leads');
      expect(await sidebar().isVisible()).toBe(true);
      expect(await page.getByText('Unexpected Application Error!').count()).toBe(0);
    } finally {
      await context.setOffline(false);
    }
    await post('Emmy Noether');
    await waitForToast(page, 'Lead Emmy Noether created');
    const list = page.getByRole('region', { name: 'Recent Leads' });
    await list.getByText('Emmy Noether').first().waitFor();
    expect(await list.getByRole('link', { name: 'Emmy Noether' }).count()).toBe(1);
  });

  it('still shows the error screen when the server answers the post with a 500', async () => {
    await page.goto('/leads?new');
    const dialog = page.getByRole('dialog', { name: 'New Lead' });
    await dialog.getByLabel('Full name').fill('Server Failure');
    await dialog.getByLabel('Email').fill('failure@server.test');
    await dialog.getByLabel('Company').fill('Failure Inc');
    const cut = await cutNextPost(page, (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'Internal Server Error' }));
    await dialog.getByRole('button', { name: 'Create Lead', exact: true }).click();
    await cut.answered;
    await page.getByText('Unexpected Application Error!').waitFor();
    expect(await alert().count()).toBe(0);
    // Inside the shell, as any screen's error.
    expect(await sidebar().isVisible()).toBe(true);
  });
});
