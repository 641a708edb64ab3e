// Export Report (issue 40): the dialog's post answers with the file, built
// from the account's own records and figures over the chosen range. Each
// file is parsed back: the CSV's lines, the XLSX's zip parts and XML, the
// PDF's text. Cells that a spreadsheet would run as formulas are neutralised.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { strFromU8, unzipSync } from 'fflate';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { readOutbox } from '../support/confirmation-mail';
import { pageText, signUpFreshAdmin, type Visitor } from './support/app';
import { accountOf, runSql, serviceClient } from './support/backend';
import { expectRefused, invalidFields } from './support/module-screens';

let visitor: Visitor;
const APRIL = { date_range: 'custom', start_date: '2026-04-01', end_date: '2026-04-30' };

beforeAll(async () => {
  const fresh = await signUpFreshAdmin();
  visitor = fresh.visitor;
  const { accountId } = await accountOf(fresh.email);
  await runSql(`insert into public.leads (account_id, name, email, company, source, status, created_at) values
      ('${accountId}', '=HYPERLINK("http://evil.test")', 'a@l.test', '+Co', 'referral', 'new', '2026-04-02T12:00:00Z'),
      ('${accountId}', 'Zoë, "Ltd"', 'b@l.test', '@at', 'website', 'qualified', '2026-04-03T12:00:00Z'),
      ('${accountId}', 'March lead', 'c@l.test', 'Co', 'website', 'new', '2026-03-15T12:00:00Z')`);
  await runSql(`do $$ begin
      perform set_config('session_replication_role', 'replica', true);
      insert into public.invoices (account_id, invoice_number, client_name, client_email, currency, total, due_date, status, created_at) values
        ('${accountId}', 'INV-A', 'Acme', 'c@c.test', 'USD', 120000, '2026-06-01', 'sent', '2026-04-10T12:00:00Z'),
        ('${accountId}', 'INV-B', '-Minus', 'c@c.test', 'EUR', 50000, '2026-06-01', 'sent', '2026-04-11T12:00:00Z');
      -- Rows written with triggers off: the money rollups are rebuilt from them.
      perform private.rebuild_analytics_money_rollups('${accountId}');
    end $$`);
});

function form(fields: Record<string, string>) {
  return { report_type: 'leads', format: 'csv', ...APRIL, include_charts: 'on', include_summary: 'on', ...fields };
}

/** Posts the dialog and follows it to the file, as a browser does. */
async function exported(fields: Record<string, string>, by: Visitor = visitor) {
  const posted = await by.post('/analytics?export', form(fields));
  expect(posted.status).toBe(303);
  const location = posted.headers.get('Location')!;
  expect(location).toMatch(/^\/analytics\/export\?/);
  return by.get(location);
}

