// /quotes/:id at 1280 px (issue 31): a client's 120-character email wrapped
// nowhere, overlapped the currency and pushed the page to 1,348 px. No state
// of the page scrolls sideways now, and the full address stays available
// (its title).
import { describe, expect, inject, it } from 'vitest';
import { DEMO_NORTHWIND_ADMIN } from '../support/accounts.ts';
import { browserForFile, newVisitor } from './support/browser.ts';
import { signInThroughForm } from './support/people.ts';
import { serviceRest } from './support/quotes.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

describe('quote detail at 1280 px', () => {
  it('does not scroll sideways with a 120-character client email, draft or sent', async () => {
    const [{ account_id: accountId }] = await serviceRest<{ account_id: string }[]>('users?select=account_id&email=eq.admin%40northwind.test');
    const email = `${'a'.repeat(60)}${Date.now().toString(36).padStart(4, '0').slice(-4)}@${'b'.repeat(47)}.example`;
    expect(email).toHaveLength(120);
    const [contact] = await serviceRest<{ id: string }[]>('contacts', { method: 'POST', body: { account_id: accountId, name: 'Wide Client', email } });
    const quotes = await serviceRest<{ id: string }[]>('quotes', {
      method: 'POST',
      body: ['draft', 'sent'].map((status) => ({
        account_id: accountId, contact_id: contact.id, currency: 'GBP', status,
        expires_at: new Date(Date.now() + 14 * 86_400_000).toISOString(),
      })),
    });
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInThroughForm(page, DEMO_NORTHWIND_ADMIN);
    for (const quote of quotes) {
      await page.goto(`/quotes/${quote.id}`);
      await page.getByText('Wide Client').first().waitFor();
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(widths.scroll, `quote ${quote.id}`).toBeLessThanOrEqual(widths.client);
      expect(await page.getByTitle(email).count()).toBeGreaterThan(0);
    }
    await context.close();
  });
});
