// A queued export in Chromium, JavaScript on and off (issue 40, decision 081):
// an account with 10,001 leads in April (seeded by one set-based insert), the
// Export Report dialog answers that the report will be mailed, the jobs runner
// builds it, the mail with the signed link is in the local outbox, and the
// link downloads the file. One account for both, made in beforeAll.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signInThroughForm, signUpThroughForm } from './support/people.ts';
import { browserForFile, newVisitor, waitForToast, type Visitor } from './support/browser.ts';
import { runJobs, serviceRest } from './support/quotes.ts';
import { readOutbox } from '../support/confirmation-mail.ts';

type Mail = Awaited<ReturnType<typeof readOutbox>>[number];

const browser = browserForFile();
const baseURL = inject('appUrl');
const LABEL = 'e2e-analytics-export';
const QUEUED = 'This report has more than 10,000 rows: it will be emailed to you as a download link when it is ready';

let email: string;
let accountId: string;

async function sql(statement: string): Promise<void> {
  const response = await fetch(inject('sqlUrl'), { method: 'POST', body: statement });
  if (!response.ok) throw new Error(`SQL failed: ${await response.text()}`);
}

/** The report's mail not seen before, the runner ticked until it is in the outbox (a failed job ends the wait with its error). */
async function reportMail(subject: string, seen: string[]): Promise<Mail> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const mail = (await readOutbox(inject('backendUrl'))).find((m) => m.to === email && m.subject === subject && !seen.includes(m.text));
    if (mail) return mail;
    const failed = await serviceRest<unknown[]>(`jobs?select=kind,last_error&account_id=eq.${accountId}&last_error=not.is.null`);
    if (failed.length > 0) throw new Error(`a job failed: ${JSON.stringify(failed)}`);
    if (Date.now() > deadline) throw new Error(`no mail '${subject}' to ${email}`);
    await runJobs();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  const { page, context } = await newVisitor(browser(), { javaScript: true, baseURL });
  email = await signUpThroughForm(page, { first: 'Rita', last: 'Report', label: LABEL });
  await context.close();
  [{ account_id: accountId }] = await serviceRest<{ account_id: string }[]>(`users?select=account_id&email=eq.${encodeURIComponent(email)}`);
  // 10,001 leads in April: one statement, not a request per row.
  await sql(`insert into public.leads (account_id, name, email, company, created_at)
    select '${accountId}', 'lead ' || n, 'l' || n || '@export.test', 'Co', '2026-04-05T12:00:00Z' from generate_series(1, 10001) n`);
}, 180_000);

const seen: string[] = [];

for (const javaScript of [true, false]) {
  describe(`a queued export with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    let visitor: Visitor;
    beforeAll(async () => {
      visitor = await newVisitor(browser(), { javaScript, baseURL });
      await signInThroughForm(visitor.page, { email, password: `${LABEL}-password` });
    });
    afterAll(async () => visitor?.context.close());

    it('says the report will be mailed, and the mailed link downloads it', async () => {
      const { page, errors } = visitor;
      // A different format each time: the same request within a minute is queued once.
      const format = javaScript ? 'csv' : 'excel';
      await page.goto('/analytics?range=custom&from=2026-04-01&to=2026-04-30&export');
      const dialog = page.getByRole('dialog', { name: 'Export Report' });
      await dialog.waitFor();
      await dialog.getByLabel('Report type').selectOption('leads');
      await dialog.getByLabel('Format').selectOption(format);
      expect(await dialog.getByLabel('Start date').inputValue()).toBe('2026-04-01');
      await dialog.getByRole('button', { name: 'Export Report', exact: true }).click();
      await waitForToast(page, QUEUED);
      expect(new URL(page.url()).search).toBe('?range=custom&from=2026-04-01&to=2026-04-30');

      const mail = await reportMail('Your Leads Report is ready', seen);
      seen.push(mail.text);
      const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
      const extension = javaScript ? 'csv' : 'xlsx';
      expect(link).toContain(`/storage/v1/object/sign/reports/${accountId}/`);
      expect(link).toContain(`/leads-report-2026-04-01-to-2026-04-30.${extension}`);
      const file = await fetch(link!);
      expect(file.status).toBe(200);
      const body = new Uint8Array(await file.arrayBuffer());
      if (javaScript) {
        const lines = new TextDecoder().decode(body).trimEnd().split('\r\n');
        expect(lines).toContain('Name,Company,Email,Source,Status,Created');
        expect(lines.filter((line) => line.startsWith('lead '))).toHaveLength(10001);
      } else {
        // An XLSX is a zip: its local file header.
        expect([...body.slice(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
        expect(body.length).toBeGreaterThan(100_000);
      }
      expect(errors).toEqual([]);
    }, 180_000);
  });
}
