// Automations in Chromium (issue 39, decision 080), lean: a new account creates
// an active Assign Task automation from the New Automation dialog (after
// previewing a schedule), a lead created through /leads fires it when the jobs
// runner ticks, the automation's page lists the run, and the task is done from
// 'My tasks' on the dashboard; a Send Email automation on the same trigger
// mails the new lead through a template, the mail read from the local outbox.
import { describe, expect, inject, it } from 'vitest';
import { signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, waitForToast } from './support/browser.ts';
import { runPeriodicNow, serviceRest } from './support/quotes.ts';
import { readOutbox } from '../support/confirmation-mail.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

describe('automations', () => {
  it('creates an automation, a new lead fires it, its run is listed and its task is done from the dashboard', async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const { page, context, errors } = await newVisitor(browser(), { javaScript: true, baseURL });
    page.setDefaultTimeout(20_000);
    const email = await signUpThroughForm(page, { first: 'Aria', last: 'Auto', label: 'e2e-automations' });
    // The account's e-mail template (its own screen is proven elsewhere).
    const [me] = await serviceRest<{ account_id: string }[]>(`users?select=account_id&email=eq.${encodeURIComponent(email)}`);
    await serviceRest('templates', {
      method: 'POST',
      body: { account_id: me.account_id, name: `Lead welcome ${tag}`, type: 'email', subject: 'Thanks, {{name}}', content: 'Hello {{name}}, we will be in touch.' },
    });

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

    // A second automation on the same trigger: Send Email to the event's contact.
    await page.goto('/automations?new');
    await dialog.getByLabel('Workflow name').fill(`Welcome new leads ${tag}`);
    await dialog.getByLabel('Trigger').selectOption('lead_created');
    await dialog.getByLabel('Action', { exact: true }).selectOption('send_email');
    await dialog.getByLabel('Template (Send Email)').selectOption({ label: `Lead welcome ${tag}` });
    await dialog.getByLabel('Recipient (Send Email)').selectOption({ label: "The event's contact" });
    await dialog.getByLabel('Description').fill('A welcome mail for every new lead');
    await dialog.getByLabel('Status', { exact: true }).selectOption('active');
    await dialog.getByRole('button', { name: 'Create Automation' }).click();
    await waitForToast(page, 'Automation workflow created successfully!');

    await page.goto('/leads?new');
    const lead = page.getByRole('dialog', { name: 'New Lead' });
    await lead.getByLabel('Full name').fill(`Ada ${tag}`);
    const leadEmail = `ada-${tag}@engine.test`;
    await lead.getByLabel('Email').fill(leadEmail);
    await lead.getByLabel('Company').fill('Analytical Engines');
    await lead.getByRole('button', { name: 'Create Lead', exact: true }).click();
    await waitForToast(page, `Lead Ada ${tag} created`);
    // The runner's tick runs the automations (queuing the mail) and sends it. The engine's step is queued once a
    // minute (its key carries the minute, and another test may have ticked this one): each tick here forces it.
    const mails = async () => (await readOutbox(inject('backendUrl'))).filter((mail) => mail.to === leadEmail);
    for (let tick = 1; tick <= 20 && (await mails()).length === 0; tick++) await runPeriodicNow('automations.run');
    const sent = await mails();
    expect(sent.map((mail) => mail.subject)).toEqual([`Thanks, Ada ${tag}`]);
    expect(sent[0].text).toContain(`Hello Ada ${tag}, we will be in touch.`);

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
