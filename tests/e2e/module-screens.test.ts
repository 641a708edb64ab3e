// The demonstration screens in Chromium, with JavaScript on and off:
// one create flow per screen (dialog opened by its link, filled in, busy label
// while the simulated save waits, success toast back on the list), and axe on
// every screen and every dialog.
import type { BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, seriousAxeViolations } from './support/browser.ts';
import { DEMO_ADMIN } from '../support/accounts.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

interface CreateFlow {
  path: string;
  /** The link on the list page that opens the dialog. */
  open: string;
  /** The dialog's title. */
  dialog: string;
  fill: (page: Page) => Promise<void>;
  submit: string;
  busy: string;
  toast: string;
}

const FLOWS: CreateFlow[] = [
  {
    path: '/shipments',
    open: 'New Shipment',
    dialog: 'Create New Shipment',
    fill: async (page) => {
      await page.getByLabel('Origin').fill('Rotterdam, NL');
      await page.getByLabel('Destination').fill('Oslo, NO');
      await page.getByLabel('Carrier').selectOption('dhl');
      await page.getByLabel('Weight', { exact: true }).fill('120.5');
      await page.getByLabel('Description', { exact: true }).fill('Two pallets of spare parts');
    },
    submit: 'Create Shipment',
    busy: 'Creating...',
    toast: 'Shipment created successfully!',
  },
  {
    path: '/rfp',
    open: 'New RFP Response',
    dialog: 'Create RFP Response',
    fill: async (page) => {
      // Inside the dialog: the list has a Deadline column and a status filter of its own.
      const dialog = page.getByRole('dialog', { name: 'Create RFP Response' });
      await dialog.getByLabel('RFP title').fill('Harbour logistics tender');
      await dialog.getByLabel('Company').fill('Port of Oslo');
      await dialog.getByLabel('Contact email').fill('tenders@port.test');
      await dialog.getByLabel('Value (USD)').fill('250000');
      await dialog.getByLabel('Deadline').fill('2030-05-01');
      await dialog.getByLabel('Proposal').fill('Our proposal covers the full harbour operation.');
    },
    submit: 'Create Response',
    busy: 'Creating...',
    toast: 'RFP response created successfully!',
  },
  {
    path: '/compliance',
    open: 'New Assessment',
    dialog: 'New Compliance Assessment',
    fill: async (page) => {
      // Inside the dialog: the list's filters above it have a Category and a Risk level of their own.
      const dialog = page.getByRole('dialog', { name: 'New Compliance Assessment' });
      await dialog.getByLabel('Title').fill('PCI DSS review');
      await dialog.getByLabel('Category').selectOption('security');
      await dialog.getByLabel('Risk level').selectOption('high');
      await dialog.getByLabel('Responsible team').fill('IT Security');
      await dialog.getByLabel('Next review date').fill('2027-06-01');
      await dialog.getByLabel('Description', { exact: true }).fill('Yearly review of card data handling');
    },
    submit: 'Create Assessment',
    busy: 'Creating...',
    toast: 'Compliance assessment created successfully!',
  },
  {
    path: '/automations',
    open: 'New Automation',
    dialog: 'Create Automation Workflow',
    fill: async (page) => {
      // Inside the dialog: the list's filters have a Status of their own.
      const dialog = page.getByRole('dialog', { name: 'Create Automation Workflow' });
      await dialog.getByLabel('Workflow name').fill('Qualify new leads');
      await dialog.getByLabel('Trigger').selectOption('lead_created');
      await dialog.getByLabel('Action', { exact: true }).selectOption('update_status');
      await dialog.getByLabel('Frequency').selectOption('immediate');
      await dialog.getByLabel('Description', { exact: true }).fill('Every new lead is qualified');
      await dialog.getByLabel('Status (Update Status)').selectOption('qualified');
    },
    submit: 'Create Automation',
    busy: 'Creating...',
    toast: 'Automation workflow created successfully!',
  },
];

