import { beforeAll, describe, expect, it } from 'vitest';
import { pageText, type Visitor } from './support/app';
import { control, demoAdmin, expectCreated, invalidFields, page, readable, selectedOption } from './support/module-screens';

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

function upload(fields: { file?: File; title?: string; type?: string; description?: string }): FormData {
  const form = new FormData();
  // A browser sends an empty file part when no file was chosen.
  form.append('file', fields.file ?? new File([], ''));
  form.append('title', fields.title ?? '');
  form.append('type', fields.type ?? 'contract');
  form.append('description', fields.description ?? '');
  return form;
}

const pdf = (size = 2048, name = 'agreement.pdf') => new File([new Uint8Array(size)], name, { type: 'application/pdf' });

describe('/documents', () => {
  it('shows three sample documents: type, size, uploader, date and status', async () => {
    const text = readable(await page(visitor, '/documents'));
    expect(text).toContain(
      'Master Services Agreement - TechCorp.pdf Type: Contract Size: 2.4 MB Uploaded by: Sarah Johnson Date: Jan 15, 2025 Sample Approved',
    );
    expect(text).toContain('Q4 Financial Report.xlsx Type: Financial Size: 1.1 MB Uploaded by: Mike Chen Date: Jan 14, 2025 Sample Pending Review');
    expect(text).toContain('Invoice INV-2025-001.pdf Type: Invoice Size: 246.0 KB Uploaded by: Emma Davis Date: Jan 13, 2025 Sample Final');
  });

  it('opens Upload Document at /documents?new: a multipart form accepting only the spec’s types', async () => {
    const html = await page(visitor, '/documents?new');
    expect(html).toContain('role="dialog"');
    expect(html).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);
    expect(control(html, 'file')).toContain('accept=".pdf,.doc,.docx,.xls,.xlsx,.txt,.jpg,.jpeg,.png"');
    expect(selectedOption(html, 'type')).toBe('other');
  });

  it("uploads and says 'Document uploaded successfully!'", async () => {
    await expectCreated(
      visitor,
      '/documents?new',
      upload({ file: pdf(), title: 'Signed MSA' }),
      '/documents',
      'Document uploaded successfully!',
    );
  });

  it("answers 'Please select a file to upload' without a file, as a field error and a toast", async () => {
    const response = await visitor.post('/documents?new', upload({ title: 'No file' }));
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(invalidFields(html)).toEqual(['file']);
    expect(readable(html).match(/Please select a file to upload/g)?.length).toBeGreaterThanOrEqual(2);
    expect(html).toMatch(/data-toast-type="error"/);
    expect(control(html, 'title')).toContain('value="No file"');
  });

  it('refuses file types outside the list', async () => {
    for (const name of ['setup.exe', 'archive.zip', 'page.html']) {
      const response = await visitor.post('/documents?new', upload({ file: pdf(100, name), title: 'Wrong type' }));
      expect(response.status, name).toBe(400);
      const html = await pageText(response);
      expect(invalidFields(html), name).toEqual(['file']);
      expect(readable(html)).toContain('Choose a file of type .pdf, .doc, .docx, .xls, .xlsx, .txt, .jpg, .jpeg, .png');
    }
    for (const name of ['notes.TXT', 'photo.jpeg', 'sheet.xlsx']) {
      const response = await visitor.post('/documents?new', upload({ file: pdf(100, name), title: '' }));
      // Only the title is wrong: the file type is accepted.
      expect(invalidFields(await pageText(response)), name).toEqual(['title']);
    }
  });

  it('refuses an upload over 10 MB with a clear error', async () => {
    const response = await visitor.post('/documents?new', upload({ file: pdf(11 * 1024 * 1024, 'huge.pdf'), title: 'Huge' }));
    expect(response.status).toBe(413);
    const html = await pageText(response);
    expect(invalidFields(html)).toEqual(['file']);
    expect(readable(html)).toContain('The file is too large: the limit is 10 MB');
  });

  it('requires a title', async () => {
    const response = await visitor.post('/documents?new', upload({ file: pdf() }));
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(invalidFields(html)).toEqual(['title']);
    expect(readable(html)).toContain('Title is required');
  });
});
