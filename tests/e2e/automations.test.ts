// Automations in Chromium (issue 39, decision 080), lean: a new account creates
// an active Assign Task automation from the New Automation dialog (after
// previewing a schedule), a lead created through /leads fires it when the jobs
// runner ticks, the automation's page lists the run, and the task is done from
// 'My tasks' on the dashboard.
import { describe, expect, inject, it } from 'vitest';
import { signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, waitForToast } from './support/browser.ts';
import { runJobs } from './support/quotes.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

describe('automations', () => {
  it('creates an automation, a new lead fires it, its run is listed and its task is done from the dashboard', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    page.setDefaultTimeout(20_000);
    await signUpThroughForm(page, { first: 'Aria', last: 'Auto', label: 'e2e-automations' });

    await page.goto('/automations?new');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Workflow name').fill(`Call new leads ${tag}`);
    // The schedule preview comes from the server, with what was typed kept.
    await dialog.getByLabel('Trigger').selectOption('scheduled_time');
    await dialog.getByLabel('Frequency').selectOption('daily');
    await dialog.getByRole('button', { name: 'Preview schedule' }).click();
    await dialog.getByText(/^Next five runs \(/).waitFor();
    expect(await dialog.getByRole('listitem').count()).toBe(5);
    await expect.poll(() => dialog.getByLabel('Workflow name').inputValue()).toBe(`Call new leads ${tag}`);

    await dialog.getByLabel('Trigger').selectOption('lead_created');
    await dialog.getByLabel('Frequency').selectOption('immediate');
    await dialog.getByLabel('Action', { exact: true }).selectOption('assign_task');
    await dialog.getByLabel(/^Assignee/).selectOption({ label: 'Aria Auto' });
    await dialog.getByLabel('Task (Assign Task)').fill('Call {{name}}');
    await dialog.getByLabel('Description').fill('A task for every new lead');
    await dialog.getByLabel('Status', { exact: true }).selectOption('active');
    await dialog.getByRole('button', { name: 'Create Automation' }).click();
    await waitForToast(page, 'Automation workflow created successfully!');

    await page.goto('/leads?new');
    const lead = page.getByRole('dialog', { name: 'New Lead' });
    await lead.getByLabel('Full name').fill(`Ada ${tag}`);
    await lead.getByLabel('Email').fill('ada@engine.test');
    await lead.getByLabel('Company').fill('Analytical Engines');
    await lead.getByRole('button', { name: 'Create Lead', exact: true }).click();
    await waitForToast(page, `Lead Ada ${tag} created`);
    await runJobs();

    await page.goto('/automations');
    await page.getByRole('link', { name: `Call new leads ${tag}` }).first().click();
    await page.getByRole('heading', { level: 1, name: `Call new leads ${tag}` }).waitFor();
    await page.getByRole('cell', { name: /succeeded/i }).waitFor();
    await page.getByText('task_id').waitFor();

    await page.goto('/dashboard');
    await page.getByText(`Call Ada ${tag}`).waitFor();
    await page.getByRole('checkbox', { name: `Mark "Call Ada ${tag}" done` }).click();
    await waitForToast(page, 'Task done');
    await expect.poll(() => page.getByText(`Call Ada ${tag}`).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
