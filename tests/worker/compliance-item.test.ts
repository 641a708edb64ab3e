// A compliance item's page through the real Worker and backend (issue 37):
// record a review with a plain form post (as without JavaScript), add evidence
// (multipart; the type checked by content, a new version beside the old), the
// trail as CSV and the audit package parsed back with their hashes, an
// auditor reads but every write is refused, another account gets a 404.
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_AUDITOR, DEMO_NORTHWIND_ADMIN } from '../support/accounts';
import { signIn, type Visitor } from './support/app';
import { serviceClient } from './support/backend';
import { page, readable } from './support/module-screens';

/** SHA-256 as hex, by Web Crypto (these tests run where node:crypto is not typed). */
async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}


let admin: Visitor;
let auditor: Visitor;
let northwind: Visitor;
let itemPath: string;
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  [admin, auditor, northwind] = await Promise.all([signIn(DEMO_ADMIN), signIn(DEMO_AUDITOR), signIn(DEMO_NORTHWIND_ADMIN)]);
  const service = serviceClient();
  const { data: demo } = await service.from('users').select('account_id').eq('email', DEMO_ADMIN.email).single();
  // An item of its own, so the other tests' reviews do not meet these.
  const { data: item, error } = await service.from('compliance_items').insert({
    account_id: demo!.account_id, title: `Vendor review ${Date.now()}`, responsible_team: 'Procurement', description: 'Yearly vendor review',
    first_review_date: today(), frequency: 'annual',
  }).select('id').single();
  if (error) throw new Error(error.message);
  itemPath = `/compliance/${item.id}`;
});

const evidence = (name: string, bytes: string, type: string, title = 'Vendor list') => {
  const form = new FormData();
  form.set('intent', 'evidence');
  form.set('title', title);
  form.set('effective_on', today());
  form.set('file', new File([bytes], name, { type }));
  return form;
};

