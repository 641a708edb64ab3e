// The Content-Security-Policy holds in a real browser: filling in and
// submitting forms (client-side validation with Zod) triggers no violation.
import { describe, expect, inject, it } from 'vitest';
import { signInThroughForm } from './support/people.ts';
import { browserForFile, newVisitor } from './support/browser.ts';
import { DEMO_ADMIN } from '../support/accounts.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

describe('content security policy', () => {
  it('reports no violation on the sign-in form and a create dialog, with JavaScript on', async () => {
    const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

    await page.goto('/auth');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click(); // empty: client-side validation runs
    await page.getByText('Email is required').first().waitFor();
    expect(await violations()).toEqual([]);

    await signInThroughForm(page, DEMO_ADMIN);
    await page.goto('/leads?new');
    await page.getByRole('dialog').getByRole('button', { name: 'Create Lead' }).click();
    await page.getByRole('dialog').locator('[aria-invalid="true"]').first().waitFor();
    expect(await violations()).toEqual([]);
    await context.close();
  });
});