describe('Export Report', () => {
  it('gives the file to staff only: an anonymous visitor is sent to sign in, a bad query is a 400', async () => {
    const { Visitor: Anonymous } = await import('./support/app');
    const anonymous = await new Anonymous().get('/analytics/export?report_type=leads&format=csv&date_range=last_7_days');
    expect(anonymous.status).toBe(302);
    const bad = await visitor.get('/analytics/export?report_type=secret&format=csv&date_range=last_7_days');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe('Choose a report type');
  });

  it('downloads the leads of the range as CSV, formulas neutralised, quotes and commas escaped', async () => {
    const response = await exported({});
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="leads-report-2026-04-01-to-2026-04-30.csv"');
    const lines = (await response.text()).split('\r\n');
    expect(lines[0]).toBe('Leads Report');
    expect(lines[1]).toBe('Period,2026-04-01 to 2026-04-30 (UTC)');
    expect(lines).toContain('New leads: 2');
    expect(lines).toContain('Referral,1');
    expect(lines).toContain('Name,Company,Email,Source,Status,Created');
    expect(lines.some((line) => line.startsWith(`"'=HYPERLINK(""http://evil.test"")",'+Co,a@l.test,referral,new,`))).toBe(true);
    expect(lines.some((line) => line.startsWith(`"Zoë, ""Ltd""",'@at,b@l.test,website,qualified,`))).toBe(true);
    expect(lines.join('\n')).not.toContain('March lead');
  });

  it('leaves the summary and the charts out when they are not ticked', async () => {
    const text = await (await exported({ include_charts: '', include_summary: '' })).text();
    expect(text).not.toContain('Summary');
    expect(text).not.toContain('New leads by source');
    expect(text).toContain('Name,Company,Email,Source,Status,Created');
  });

  it('writes a valid XLSX package: every part well-formed XML, the cells as typed, money per currency', async () => {
    const response = await exported({ report_type: 'financial', format: 'excel' });
    expect(response.headers.get('Content-Type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/workbook.xml',
      'xl/worksheets/sheet1.xml',
      'xl/worksheets/sheet2.xml',
    ]);
    for (const [name, bytes] of Object.entries(files)) expect(XMLValidator.validate(strFromU8(bytes)), name).toBe(true);
    const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => ['row', 'c', 'sheet'].includes(name) });
    const workbook = parser.parse(strFromU8(files['xl/workbook.xml']));
    expect(workbook.workbook.sheets.sheet.map((sheet: Record<string, string>) => sheet['@_name'])).toEqual(['Summary', 'Invoices']);
    const rows = parser.parse(strFromU8(files['xl/worksheets/sheet2.xml'])).worksheet.sheetData.row;
    const cells = (row: { c: { v?: number; is?: { t: { '#text': string } | string } }[] }) =>
      row.c.map((cell) => (cell.v !== undefined ? cell.v : typeof cell.is?.t === 'object' ? cell.is.t['#text'] : cell.is?.t));
    expect(cells(rows[0])).toEqual(['Invoice', 'Client', 'Status', 'Currency', 'Total', 'Paid', 'Due', 'Created']);
    expect(cells(rows[1]).slice(0, 6)).toEqual(['INV-A', 'Acme', 'sent', 'USD', 1200, 0]);
    expect(cells(rows[2]).slice(0, 6)).toEqual(['INV-B', "'-Minus", 'sent', 'EUR', 500, 0]);
    const summary = strFromU8(files['xl/worksheets/sheet1.xml']);
    expect(summary).toContain('USD: invoiced $1,200');
    expect(summary).toContain('EUR: invoiced €500');
    expect(summary).not.toContain('1,700');
  });

  it('writes a PDF with the summary, the charts and the records', async () => {
    const response = await exported({ report_type: 'comprehensive', format: 'pdf' });
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    const text = (await extractText(await getDocumentProxy(new Uint8Array(await response.arrayBuffer())), { mergePages: true })).text;
    for (const part of ['Comprehensive Report', 'Summary', 'New leads: 2', 'New leads by source', 'Invoices (2)', 'INV-A', 'Leads (2)', 'Compliance: no requirements are tracked yet.']) {
      expect(text).toContain(part);
    }
    const plain = (await extractText(await getDocumentProxy(new Uint8Array(await (await exported({ report_type: 'comprehensive', format: 'pdf', include_summary: '', include_charts: '' })).arrayBuffer())), { mergePages: true })).text;
    expect(plain).not.toContain('New leads by source');
    expect(plain).not.toContain('Summary');
    expect(plain).toContain('INV-A');
  });

  it('refuses a custom range without dates, and a form without its selects', async () => {
    await expectRefused(visitor, '/analytics?export', form({ start_date: '' }), 'start_date', 'Start date is required for a custom range');
    const response = await visitor.post('/analytics?export', { include_charts: 'on' });
    expect(response.status).toBe(400);
    expect(invalidFields(await response.text())).toEqual(['report_type']);
  });

  it('queues a report of more than 10,000 rows, says so, and the job mails a signed link to the file', async () => {
    const big = await signUpFreshAdmin();
    bigEmail = big.email;
    const { accountId } = await accountOf(big.email);
    await runSql(`insert into public.leads (account_id, name, email, company, created_at)
      select '${accountId}', 'lead ' || n, 'l' || n || '@l.test', 'Co', '2026-04-05T12:00:00Z' from generate_series(1, 10001) n`);
    // The file itself is refused as a direct download, saying why.
    const direct = await big.visitor.get(`/analytics/export?report_type=leads&format=csv&date_range=custom&start_date=2026-04-01&end_date=2026-04-30`);
    expect(direct.status).toBe(413);
    expect(await direct.text()).toContain('This report has more than 10,000 rows: choose a shorter date range');
    // The dialog queues it instead and the page says so.
    const posted = await big.visitor.post('/analytics?export', form({}));
    expect(posted.status).toBe(302);
    const page = await pageText(await big.visitor.follow(posted));
    expect(page).toContain('This report has more than 10,000 rows: it will be emailed to you as a download link when it is ready');
    const { data: jobs } = await serviceClient().from('jobs').select('id, payload').eq('account_id', accountId).eq('kind', 'analytics.export_report');
    expect(jobs).toHaveLength(1);
    expect(jobs![0].payload).toMatchObject({ report_type: 'leads', format: 'csv', date_range: 'custom', from: '2026-04-01', to: '2026-04-30' });
    const mail = await mailWhenDone(accountId, big.email, /ready/);
    expect(mail.subject).toBe('Your Leads Report is ready');
    const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
    expect(link).toContain(`/storage/v1/object/sign/reports/${accountId}/${jobs![0].id}/leads-report-2026-04-01-to-2026-04-30.csv`);
    const file = await fetch(link!);
    expect(file.status).toBe(200);
    const lines = (await file.text()).trimEnd().split('\r\n');
    expect(lines.filter((line) => line.startsWith('lead '))).toHaveLength(10001);
    expect(lines).toContain('Name,Company,Email,Source,Status,Created');

    // A PDF of as many rows (over PDF_MAX_ROWS, decision 094) is refused in the dialog under its field,
    // and nothing more is queued; the file's own URL says the same.
    const pdf = await big.visitor.post('/analytics?export', form({ format: 'pdf' }));
    expect(pdf.status).toBe(400);
    expect(await pdf.text()).toContain('A PDF holds at most 10,000 rows; this report has 10,001: choose CSV or Excel, or a shorter date range');
    const after = await serviceClient().from('jobs').select('id').eq('account_id', accountId).eq('kind', 'analytics.export_report');
    expect(after.data).toHaveLength(1);
    const directPdf = await big.visitor.get(`/analytics/export?report_type=leads&format=pdf&date_range=custom&start_date=2026-04-01&end_date=2026-04-30`);
    expect(directPdf.status).toBe(413);
    expect(await directPdf.text()).toContain('A PDF holds at most 10,000 rows: choose CSV or Excel, or a shorter date range');
  }, 120_000);

  it('runs a job queued as the automations contract says (xlsx), and mails why when the file would be too large', async () => {
    // The account of the test above, with its 10,001 leads.
    const { data: users } = await serviceClient().from('users').select('id, account_id, email').eq('email', bigEmail).single();
    const queue = (key: string) =>
      serviceClient().rpc('enqueue_job', {
        p_kind: 'analytics.export_report',
        p_idempotency_key: key,
        p_account_id: users!.account_id,
        p_payload: {
          report_type: 'leads', format: 'xlsx', date_range: 'custom', from: '2026-04-01', to: '2026-04-30',
          include_charts: true, include_summary: true, recipient_user_id: users!.id,
        },
      });
    expect((await queue(`contract-${users!.id}`)).error).toBeNull();
    // A small cap (ANALYTICS_JOB_MAX_ROWS) for this run of the Worker's scheduled handler.
    await runCronWith({ ANALYTICS_JOB_MAX_ROWS: '100' });
    const mail = await mailWhenDone(users!.account_id, bigEmail, /too many rows/);
    expect(mail.text).toContain('has more than 100 rows, more than one file can hold. Export a shorter date range.');
  }, 60_000);
});

