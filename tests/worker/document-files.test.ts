// A document's file and page through the real Worker and the local backend's
// Storage: download by a short-lived signed link, delete (row and object,
// audited), with and without a session, for each role (auditors read and
// download but change nothing; another account sees nothing), and the
// extraction job, the review of its fields and the review status.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_AUDITOR, DEMO_MEMBER, DEMO_NORTHWIND_ADMIN } from '../support/accounts';
import { pageText, signIn, Visitor } from './support/app';
import { accountOf, serviceClient, userClient } from './support/backend';
import { extracted, objectExists, pdfNamed, pngNamed, storedFolders, textInvoice, upload, uploadForm } from './support/documents';
import { invalidFields, page, readable } from './support/module-screens';

let admin: Visitor;
let auditor: Visitor;
let demoAccount: string;
beforeAll(async () => {
  admin = await signIn(DEMO_ADMIN);
  auditor = await signIn(DEMO_AUDITOR);
  demoAccount = (await accountOf(DEMO_ADMIN.email)).accountId;
});

async function documentRow(id: string) {
  const { data } = await serviceClient().from('documents').select('*').eq('id', id).maybeSingle();
  return data as { id: string; file_path: string; status: string; fields: Record<string, { value: string; confidence: number }> } | null;
}

async function auditActions(id: string): Promise<string[]> {
  const { data } = await serviceClient().from('audit_logs').select('action').eq('resource_id', id).order('created_at');
  return (data ?? []).map((row: { action: string }) => row.action);
}

describe('a document without a session', () => {
  it('sends the visitor to sign in for the list, the page, the download and the upload, storing nothing', async () => {
    const id = await upload(admin, { file: pdfNamed('private.pdf'), title: `Private ${Date.now()}` });
    const stranger = new Visitor();
    for (const path of ['/documents', `/documents/${id}`, `/documents/${id}/download`]) {
      const response = await stranger.get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('Location'), path).toBe(`/auth?redirectTo=${encodeURIComponent(path)}`);
    }
    const before = await storedFolders(demoAccount);
    const posted = await stranger.post('/documents?new', uploadForm({ file: pdfNamed(), title: 'Anonymous' }));
    expect([302, 401, 403]).toContain(posted.status);
    expect(await storedFolders(demoAccount)).toEqual(before);
    // Storage itself refuses the anonymous key, reading and writing.
    const { createClient } = await import('@supabase/supabase-js');
    const anon = createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, { auth: { persistSession: false } });
    const row = await documentRow(id);
    expect((await anon.storage.from('documents').download(row!.file_path)).error).not.toBeNull();
    expect((await anon.storage.from('documents').upload(`${demoAccount}/${crypto.randomUUID()}/x.pdf`, new Blob(['%PDF-1.4']))).error).not.toBeNull();
  });
});

describe('a document of the account', () => {
  it('shows its file, downloads it through a signed link that works for a minute, and deletes row and object', async () => {
    const file = textInvoice('INV-FILE-1', 'file test.txt');
    const title = `File test ${Date.now()}`;
    const id = await upload(admin, { file, title, description: 'Kept in Storage' });
    const html = readable(await page(admin, `/documents/${id}`));
    expect(html).toContain(title);
    expect(html).toContain('File name file test.txt');
    expect(html).toContain('Uploaded by Dana Demo');
    expect(html).toContain('Kept in Storage');

    const download = await admin.get(`/documents/${id}/download`);
    expect(download.status).toBe(302);
    const link = new URL(download.headers.get('Location')!);
    expect(link.origin).toBe(new URL(env.SUPABASE_URL).origin);
    expect(link.pathname).toContain('/storage/v1/object/sign/documents/');
    const fetched = await fetch(link);
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe(await file.text());
    expect(fetched.headers.get('content-disposition')).toContain('file%20test.txt');

    const row = await documentRow(id);
    expect(await objectExists(row!.file_path)).toBe(true);
    const deleted = await admin.post(`/documents/${id}?delete`, { intent: 'delete' });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get('Location')).toBe('/documents');
    expect(readable(await pageText(await admin.follow(deleted)))).toContain('Document deleted');
    expect(await documentRow(id)).toBeNull();
    expect(await objectExists(row!.file_path)).toBe(false);
    expect(await auditActions(id)).toEqual(expect.arrayContaining(['document_uploaded', 'document_deleted']));
    expect((await admin.get(`/documents/${id}`)).status).toBe(404);
  });

  it('lets a member upload and delete', async () => {
    const member = await signIn(DEMO_MEMBER);
    const id = await upload(member, { file: pdfNamed('member.pdf'), title: `Member upload ${Date.now()}` });
    expect((await member.post(`/documents/${id}`, { intent: 'delete' })).status).toBe(302);
    expect(await documentRow(id)).toBeNull();
  });
});