async function signedInVisitor(javaScript: boolean): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const visitor = await newVisitor(browser(), { javaScript, baseURL });
  await signInThroughForm(visitor.page, DEMO_ADMIN);
  return visitor;
}

for (const javaScript of [true, false]) {
  describe(`module screens with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    let page: Page;
    let context: BrowserContext;
    let errors: string[];

    beforeAll(async () => {
      ({ page, context, errors } = await signedInVisitor(javaScript));
    });
    afterAll(async () => {
      await context?.close();
    });

    for (const flow of FLOWS) {
      it(`${flow.path}: ${flow.open} opens its dialog, saves and says '${flow.toast}'`, async () => {
        await page.goto(flow.path);
        await page.getByRole('main').getByRole('link', { name: flow.open }).click();
        const dialog = page.getByRole('dialog', { name: flow.dialog });
        await dialog.waitFor();
        expect(new URL(page.url()).search).toMatch(/^\?(new|export)/);
        await flow.fill(page);

        const submit = dialog.getByRole('button', { name: flow.submit, exact: true });
        if (javaScript) {
          // The busy label shows, on a disabled button, while the save waits: both are
          // seen at one moment (asked apart, a quick save had ended between the two).
          // The save's request is held until then: a save that ended between two of
          // the locator's polls was never seen busy, and the test failed at random.
          let release = () => {};
          const held = new Promise<void>((resolve) => (release = resolve));
          const holdSaves = async (route: Route) => {
            if (route.request().method() === 'POST') await held;
            await route.fallback();
          };
          await page.route('**/*', holdSaves);
          const busy = dialog.getByRole('button', { name: flow.busy, disabled: true });
          try {
            await Promise.all([busy.waitFor({ timeout: 5_000 }), submit.click()]);
          } finally {
            release();
            await page.unroute('**/*', holdSaves);
          }
        } else {
          await submit.click();
        }

        await page.getByRole('status').filter({ hasText: flow.toast }).waitFor({ timeout: 10_000 });
        expect(new URL(page.url()).pathname).toBe(flow.path);
        expect(new URL(page.url()).search).toBe('');
        expect(await page.getByRole('dialog').count()).toBe(0);
        expect(errors).toEqual([]);
      });
    }

    it('refuses an upload without a file: Please select a file to upload (the real upload dialog)', async () => {
      await page.goto('/documents?new');
      const dialog = page.getByRole('dialog', { name: 'Upload Document' });
      await page.getByLabel('Title').fill('Nothing attached');
      // The browser's own "required" check would stop the post first; the
      // server's answer is what this checks.
      await page.evaluate(() => document.querySelector('form[enctype="multipart/form-data"]')?.setAttribute('novalidate', ''));
      await dialog.getByRole('button', { name: 'Upload Document', exact: true }).click();
      await dialog.getByText('Please select a file to upload').first().waitFor();
      expect(await page.getByLabel('Title').inputValue()).toBe('Nothing attached');
    });

    it('has no serious or critical accessibility violations on the demonstration screens and their dialogs', async () => {
      // axe runs as a script in the page, so "JavaScript off" is emulated by
      // refusing the app's scripts: the page stays as the server rendered it.
      const { page: axePage, context: axeContext } = await signedInVisitor(true);
      if (!javaScript) await axeContext.route('**/*.js', (route) => route.abort());
      for (const flow of FLOWS) {
        await axePage.goto(flow.path);
        expect(await seriousAxeViolations(axePage), flow.path).toEqual([]);
        const dialogPath = `${flow.path}?new`;
        await axePage.goto(dialogPath);
        await axePage.getByRole('dialog').waitFor();
        expect(await seriousAxeViolations(axePage), dialogPath).toEqual([]);
      }
      await axeContext.close();
      // Sixteen axe scans: a long walk, not a speed target.
    }, 240_000);
  });
}
