// The Documents screen through the real Worker: the account's own documents
// (summary cards from SQL, search over title and extracted text, status filter
// and paging by URL, empty state), and the upload dialog: bytes into Storage
// at <account_id>/<uuid>/<file name> as the signed-in user, checked by content
// and size, duplicates named, and nothing stored when refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageText, signUpFreshAdmin, statValue, type Visitor } from './support/app';
import { accountOf, serviceClient } from './support/backend';
import { extracted, pdfNamed, storedFolders, textInvoice, upload, uploadForm } from './support/documents';
import { control, invalidFields, page, readable, selectedOption } from './support/module-screens';

let visitor: Visitor;
let accountId: string;
beforeAll(async () => {
  const fresh = await signUpFreshAdmin();
  visitor = fresh.visitor;
  accountId = (await accountOf(fresh.email)).accountId;
});

// The uploads kick the jobs runner (ctx.waitUntil), whose extraction may still
// be reading a file when the last test ends. Work left running in this file's
// runtime as the pool disposes it stalled the next file's start in the Worker
// layer (no output, nothing in flight, in CI and here, always right after this
// file): let it finish first.
afterAll(async () => {
  const { data } = await serviceClient().from('documents').select('id').eq('account_id', accountId).eq('extraction_status', 'queued');
  for (const { id } of data ?? []) await extracted(id);
});

async function expectRefusedUpload(fields: Parameters<typeof uploadForm>[0], status: number, field: string, message: string) {
  const before = await storedFolders(accountId);
  const response = await visitor.post('/documents?new', uploadForm(fields));
  expect(response.status, message).toBe(status);
  const html = await pageText(response);
  expect(invalidFields(html), message).toEqual([field]);
  expect(readable(html)).toContain(message);
  expect(await storedFolders(accountId)).toEqual(before);
  return html;
}

describe('/documents list', () => {
  it('starts empty, with zero cards and no preview note', async () => {
    const html = await page(visitor, '/documents');
    expect(readable(html)).toContain('No documents yet. Upload your first document to extract its data.');
    expect(statValue(html, 'Total Documents')).toBe('0');
    expect(statValue(html, 'Storage Used')).toBe('0 B');
    expect(html).not.toContain('role="note" aria-label="Preview"');
    expect(html).not.toContain('>Sample</span>');
  });

  it("uploads through the dialog: the file in the account's folder, the row, the toast with its link, the cards", async () => {
    const file = textInvoice('INV-LIST-1', 'March invoice.txt');
    const response = await visitor.post('/documents?new', uploadForm({ file, title: 'March invoice', type: 'invoice', description: 'From Northwind' }));
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/documents');
    const list = await pageText(await visitor.follow(response));
    expect(readable(list)).toContain('Document uploaded successfully!');
    expect(list).toContain('View document');
    const { data: row } = await serviceClient().from('documents').select('*').eq('account_id', accountId).eq('title', 'March invoice').single();
    expect(row).toMatchObject({ file_name: 'March invoice.txt', mime_type: 'text/plain', file_size: file.size, type: 'invoice', status: 'Pending Review', description: 'From Northwind' });
    expect(row.file_path).toMatch(new RegExp(`^${accountId}/[0-9a-f-]{36}/March invoice\\.txt$`));
    expect(await storedFolders(accountId)).toEqual([row.file_path.split('/')[1]]);
    expect(list).toContain(`href="/documents/${row.id}"`);
    // The record table's row: title, file, type, …, who uploaded it (decision 053).
    expect(readable(list)).toMatch(/March invoice\.txt Invoice /);
    expect(readable(list)).toContain(' Test Admin ');
    expect(statValue(list, 'Total Documents')).toBe('1');
    expect(statValue(list, 'Pending Review')).toBe('1');
    expect(statValue(list, 'Storage Used')).toBe(`${file.size} B`);
    // The upload queued its extraction; once run, Processed counts it.
    expect((await extracted(row.id)).extraction_status).toBe('done');
    expect(statValue(await page(visitor, '/documents'), 'Processed')).toBe('1');
  });

  it('searches titles and extracted text, and filters by status, from the URL', async () => {
    const id = await upload(visitor, { file: textInvoice('INV-SEARCH-77'), title: 'Harbour fees' });
    await extracted(id);
    await upload(visitor, { file: pdfNamed('lease.pdf'), title: 'Office lease', type: 'contract' });
    // A word only in the file's text finds it; a part of the title does too.
    expect(readable(await page(visitor, '/documents?q=INV-SEARCH-77'))).toContain('Harbour fees');
    const byText = readable(await page(visitor, '/documents?q=INV-SEARCH-77'));
    expect(byText).not.toContain('Office lease');
    const byTitle = readable(await page(visitor, '/documents?q=leas'));
    expect(byTitle).toContain('Office lease');
    // The search counts its matches (search_documents), with the uploader's name embedded.
    expect(byTitle).toMatch(/Showing 1–1 of 1 documents/);
    expect(byTitle).toContain(' Test Admin ');
    expect(readable(await page(visitor, '/documents?q=nothing-like-this'))).toContain('No documents match your search.');
    await serviceClient().from('documents').update({ status: 'Approved' }).eq('id', id);
    const approved = readable(await page(visitor, '/documents?status=Approved'));
    expect(approved).toContain('Harbour fees');
    expect(approved).not.toContain('Office lease');
  });

  it('pages 20 at a time, newest first', async () => {
    const fresh = await signUpFreshAdmin();
    const { accountId: other, userId } = await accountOf(fresh.email);
    const rows = Array.from({ length: 23 }, (_, i) => ({
      account_id: other,
      title: `Scan ${String(i).padStart(2, '0')}`,
      file_path: `${other}/${crypto.randomUUID()}/scan.pdf`,
      file_name: 'scan.pdf',
      file_size: 100,
      mime_type: 'application/pdf',
      sha256: (i.toString(16).padStart(2, '0')).repeat(32),
      uploaded_by: userId,
      created_at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
    }));
    expect((await serviceClient().from('documents').insert(rows)).error).toBeNull();
    const first = readable(await page(fresh.visitor, '/documents'));
    expect(first).toContain('Scan 22');
    expect(first).not.toContain('Scan 02');
    const second = readable(await page(fresh.visitor, '/documents?page=2'));
    expect(second).toContain('Scan 02');
    expect(second).not.toContain('Scan 22');
    expect(statValue(await page(fresh.visitor, '/documents'), 'Total Documents')).toBe('23');
  });
});