describe('an auditor', () => {
  it('reads the list and the page and downloads, but is offered no upload, review or delete', async () => {
    const title = `Audited ${Date.now()}`;
    const id = await upload(admin, { file: textInvoice(), title });
    await extracted(id);
    const list = await page(auditor, '/documents');
    expect(readable(list)).toContain(title);
    expect(list).not.toContain('href="/documents?new"');
    const detail = await page(auditor, `/documents/${id}`);
    expect(readable(detail)).toContain('Invoice number');
    expect(detail).not.toContain('name="intent" value="review"');
    expect(detail).not.toContain('href="?delete"');
    const download = await auditor.get(`/documents/${id}/download`);
    expect(download.status).toBe(302);
    expect((await fetch(download.headers.get('Location')!)).status).toBe(200);
  });

  it('cannot upload, review, change the status or delete: 403 and nothing changed', async () => {
    const id = await upload(admin, { file: pdfNamed('kept.pdf'), title: `Kept ${Date.now()}` });
    const before = await storedFolders(demoAccount);
    const posted = await auditor.post('/documents?new', uploadForm({ file: pdfNamed(), title: 'Auditor upload' }));
    expect(posted.status).toBe(403);
    expect(readable(await pageText(posted))).toContain('Your role can view these records but not change them');
    expect(await storedFolders(demoAccount)).toEqual(before);
    const posts: Record<string, string>[] = [{ intent: 'delete' }, { intent: 'status', status: 'Approved' }, { intent: 'review', invoice_number: 'X-1' }, { intent: 'text', text: 'Total: EUR 1.00' }];
    for (const fields of posts) {
      expect((await auditor.post(`/documents/${id}`, fields)).status, fields.intent).toBe(403);
    }
    expect(await documentRow(id)).toMatchObject({ status: 'Pending Review' });
    // Storage refuses the auditor's own token too: the database's policies decide, not the screen.
    const client = await userClient(DEMO_AUDITOR.email, DEMO_AUDITOR.password);
    expect((await client.storage.from('documents').upload(`${demoAccount}/${crypto.randomUUID()}/a.pdf`, new Blob(['%PDF-1.4']))).error).not.toBeNull();
    expect((await client.storage.from('documents').remove([(await documentRow(id))!.file_path])).data ?? []).toEqual([]);
    expect(await objectExists((await documentRow(id))!.file_path)).toBe(true);
  });
});

describe("another account's admin", () => {
  it('finds nothing: the page and the download are 404, a delete changes nothing, and Storage refuses the folder', async () => {
    const id = await upload(admin, { file: pdfNamed('ours.pdf'), title: `Ours ${Date.now()}` });
    const outsider = await signIn(DEMO_NORTHWIND_ADMIN);
    expect((await outsider.get(`/documents/${id}`)).status).toBe(404);
    expect((await outsider.get(`/documents/${id}/download`)).status).toBe(404);
    expect((await outsider.post(`/documents/${id}`, { intent: 'delete' })).status).toBe(400);
    expect(await documentRow(id)).not.toBeNull();
    // Pasting the text of another account's image: 404, and the image stays waiting for its own.
    const image = await upload(admin, { file: pngNamed(), title: `Our scan ${Date.now()}` });
    expect((await outsider.post(`/documents/${image}`, { intent: 'text', text: 'Total: EUR 1.00' })).status).toBe(404);
    expect((await serviceClient().from('documents').select('extraction_status, text').eq('id', image).single()).data).toEqual({ extraction_status: 'needs_text', text: null });
    const client = await userClient(DEMO_NORTHWIND_ADMIN.email, DEMO_NORTHWIND_ADMIN.password);
    const path = (await documentRow(id))!.file_path;
    expect((await client.storage.from('documents').download(path)).error).not.toBeNull();
    expect((await client.storage.from('documents').upload(`${demoAccount}/${crypto.randomUUID()}/in.pdf`, new Blob(['%PDF-1.4']))).error).not.toBeNull();
  });
});