let bigEmail = '';

// The pool calls the Worker's own scheduled handler, which its typed exports do not list.
type Scheduled = { scheduled(event: { cron: string; scheduledTime: number }, env?: Env, ctx?: ExecutionContext): Promise<void> };

async function runCronWith(extra: Record<string, string> = {}): Promise<void> {
  const path = (env as unknown as { WORKER_MAIN_FOR_TESTS: string }).WORKER_MAIN_FOR_TESTS;
  const built = ((await import(/* @vite-ignore */ path)) as { default: Scheduled }).default;
  const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  await built.scheduled({ cron: '* * * * *', scheduledTime: Date.now() }, { ...env, ...extra } as unknown as Env, ctx);
}

/** Runs the jobs until the account's export and mail jobs are done; the mail to `to` whose subject matches. */
async function mailWhenDone(accountId: string, to: string, subject: RegExp) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const mails = (await readOutbox(env.SUPABASE_URL)).filter((m) => m.to === to && subject.test(m.subject));
    if (mails.length > 0) return mails.at(-1)!;
    // A failure, or an error that has the job waiting for a retry, ends the wait with its message.
    const { data } = await serviceClient().from('jobs').select('kind, status, last_error').eq('account_id', accountId).not('last_error', 'is', null);
    if (data && data.length > 0) throw new Error(`a job failed: ${JSON.stringify(data)}`);
    if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
    await runCronWith();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