describe('/documents upload dialog', () => {
  it('opens at /documents?new: a multipart form accepting the listed types', async () => {
    const html = await page(visitor, '/documents?new');
    expect(html).toContain('role="dialog"');
    expect(html).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);
    expect(control(html, 'file')).toContain('accept=".pdf,.doc,.docx,.xls,.xlsx,.txt,.csv,.jpg,.jpeg,.png"');
    expect(selectedOption(html, 'type')).toBe('other');
  });

  it("answers 'Please select a file to upload' without a file, as a field error and a toast, keeping the title", async () => {
    const html = await expectRefusedUpload({ title: 'No file' }, 400, 'file', 'Please select a file to upload');
    expect(readable(html).match(/Please select a file to upload/g)?.length).toBeGreaterThanOrEqual(2);
    expect(html).toMatch(/data-toast-type="error"/);
    expect(control(html, 'title')).toContain('value="No file"');
  });

  it('refuses names outside the list, and content that is not what the name says', async () => {
    for (const name of ['setup.exe', 'archive.zip', 'page.html']) {
      await expectRefusedUpload({ file: pdfNamed(name), title: 'Wrong type' }, 400, 'file', 'Choose a file of type .pdf, .doc, .docx');
    }
    // A Windows program renamed .pdf, and text renamed .png: judged by their bytes.
    const exe = new File([new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03]), 'program'], 'invoice.pdf');
    await expectRefusedUpload({ file: exe, title: 'Renamed program' }, 400, 'file', "The file's content is not what its name says it is.");
    await expectRefusedUpload({ file: new File(['just text'], 'photo.png'), title: 'Not a picture' }, 400, 'file', "The file's content is not what its name says it is.");
  });

  it('refuses an upload over 10 MB with a clear error, storing nothing', async () => {
    const huge = new File([new Uint8Array(11 * 1024 * 1024)], 'huge.pdf');
    await expectRefusedUpload({ file: huge, title: 'Huge' }, 413, 'file', 'The file is too large: the limit is 10 MB');
  });

  it('names the earlier upload when the same file comes again', async () => {
    const file = pdfNamed('contract.pdf');
    await upload(visitor, { file, title: 'Signed contract', type: 'contract' });
    await expectRefusedUpload({ file: new File([await file.arrayBuffer()], 'copy.pdf'), title: 'Again' }, 400, 'file', 'This file was already uploaded as Signed contract');
  });

  it('requires a title, and keeps the file name out of the file name it stores', async () => {
    await expectRefusedUpload({ file: pdfNamed() }, 400, 'title', 'Title is required');
    const id = await upload(visitor, { file: pdfNamed('../../etc/pass\u0007wd.pdf'), title: 'Odd name' });
    const { data } = await serviceClient().from('documents').select('file_name, file_path').eq('id', id).single();
    expect(data).toMatchObject({ file_name: 'passwd.pdf' });
    expect(data!.file_path.split('/')).toHaveLength(3);
  });
});