describe('extraction and review', () => {
  it('extracts the fields of an upload as a job, shows them with their confidence, and records document_extracted', async () => {
    const id = await upload(admin, { file: textInvoice('INV-REVIEW-9'), title: `Review ${Date.now()}` });
    const done = await extracted(id);
    expect(done.extraction_status).toBe('done');
    expect(done.fields.invoice_number).toMatchObject({ value: 'INV-REVIEW-9' });
    expect(done.fields.total).toMatchObject({ value: '1542.60' });
    expect(done.fields.currency).toMatchObject({ value: 'GBP' });
    const html = await page(admin, `/documents/${id}`);
    expect(html).toContain('value="INV-REVIEW-9"');
    expect(readable(html)).toMatch(/Found with \d+% confidence/);
    // Below 80% (the supplier read from the first line, a total nothing cross-checks) the form asks the person to look; at 90% it does not (decision 056).
    expect(readable(html)).toMatch(/Found with [1-7]\d% confidence · please check/);
    expect(readable(html)).toMatch(/Found with 9\d% confidence(?! · please check)/);
    expect(readable(html)).toContain('Extracted text');
    const { data: events } = await serviceClient().from('events').select('kind').eq('resource_id', id);
    expect(events).toEqual([{ kind: 'document_extracted' }]);
    expect(await auditActions(id)).toContain('document_extracted');
  });

  it('takes corrections: invalid ones come back under their fields, valid ones are confirmed, audited and approve the document', async () => {
    const id = await upload(admin, { file: textInvoice('INV-FIX-1'), title: `Corrected ${Date.now()}` });
    await extracted(id);
    const bad = await admin.post(`/documents/${id}`, { intent: 'review', invoice_number: 'INV-FIX-2', issue_date: '2025-02-30', total: 'lots', currency: 'EURO' });
    expect(bad.status).toBe(400);
    const badHtml = await pageText(bad);
    expect(invalidFields(badHtml)).toEqual(['currency', 'issue_date', 'total']);
    expect(readable(badHtml)).toContain('Enter a date as YYYY-MM-DD');
    expect(badHtml).toContain('value="INV-FIX-2"');
    expect((await documentRow(id))!.fields.invoice_number.value).toBe('INV-FIX-1');

    const good = await admin.post(`/documents/${id}`, {
      intent: 'review', kind: 'invoice', invoice_number: 'INV-FIX-2', issue_date: '2025-03-14', total: '1542.60', currency: 'gbp', approve: 'on',
    });
    expect(good.status).toBe(302);
    expect(readable(await pageText(await admin.follow(good)))).toContain('Fields confirmed and document approved');
    const row = await documentRow(id);
    expect(row!.status).toBe('Approved');
    expect(row!.fields.invoice_number).toEqual({ value: 'INV-FIX-2', confidence: 1 });
    expect(row!.fields.currency).toEqual({ value: 'GBP', confidence: 1 });
    expect(row!.fields.supplier_name).toBeUndefined();
    expect(await auditActions(id)).toContain('document_reviewed');
  });

  it('moves Pending Review → Approved → Final, and a final document takes no more changes', async () => {
    const id = await upload(admin, { file: textInvoice(), title: `Finalised ${Date.now()}` });
    await extracted(id);
    expect((await admin.post(`/documents/${id}`, { intent: 'status', status: 'Final' })).status).toBe(400);
    expect((await admin.post(`/documents/${id}`, { intent: 'status', status: 'Approved' })).status).toBe(302);
    expect((await admin.post(`/documents/${id}`, { intent: 'status', status: 'Final' })).status).toBe(302);
    const html = await page(admin, `/documents/${id}`);
    expect(html).not.toContain('name="intent" value="review"');
    expect((await admin.post(`/documents/${id}`, { intent: 'review', invoice_number: 'CHANGED-1' })).status).toBe(400);
    expect((await admin.post(`/documents/${id}`, { intent: 'status', status: 'Pending Review' })).status).toBe(400);
    expect(await documentRow(id)).toMatchObject({ status: 'Final' });
  });

  it('says an image needs its text (OCR runs only in a browser), and extracts the text a person pastes', async () => {
    const id = await upload(admin, { file: pngNamed(), title: `Photo ${Date.now()}` });
    const row = await serviceClient().from('documents').select('extraction_status, extraction_error').eq('id', id).single();
    expect(row.data).toMatchObject({ extraction_status: 'needs_text' });
    const html = await page(admin, `/documents/${id}`);
    expect(readable(html)).toContain('An image has no text layer: read its text with Read text from the image (JavaScript needed), or paste the text');
    expect(html).toContain('name="text"');
    // The OCR button needs JavaScript: the server's page has none, only the box.
    expect(html).not.toContain('Read text from the image</button>');
    const empty = await admin.post(`/documents/${id}`, { intent: 'text', text: '  ' });
    expect(empty.status).toBe(400);
    expect(invalidFields(await pageText(empty))).toEqual(['text']);
    const pasted = await admin.post(`/documents/${id}`, { intent: 'text', text: 'RECEIPT\nReceipt No: R-2025-118\nDate: 2025-05-02\nTotal: EUR 48.20' });
    expect(pasted.status).toBe(302);
    expect(readable(await pageText(await admin.follow(pasted)))).toContain('Text received: its fields are being extracted');
    const done = await extracted(id);
    expect(done.extraction_status).toBe('done');
    expect(done.text).toContain('R-2025-118');
    expect(done.fields.total).toMatchObject({ value: '48.20' });
    expect(done.fields.currency).toMatchObject({ value: 'EUR' });
    // Its fields are on the page with their confidence, and the text is not asked for again.
    const after = await page(admin, `/documents/${id}`);
    expect(after).toContain('value="48.20"');
    expect(readable(after)).toMatch(/Found with \d+% confidence/);
    expect(after).not.toContain('name="text"');
    const again = await admin.post(`/documents/${id}`, { intent: 'text', text: 'Total: EUR 1.00' });
    expect(again.status).toBe(400);
    expect(readable(await pageText(again))).toContain('This document already has its text: correct its fields instead.');
    expect((await extracted(id)).fields.total).toMatchObject({ value: '48.20' });
  });

  it('refuses a pasted text over 200,000 characters under the box, keeping what was pasted and the document waiting', async () => {
    const id = await upload(admin, { file: pngNamed(), title: `Long ${Date.now()}` });
    const marker = `MARKER-${Date.now()}`;
    const response = await admin.post(`/documents/${id}`, { intent: 'text', text: `${marker} ${'x'.repeat(200_000)}` });
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(invalidFields(html)).toEqual(['text']);
    expect(readable(html)).toContain('Text must be at most 200000 characters');
    expect(html).toContain(marker);
    const row = await serviceClient().from('documents').select('extraction_status, text').eq('id', id).single();
    expect(row.data).toEqual({ extraction_status: 'needs_text', text: null });
  });

  it("serves an image's or a PDF's bytes from the app's origin for OCR, to those who may read it, and nothing else", async () => {
    const file = pngNamed('photo.png');
    const id = await upload(admin, { file, title: `OCR image ${Date.now()}` });
    const response = await admin.get(`/documents/${id}/image`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('image/png');
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    expect(response.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array(await file.arrayBuffer()));
    // An auditor reads the document, so its image too.
    expect((await auditor.get(`/documents/${id}/image`)).status).toBe(200);
    const outsider = await signIn(DEMO_NORTHWIND_ADMIN);
    expect((await outsider.get(`/documents/${id}/image`)).status).toBe(404);
    const stranger = await new Visitor().get(`/documents/${id}/image`);
    expect(stranger.status).toBe(302);
    expect(stranger.headers.get('Location')).toBe(`/auth?redirectTo=${encodeURIComponent(`/documents/${id}/image`)}`);
    // Not an image or a PDF: not OCR's to read.
    const text = await upload(admin, { file: textInvoice(), title: `Not an image ${Date.now()}` });
    expect((await admin.get(`/documents/${text}/image`)).status).toBe(404);
    // A PDF: the browser draws a scan's pages from these bytes ("Read text from the scan", decision 095).
    const pdf = await upload(admin, { file: pdfNamed('scan.pdf'), title: `OCR scan ${Date.now()}` });
    const served = await admin.get(`/documents/${pdf}/image`);
    expect(served.status).toBe(200);
    expect(served.headers.get('Content-Type')).toBe('application/pdf');
    expect(served.headers.get('Content-Disposition')).toBe('attachment');
  });

  it('leaves a document whose file cannot be read usable, saying why', async () => {
    const id = await upload(admin, { file: pdfNamed('broken.pdf'), title: `Broken ${Date.now()}` });
    const done = await extracted(id);
    expect(done.extraction_status).toBe('failed');
    expect(done.extraction_error).toBe('The file is damaged or not what it claims to be, so its text cannot be read.');
    const html = readable(await page(admin, `/documents/${id}`));
    expect(html).toContain('Extraction failed');
    expect(html).toContain('The file is damaged');
    expect((await admin.get(`/documents/${id}/download`)).status).toBe(302);
  });
});

/** A one-page PDF with a text layer, one line per entry, written out by hand (objects, offsets, trailer). */
function minimalPdf(lines: string[]): Uint8Array<ArrayBuffer> {
  const content = `BT /F1 11 Tf 50 780 Td ${lines.map((line, i) => `${i ? '0 -18 Td ' : ''}(${line.replace(/[()\\]/g, '\\$&')}) Tj`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

describe('extraction inside the Worker runtime (workerd)', () => {
  it('reads the text layer of a PDF (unpdf) and the XML of a .docx and an .xlsx (fflate)', async () => {
    const { strToU8, zipSync } = await import('fflate');
    const unique = String(Date.now()).slice(-7);
    const pdf = minimalPdf(['Lakeside Print Ltd', 'INVOICE', `Invoice No: LP-${unique}`, 'Invoice Date: 02/06/2025', 'Total Due: GBP 312.00']);
    const pdfId = await upload(admin, { file: new File([pdf], 'lakeside.pdf'), title: `PDF in workerd ${unique}` });

    const paragraph = (text: string) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`;
    const docx = zipSync({
      '[Content_Types].xml': strToU8('<Types/>'),
      'word/document.xml': strToU8(
        `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraph('QUOTATION')}${paragraph(`Quote No: QW-${unique}`)}${paragraph('Total: EUR 1.250,00')}</w:body></w:document>`,
      ),
    });
    const docxId = await upload(admin, { file: new File([docx], 'quote.docx'), title: `DOCX in workerd ${unique}` });

    const xlsx = zipSync({
      '[Content_Types].xml': strToU8('<Types/>'),
      'xl/workbook.xml': strToU8('<workbook/>'),
      'xl/worksheets/sheet1.xml': strToU8(
        `<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>PURCHASE ORDER</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>PO Number</t></is></c><c r="B2" t="inlineStr"><is><t>PO-${unique}9</t></is></c></row><row r="3"><c r="A3" t="inlineStr"><is><t>Order Total USD</t></is></c><c r="B3"><v>980.5</v></c></row></sheetData></worksheet>`,
      ),
    });
    const xlsxId = await upload(admin, { file: new File([xlsx], 'order.xlsx'), title: `XLSX in workerd ${unique}` });

    const fromPdf = await extracted(pdfId);
    expect(fromPdf.extraction_status).toBe('done');
    expect(fromPdf.fields).toMatchObject({ invoice_number: { value: `LP-${unique}` }, total: { value: '312.00' }, currency: { value: 'GBP' }, issue_date: { value: '2025-06-02' } });
    const fromDocx = await extracted(docxId);
    expect(fromDocx.fields).toMatchObject({ kind: { value: 'quote' }, quote_number: { value: `QW-${unique}` }, total: { value: '1250.00' }, currency: { value: 'EUR' } });
    const fromXlsx = await extracted(xlsxId);
    expect(fromXlsx.fields).toMatchObject({ kind: { value: 'purchase_order' }, order_number: { value: `PO-${unique}9` }, total: { value: '980.50' } });
  });
});
