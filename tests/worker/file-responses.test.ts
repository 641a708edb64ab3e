// Files the app hands over are data, never pages (issue 30): a document's
// download (a signed Storage link) and the app's own file routes (a CSV, a
// PDF) come with nosniff, a sandboxing CSP and as attachments; an uploaded
// text file that holds a script page is served as text/plain.
import { env } from 'cloudflare:workers';
import { beforeAll, expect, it } from 'vitest';
import { DEMO_ADMIN } from '../support/accounts';
import { signIn, type Visitor } from './support/app';
import { upload } from './support/documents';

const SCRIPT_PAGE = '<!doctype html><html><body><script>fetch("/_outbox").then((r) => r.text()).then(alert)</script></body></html>\n';

let admin: Visitor;
beforeAll(async () => {
  admin = await signIn(DEMO_ADMIN);
});

it("a document whose text is a script page downloads as a plain-text attachment, sandboxed", async () => {
  const title = `Script page ${Date.now()}`;
  const id = await upload(admin, { file: new File([SCRIPT_PAGE], 'page.txt', { type: 'text/html' }), title, type: 'other' });
  const download = await admin.get(`/documents/${id}/download`);
  expect(download.status).toBe(302);
  const link = new URL(download.headers.get('Location')!);
  expect(link.origin).toBe(new URL(env.SUPABASE_URL).origin);
  // The same link without its download name, as someone could open it: still no page.
  for (const url of [link.href, link.href.replace(/&download=[^&]*/, '')]) {
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/plain');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(await file.text()).toBe(SCRIPT_PAGE);
  }
});

it("the app's own file routes send the same headers", async () => {
  const csv = await admin.get('/settings/audit-logs.csv');
  expect(csv.status).toBe(200);
  expect(csv.headers.get('content-disposition')).toMatch(/^attachment/);
  expect(csv.headers.get('x-content-type-options')).toBe('nosniff');
  expect(csv.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  await csv.arrayBuffer();
  // An analytics report (issue 40), in each of its formats.
  for (const format of ['csv', 'excel', 'pdf']) {
    const report = await admin.get(`/analytics/export?report_type=sales&format=${format}&date_range=last_30_days&include_summary=on`);
    expect(report.status, format).toBe(200);
    expect(report.headers.get('content-disposition'), format).toMatch(/^attachment; filename="sales-report-/);
    expect(report.headers.get('x-content-type-options'), format).toBe('nosniff');
    expect(report.headers.get('content-security-policy'), format).toBe("default-src 'none'; sandbox");
    await report.arrayBuffer();
  }
});
