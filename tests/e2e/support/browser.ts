// Debian's Chromium driven by playwright-core, with the flags this machine needs.
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
  });
}

/**
 * One Chromium for the whole test file: launched before its first test, closed
 * after its last. Call at the top of the file; the getter is for inside tests.
 */
export function browserForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is launched in beforeAll: use it inside a test');
    return browser;
  };
}

export interface Visitor {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
}

export async function newVisitor(browser: Browser, options: { javaScript: boolean; baseURL: string }): Promise<Visitor> {
  const context = await browser.newContext({ javaScriptEnabled: options.javaScript, baseURL: options.baseURL });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, errors };
}

/** Serious and critical accessibility violations on the current page (WCAG 2.1 A/AA). */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Colours are read as drawn: a button still fading in or out (a transition) would be measured half-way
  // (a contrast failure seen once on a loaded machine). Wait for running animations to end first.
  // (A spinner's endless animation never ends: only those that do are waited for.)
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Waits for the toast (role status) that says `text`. */
export async function waitForToast(page: Page, text: string): Promise<void> {
  await page.getByRole('status').filter({ hasText: text }).waitFor({ timeout: 10_000 });
}

export interface HeldRequests {
  /** Resolves when the first matching request has arrived and is being held. */
  arrived: Promise<void>;
  /** Lets every held request (and any later one) through, and stops holding. */
  release(): Promise<void>;
}

/**
 * Holds the page's requests of this method whose URL matches until `release`,
 * so a test can see what the page shows while they are on their way (a busy
 * button, a loading list). Release in a `finally`, or the page stays stuck.
 */
export async function holdRequests(page: Page, method: string, matches: (url: URL) => boolean): Promise<HeldRequests> {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let letThrough = () => {};
  const released = new Promise<void>((resolve) => (letThrough = resolve));
  const continuing: Promise<void>[] = [];
  const hold = async (route: Route) => {
    if (route.request().method() !== method) return route.fallback();
    arrive();
    const passed = released.then(() => route.continue());
    continuing.push(passed);
    await passed;
  };
  await page.route(matches, hold);
  return {
    arrived,
    async release() {
      letThrough();
      // Unrouting while a held request is still on its way would fall it
      // back behind our handler, and its own continue would then be refused.
      await Promise.all(continuing);
      await page.unroute(matches, hold);
    },
  };
}