describe("a compliance item's page", () => {
  it('shows the item with its reviews due', async () => {
    const text = readable(await page(admin, itemPath));
    expect(text).toContain('Vendor review');
    expect(text).toContain('Reviews due');
    expect(text).toContain('Record Review');
  });

  it('records a review by a plain form post, closes the due review and refuses a date in the future', async () => {
    const future = await admin.post(itemPath, { intent: 'review', reviewed_on: '2999-01-01', outcome: 'Compliant', notes: 'x' });
    expect(future.status).toBe(400);
    expect(readable(await future.text())).toContain('The review date cannot be in the future');
    const done = await admin.post(itemPath, { intent: 'review', reviewed_on: today(), outcome: 'Compliant', notes: 'Vendors checked' });
    expect(done.status).toBe(302);
    const text = readable(await page(admin, itemPath));
    expect(text).toContain('Vendors checked');
    expect(text).toContain('(done)');
  });

  it('adds evidence as versions, and refuses a file whose content is not its type', async () => {
    expect((await admin.post(itemPath, evidence('list.txt', 'Acme, Globex', 'text/plain'))).status).toBe(302);
    expect((await admin.post(itemPath, evidence('list.txt', 'Acme, Globex, Initech', 'text/plain'))).status).toBe(302);
    const html = await admin.post(itemPath, evidence('fake.pdf', '<html>not a pdf</html>', 'application/pdf'));
    expect(html.status).toBe(400);
    expect(readable(await html.text())).toContain('Evidence must be a PDF, PNG, JPEG, text or JSON file');
    const svg = await admin.post(itemPath, evidence('x.svg', '<svg/>', 'image/svg+xml'));
    expect(svg.status).toBe(400);
    const text = readable(await page(admin, itemPath));
    expect(text).toContain('Vendor list v2');
    expect(text).toContain('Vendor list v1');
  });

  it('downloads one evidence file as an attachment (nosniff, sandbox): staff and auditors; another account, a wrong item or no session do not get it', async () => {
    const itemId = itemPath.split('/').pop()!;
    const { data: rows } = await serviceClient().from('evidence').select('id, version').eq('item_id', itemId).order('version', { ascending: false });
    const latest = rows![0].id as string;
    const path = `${itemPath}/evidence/${latest}`;
    const response = await admin.get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('text/plain');
    expect(response.headers.get('Content-Disposition')).toBe('attachment; filename="list.txt"');
    expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(response.headers.get('Content-Security-Policy')).toContain('sandbox');
    expect(await response.text()).toBe('Acme, Globex, Initech');
    const byAuditor = await auditor.get(path);
    expect(byAuditor.status).toBe(200);
    expect(await byAuditor.text()).toBe('Acme, Globex, Initech');
    expect((await northwind.get(path)).status).toBe(404);
    expect((await admin.get(`/compliance/${crypto.randomUUID()}/evidence/${latest}`)).status).toBe(404);
    expect((await admin.get(`${itemPath}/evidence/not-a-uuid`)).status).toBe(404);
    expect(readable(await page(admin, itemPath))).toContain('list.txt');
  });

  it('exports the trail as CSV: created, reviewed, evidence added', async () => {
    const response = await admin.get(`${itemPath}/trail.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('text/csv');
    const lines = (await response.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('at,action,actor,actor_email,old_values,new_values');
    const actions = lines.slice(1).map((line) => line.split(',')[1]);
    expect(actions).toEqual(expect.arrayContaining(['compliance_item_created', 'compliance_review_recorded', 'compliance_evidence_added']));
  });

  it('downloads the audit package: item, reviews, trail and each evidence file, hashes matching the manifest and the database', async () => {
    const response = await auditor.get(`${itemPath}/package.zip`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const manifest = JSON.parse(strFromU8(files['manifest.json']));
    const evidencePaths = Object.keys(files).filter((p) => p.startsWith('evidence/'));
    expect(evidencePaths).toHaveLength(2);
    for (const f of manifest.files) {
      const sha = await sha256(files[f.path]);
      expect(sha, f.path).toBe(f.sha256);
      if (f.path.startsWith('evidence/')) expect(f.recorded_sha256).toBe(sha);
    }
    expect(JSON.parse(strFromU8(files['reviews.json']))[0].notes).toBe('Vendors checked');
  });

  it('records a review and its evidence in one multipart post (the file linked to the review); a wrong file saves no review; no file is a plain review', async () => {
    const itemId = itemPath.split('/').pop()!;
    const reviewCount = async () => (await serviceClient().from('compliance_reviews').select('id').eq('item_id', itemId)).data!.length;
    const before = await reviewCount();
    const post = (file: File, title = 'Signed checklist') => {
      const form = new FormData();
      form.set('intent', 'review');
      form.set('reviewed_on', today());
      form.set('outcome', 'Compliant');
      form.set('notes', 'With its evidence');
      form.set('evidence_title', title);
      form.set('evidence_file', file);
      return admin.post(itemPath, form);
    };
    const wrong = await post(new File(['<html>no</html>'], 'fake.pdf', { type: 'application/pdf' }));
    expect(wrong.status).toBe(400);
    expect(readable(await wrong.text())).toContain('Evidence must be a PDF, PNG, JPEG, text or JSON file');
    expect(await reviewCount()).toBe(before);
    expect((await post(new File(['All boxes ticked'], 'checklist.txt', { type: 'text/plain' }))).status).toBe(302);
    expect(await reviewCount()).toBe(before + 1);
    const { data: latest } = await serviceClient().from('compliance_reviews').select('id').eq('item_id', itemId).order('created_at', { ascending: false }).limit(1).single();
    const { data: linked } = await serviceClient().from('evidence').select('title, file_name, effective_on, review_id').eq('review_id', latest!.id);
    expect(linked).toEqual([{ title: 'Signed checklist', file_name: 'checklist.txt', effective_on: today(), review_id: latest!.id }]);
    // No file chosen: the browser sends an empty file part; the review alone is recorded.
    expect((await post(new File([], ''), '')).status).toBe(302);
    expect(await reviewCount()).toBe(before + 2);
  });

  it('lets an auditor read, refuses its review and evidence posts, and gives another account a 404', async () => {
    expect(readable(await page(auditor, itemPath))).not.toContain('Record Review');
    expect((await auditor.post(itemPath, { intent: 'review', reviewed_on: today(), outcome: 'Compliant' })).status).toBe(403);
    expect((await auditor.post(itemPath, evidence('a.txt', 'auditor', 'text/plain', 'Auditor file'))).status).toBe(403);
    expect(readable(await page(admin, itemPath))).not.toContain('Auditor file');
    expect((await northwind.get(itemPath)).status).toBe(404);
    expect((await northwind.get(`${itemPath}/trail.csv`)).status).toBe(404);
    expect((await northwind.get(`${itemPath}/package.zip`)).status).toBe(404);
  });

  it('maps the item to a control of a catalogue and unmaps it, each in the trail', async () => {
    const { data: control } = await serviceClient().from('compliance_controls').select('id, label, account_id')
      .eq('control_key', 'si-2').in('account_id', [(await serviceClient().from('users').select('account_id').eq('email', DEMO_ADMIN.email).single()).data!.account_id]).single();
    expect((await admin.post(itemPath, { intent: 'map', control_id: control!.id })).status).toBe(302);
    expect((await admin.post(itemPath, { intent: 'map', control_id: control!.id })).status).toBe(409);
    expect(readable(await page(admin, itemPath))).toContain('Unmap SI-2');
    expect((await auditor.post(itemPath, { intent: 'unmap', control_id: control!.id })).status).toBe(403);
    expect((await admin.post(itemPath, { intent: 'unmap', control_id: control!.id })).status).toBe(302);
    const csv = await (await admin.get(`${itemPath}/trail.csv`)).text();
    expect(csv).toContain('compliance_control_mapped');
    expect(csv).toContain('compliance_control_unmapped');
  });
});

describe("a compliance item's edit and delete", () => {
  const create = async (first: string, frequency = 'annual') => {
    const service = serviceClient();
    const { data: demo } = await service.from('users').select('account_id').eq('email', DEMO_ADMIN.email).single();
    const { data, error } = await service.from('compliance_items').insert({
      account_id: demo!.account_id, title: `Edited review ${crypto.randomUUID().slice(0, 6)}`, responsible_team: 'Ops', description: 'To edit',
      first_review_date: first, frequency,
    }).select('id').single();
    if (error) throw new Error(error.message);
    return data.id as string;
  };
  const edit = (overrides: Record<string, string> = {}) => ({
    intent: 'update', title: 'Edited requirement', category: 'security', risk_level: 'high', responsible_team: 'IT', owner_id: '',
    frequency: 'monthly', interval_months: '', first_review_date: today(), description: 'Edited', requirements: '', ...overrides,
  });

  it('changes the schedule by a plain form post: the reviewed date stays, the open reviews due are monthly, the change in the trail', async () => {
    const id = await create(today());
    const path = `/compliance/${id}`;
    expect((await admin.post(path, { intent: 'review', reviewed_on: today(), outcome: 'Compliant' })).status).toBe(302);
    expect(readable(await page(admin, `${path}?edit`))).toContain('Edit Requirement');
    const bad = await admin.post(`${path}?edit`, edit({ frequency: 'custom' }));
    expect(bad.status).toBe(400);
    expect(readable(await bad.text())).toContain('Enter the months between reviews');
    const saved = await admin.post(`${path}?edit`, edit());
    expect(saved.status).toBe(302);
    const { data: occ } = await serviceClient().from('compliance_occurrences').select('due_on, status').eq('item_id', id).order('due_on');
    expect(occ!.filter((o) => o.status === 'done').map((o) => o.due_on)).toEqual([today()]);
    const open = occ!.filter((o) => o.status === 'open').map((o) => o.due_on as string);
    const month = (d: string) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7));
    expect(month(open[1]) - month(open[0])).toBe(1);
    const { data: item } = await serviceClient().from('compliance_items').select('title, frequency').eq('id', id).single();
    expect(item).toEqual({ title: 'Edited requirement', frequency: 'monthly' });
    const { data: trail } = await serviceClient().from('audit_logs').select('action').eq('resource_id', id).eq('action', 'compliance_item_updated');
    expect(trail!.length).toBeGreaterThan(0);
    // A reviewed item is history: no Delete, and a delete post is refused.
    expect((await admin.post(`${path}?delete`, { intent: 'delete' })).status).toBe(409);
    expect((await serviceClient().from('compliance_items').select('id').eq('id', id)).data).toHaveLength(1);
  });

  it('deletes an item never reviewed, with an audit row; refuses the auditor both; another account gets a 404', async () => {
    const id = await create(today(), 'quarterly');
    const path = `/compliance/${id}`;
    expect((await auditor.post(`${path}?edit`, edit())).status).toBe(403);
    expect((await auditor.post(`${path}?delete`, { intent: 'delete' })).status).toBe(403);
    expect((await northwind.post(`${path}?delete`, { intent: 'delete' })).status).toBe(404);
    expect((await serviceClient().from('compliance_items').select('frequency').eq('id', id).single()).data!.frequency).toBe('quarterly');
    expect(readable(await page(admin, `${path}?delete`))).toContain('Delete Requirement');
    const deleted = await admin.post(`${path}?delete`, { intent: 'delete' });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get('Location')).toBe('/compliance');
    expect((await serviceClient().from('compliance_items').select('id').eq('id', id)).data).toEqual([]);
    const { data: trail } = await serviceClient().from('audit_logs').select('action').eq('resource_id', id).eq('action', 'compliance_item_deleted');
    expect(trail).toHaveLength(1);
  });
});
