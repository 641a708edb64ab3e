// A bid's documents and the answer library through the real Worker and backend (issue 38; decision 091):
// a file attached by a plain multipart post (no JavaScript), listed on the bid's page, downloaded through a
// link signed for the reader, refused by its bytes, removed (row and object), a deleted bid's files removed
// by the jobs runner; answers added, edited, searched at /rfp/answers and on the bid's page (?answers=, a GET
// form) and added to the bid's proposal. An auditor reads but may not write; another account gets a 404.
import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AUDITOR, DEMO_NORTHWIND_ADMIN } from '../support/accounts';
import { pageText, signIn, type Visitor } from './support/app';
import { serviceClient } from './support/backend';
import { objectExists } from './support/documents';
import { demoAdmin, page, readable } from './support/module-screens';

let visitor: Visitor;
let auditor: Visitor;
let northwind: Visitor;
let accountId: string;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const unique = () => crypto.randomUUID().slice(0, 8);
// The pool calls the Worker's own scheduled handler (the jobs runner), which its typed exports do not list.
const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };

beforeAll(async () => {
  [visitor, auditor, northwind] = await Promise.all([demoAdmin(), signIn(DEMO_AUDITOR), signIn(DEMO_NORTHWIND_ADMIN)]);
  const { data } = await serviceClient().from('users').select('account_id').eq('email', 'demo@opshub.test').single();
  accountId = data!.account_id as string;
});

/** A fresh bid of the demo account, by the service role; its page's path. */
async function bid(): Promise<string> {
  const { data, error } = await serviceClient().from('rfps').insert({
    account_id: accountId, title: `Files ${unique()}`, company: 'Harbour Board', contact_email: 'bids@harbour.test',
    value: 1_000_000, deadline: day(20), proposal: 'We propose.',
  }).select('id').single();
  if (error) throw new Error(error.message);
  return `/rfp/${data.id}`;
}

function attachForm(file: File): FormData {
  const form = new FormData();
  form.set('intent', 'attach');
  form.set('file', file);
  return form;
}
const fileRows = async (page: string) =>
  (await serviceClient().from('rfp_attachments').select('id, file_name, file_path').eq('rfp_id', page.split('/').pop()!).order('created_at')).data ?? [];

describe("a bid's documents", () => {
  it('attaches a file without JavaScript, lists it, downloads it through a signed link, and removes it', async () => {
    const path = await bid();
    const bytes = `%PDF-1.4\n% ${unique()}\n`;
    const response = await visitor.post(path, attachForm(new File([bytes], 'Method statement.pdf', { type: 'application/pdf' })));
    expect(response.status, response.status === 302 ? '' : (await response.clone().text()).slice(0, 300)).toBe(302);
    expect(response.headers.get('Location')).toBe(path);
    const html = await pageText(await visitor.follow(response));
    expect(readable(html)).toContain('Method statement.pdf attached');
    const [row] = await fileRows(path);
    expect(row.file_path).toBe(`${accountId}/rfp/${path.split('/').pop()}/${row.file_path.split('/')[3]}/Method statement.pdf`);
    expect(html).toContain(`href="${path}/files/${row.id}"`);
    expect(await objectExists(row.file_path)).toBe(true);

    // The auditor reads the list and downloads; another account gets a 404 for the page and the file.
    expect(readable(await page(auditor, path))).toContain('Method statement.pdf');
    const link = await auditor.get(`${path}/files/${row.id}`);
    expect(link.status).toBe(302);
    expect(link.headers.get('Cache-Control')).toContain('no-store');
    const download = await fetch(link.headers.get('Location')!);
    expect(await download.text()).toBe(bytes);
    expect((await northwind.get(`${path}/files/${row.id}`)).status).toBe(404);
    expect((await northwind.get(path)).status).toBe(404);

    // Only writers remove it: the auditor is refused, the admin removes row and object.
    expect((await auditor.post(path, { intent: 'remove-file', file_id: row.id })).status).toBe(403);
    expect(await fileRows(path)).toHaveLength(1);
    const removed = await visitor.post(path, { intent: 'remove-file', file_id: row.id });
    expect(removed.status).toBe(302);
    expect(await fileRows(path)).toEqual([]);
    expect(await objectExists(row.file_path)).toBe(false);
    expect((await visitor.post(path, { intent: 'remove-file', file_id: row.id })).status).toBe(404);
  });

  it('refuses a file by its bytes, none chosen, or an auditor, and stores nothing', async () => {
    const path = await bid();
    const exe = await visitor.post(path, attachForm(new File(['MZ\x90\x00 not a pdf'], 'tender.pdf', { type: 'application/pdf' })));
    expect(exe.status).toBe(400);
    expect(readable(await pageText(exe))).toContain("The file's content does not match its extension");
    const html = await visitor.post(path, attachForm(new File(['<script>alert(1)</script>'], 'page.html', { type: 'text/html' })));
    expect(html.status).toBe(400);
    const none = await visitor.post(path, attachForm(new File([], '', { type: 'application/octet-stream' })));
    expect(none.status).toBe(400);
    expect(readable(await pageText(none))).toContain('Please select a file to upload');
    expect((await auditor.post(path, attachForm(new File(['plain text'], 'notes.txt', { type: 'text/plain' })))).status).toBe(403);
    expect(await fileRows(path)).toEqual([]);
    const { data: objects } = await serviceClient().storage.from('documents').list(`${accountId}/rfp/${path.split('/').pop()}`);
    expect(objects ?? []).toEqual([]);
  });

  it("removes a deleted bid's files from Storage through the jobs runner", async () => {
    const path = await bid();
    expect((await visitor.post(path, attachForm(new File(['a,b\n1,2\n'], 'prices.csv', { type: 'text/csv' })))).status).toBe(302);
    const [row] = await fileRows(path);
    expect((await visitor.post(`${path}?delete`, { intent: 'delete' })).status).toBe(302);
    const deadline = Date.now() + 15_000;
    while (await objectExists(row.file_path)) {
      if (Date.now() > deadline) throw new Error('the file is still stored');
      await worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });
    }
  });
});

