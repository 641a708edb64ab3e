// Moves of the documents tests: an upload as the dialog posts it, files whose
// bytes are what their names say (unique per call, since the same file twice
// is refused), the jobs runner's tick, and what the backend stored.
import { exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { Visitor } from './app';
import { serviceClient } from './backend';

export function uploadForm(fields: { file?: File; title?: string; type?: string; description?: string }): FormData {
  const form = new FormData();
  // A browser sends an empty file part when no file was chosen.
  form.append('file', fields.file ?? new File([], ''));
  form.append('title', fields.title ?? '');
  form.append('type', fields.type ?? 'invoice');
  form.append('description', fields.description ?? '');
  return form;
}

const unique = () => `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** A plain-text invoice, different bytes on every call. */
export function textInvoice(number = `INV-${Math.floor(Math.random() * 1e6)}`, name = 'invoice.txt'): File {
  const body = [
    'Northwind Traders Ltd',
    'VAT No: GB123456789',
    'billing@northwind.test',
    '',
    'INVOICE',
    `Invoice No: ${number}`,
    'Invoice Date: 14/03/2025',
    'Due Date: 13/04/2025',
    'Bill To: Acme Corporation',
    '',
    'Total Due: £1,542.60',
    `Reference ${unique()}`,
  ].join('\n');
  return new File([body], name, { type: 'text/plain' });
}

export const pdfNamed = (name = 'agreement.pdf') => new File([`%PDF-1.4\n% ${unique()}\n`], name, { type: 'application/pdf' });
export const pngNamed = (name = 'scan.png') =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), unique()], name, { type: 'image/png' });

/** Uploads through the dialog and returns the new document's id (from the toast's link, checked against the row). */
export async function upload(visitor: Visitor, fields: Parameters<typeof uploadForm>[0]): Promise<string> {
  const response = await visitor.post('/documents?new', uploadForm(fields));
  expect(response.status, response.status === 302 ? '' : (await response.clone().text()).slice(0, 400)).toBe(302);
  expect(response.headers.get('Location')).toBe('/documents');
  const { data } = await serviceClient().from('documents').select('id').eq('title', fields.title!).order('created_at', { ascending: false }).limit(1).single();
  return (data as { id: string }).id;
}

// The pool calls the Worker's own scheduled handler, which its typed exports do not list.
const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };

/** Runs the jobs runner until the document's extraction has finished (the upload's kick may hold it meanwhile). */
export async function extracted(documentId: string): Promise<{ extraction_status: string; extraction_error: string | null; fields: Record<string, { value: unknown; confidence: number }>; text: string | null }> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    await worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
    const { data } = await serviceClient().from('documents').select('extraction_status, extraction_error, fields, text').eq('id', documentId).single();
    if (data && data.extraction_status !== 'queued') return data;
    if (Date.now() > deadline) throw new Error(`extraction of ${documentId} still queued`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The account's upload folders in the documents bucket (one per stored file), as the service role lists them. */
export async function storedFolders(accountId: string): Promise<string[]> {
  const { data, error } = await serviceClient().storage.from('documents').list(accountId, { limit: 1000 });
  if (error) throw error;
  return data.map((entry) => entry.name).sort();
}

/** Whether the object at `path` exists, asked as the service role. */
export async function objectExists(path: string): Promise<boolean> {
  const { data } = await serviceClient().storage.from('documents').exists(path);
  return data === true;
}