describe('the answer library', () => {
  const title = `Insurance ${unique()}`;

  it('adds, refuses, edits and searches answers at /rfp/answers; an auditor reads but may not write', async () => {
    const created = await visitor.post('/rfp/answers', { intent: 'create', title, body: 'Professional indemnity cover of GBP 5,000,000 with Lloyd\'s.', tags: 'Insurance, Liability' });
    expect(created.status).toBe(302);
    const { data: row } = await serviceClient().from('rfp_answers').select('id, tags').eq('title', title).single();
    expect(row!.tags).toEqual(['insurance', 'liability']);

    // A refused form comes back with what was typed and the reason.
    const refused = await visitor.post('/rfp/answers', { intent: 'create', title: '', body: 'Kept body text', tags: '' });
    expect(refused.status).toBe(400);
    const refusedText = readable(await pageText(refused));
    expect(refusedText).toContain('Title is required');
    expect(refusedText).toContain('Kept body text');
    const duplicate = await visitor.post('/rfp/answers', { intent: 'create', title, body: 'Again', tags: '' });
    expect(duplicate.status).toBe(409);
    expect(readable(await pageText(duplicate))).toContain('An answer with this title already exists');

    expect((await visitor.post('/rfp/answers', { intent: 'update', id: row!.id, title, body: 'Professional indemnity cover of GBP 10,000,000.', tags: 'insurance' })).status).toBe(302);
    expect(readable(await page(visitor, `/rfp/answers?q=${encodeURIComponent('indemn')}`))).toContain('GBP 10,000,000');
    expect(readable(await page(auditor, '/rfp/answers?q=insurance'))).toContain(title);
    expect(readable(await page(visitor, '/rfp/answers?q=zzqx-nothing'))).toContain('No answers match your search.');
    expect((await auditor.post('/rfp/answers', { intent: 'delete', id: row!.id })).status).toBe(403);
    expect(readable(await page(northwind, '/rfp/answers?q=indemnity'))).not.toContain(title);
  });

  it("finds answers on a bid's page by a GET search and adds one to its proposal", async () => {
    const path = await bid();
    const html = await page(visitor, `${path}?answers=${encodeURIComponent('indemn')}`);
    expect(readable(html)).toContain(title);
    const { data: answer } = await serviceClient().from('rfp_answers').select('id, body').eq('title', title).single();
    expect((await auditor.post(`${path}?answers=indemn`, { intent: 'use-answer', answer_id: answer!.id })).status).toBe(403);
    const used = await visitor.post(`${path}?answers=indemn`, { intent: 'use-answer', answer_id: answer!.id });
    expect(used.status).toBe(302);
    expect(used.headers.get('Location')).toBe(`${path}?answers=indemn`);
    const after = readable(await pageText(await visitor.follow(used)));
    expect(after).toContain('Answer added to the proposal');
    const { data: rfp } = await serviceClient().from('rfps').select('proposal').eq('id', path.split('/').pop()!).single();
    expect(rfp!.proposal).toBe(`We propose.\n\n${answer!.body}`);
    // Another account's bid: a 404, nothing changed.
    expect((await northwind.post(path, { intent: 'use-answer', answer_id: answer!.id })).status).toBe(404);
  });
});
