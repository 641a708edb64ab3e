// /rfp real (issue 38) through the real Worker and backend: the demo account's bids (no sample rows, no
// preview note), the cards from rfp_totals, days left counted from today (red under 7, a past deadline
// says so), search and status filter by URL, the New RFP Response dialog validated on the server, and a
// bid's page: edit, status, go/no-go with its reasons, delete; an auditor reads but may not write, another
// account gets a 404.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AUDITOR, DEMO_NORTHWIND_ADMIN } from '../support/accounts';
import { pageText, signIn, type Visitor } from './support/app';
import { serviceClient } from './support/backend';
import { deadlineNote, todayIso } from '../../app/features/rfp/deadline';
import { control, demoAdmin, expectCreated, expectRefused, page, readable, without } from './support/module-screens';

let visitor: Visitor;
let auditor: Visitor;
let northwind: Visitor;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  [visitor, auditor, northwind] = await Promise.all([demoAdmin(), signIn(DEMO_AUDITOR), signIn(DEMO_NORTHWIND_ADMIN)]);
});

const valid = {
  title: 'Harbour logistics tender',
  company: 'Port of Oslo',
  contact_email: 'tenders@port.test',
  value: '250000',
  deadline: day(30),
  proposal: 'Our proposal covers the full harbour operation.',
  additional_notes: '',
};

/** A fresh bid of the demo account, by the service role; its page's path. */
async function bid(changes: Record<string, unknown> = {}): Promise<string> {
  const service = serviceClient();
  const { data: demo } = await service.from('users').select('account_id').eq('email', 'demo@opshub.test').single();
  const { data, error } = await service.from('rfps').insert({
    account_id: demo!.account_id, title: `Bid ${crypto.randomUUID().slice(0, 8)}`, company: 'Harbour Board', contact_email: 'bids@harbour.test',
    value: 1_000_000, deadline: day(20), proposal: 'We propose.', ...changes,
  }).select('id').single();
  if (error) throw new Error(error.message);
  return `/rfp/${data.id}`;
}

describe('/rfp', () => {
  it("lists the account's own bids with cards from the database, and no sample rows or preview note", async () => {
    const html = await page(visitor, '/rfp');
    const text = readable(html);
    // The demo's deadlines are 18, 4 and −3 days from the day it was seeded (supabase/seed.sql): counted from today, as
    // the page counts them, a run that crosses midnight after seeding still expects what the page says.
    const { data: seeded } = await serviceClient().from('rfps').select('title, deadline').in('title', ['Enterprise Logistics Platform', 'Document Processing Automation', 'Compliance Management System']);
    const note = (title: string) => deadlineNote(seeded!.find((row) => row.title === title)!.deadline, todayIso()).text;
    const [far, near, past] = [note('Enterprise Logistics Platform'), note('Document Processing Automation'), note('Compliance Management System')];
    expect(text).toContain('Enterprise Logistics Platform');
    expect(text).toContain(far);
    expect(text).toContain(near);
    expect(text).toContain(past);
    expect(text).not.toContain('Sample');
    expect(text).not.toContain('Submissions 12');
    expect(html).not.toContain('aria-label="Preview"');
    expect(text).toMatch(/Active RFPs \d+/);
    expect(text).toMatch(/Pipeline Value \$[\d,]+/);
    // Red under 7 days, and past the deadline.
    expect(html).toContain(`text-destructive">${near}`);
    expect(html).toContain(`text-muted-foreground">${far}`);
  });

  it('searches by title or company and filters by status from the URL', async () => {
    const searched = readable(await page(visitor, '/rfp?q=first+national'));
    expect(searched).toContain('Compliance Management System');
    expect(searched).not.toContain('Enterprise Logistics Platform');
    const submitted = readable(await page(visitor, '/rfp?status=Submitted'));
    expect(submitted).toContain('Document Processing Automation');
    expect(submitted).not.toContain('Enterprise Logistics Platform');
    expect((await visitor.get('/rfp?status=Bogus')).status).toBe(200);
  });

  it('opens New RFP Response at /rfp?new, every field but the notes required', async () => {
    const whole = await page(visitor, '/rfp?new');
    expect(whole).toContain('role="dialog"');
    const html = whole.slice(whole.indexOf('role="dialog"'));
    expect(readable(html)).toContain('Create RFP Response');
    for (const name of ['title', 'company', 'contact_email', 'value', 'deadline', 'proposal']) {
      expect(control(html, name), name).toContain('required');
    }
    expect(control(html, 'additional_notes')).not.toContain('required');
  });

  it("creates a real response, says 'RFP response created successfully!' and lists it", async () => {
    const title = `Harbour tender ${Date.now()}`;
    const html = await expectCreated(visitor, '/rfp?new', { ...valid, title }, '/rfp', 'RFP response created successfully!');
    expect(readable(html)).toContain(title);
    const { data } = await serviceClient().from('rfps').select('status, value, currency, deadline, decision').eq('title', title).single();
    expect(data).toEqual({ status: 'Active', value: 25_000_000, currency: 'USD', deadline: valid.deadline, decision: null });
  });

  it('answers each invalid field with a 400 and its error, what was typed kept', async () => {
    const path = '/rfp?new';
    await expectRefused(visitor, path, without(valid, 'title'), 'title', 'Title is required');
    await expectRefused(visitor, path, without(valid, 'company'), 'company', 'Company is required');
    await expectRefused(visitor, path, { ...valid, contact_email: 'port' }, 'contact_email', 'Enter a valid email address');
    await expectRefused(visitor, path, without(valid, 'value'), 'value', 'Value is required');
    await expectRefused(visitor, path, { ...valid, deadline: 'next week' }, 'deadline', 'Deadline must be a date');
    const html = await expectRefused(visitor, path, without(valid, 'proposal'), 'proposal', 'Proposal is required');
    expect(html).toContain('value="Port of Oslo"');
  });
});

describe("a bid's page", () => {
  it('shows the facts with days left, and changes status and go/no-go by plain posts', async () => {
    const path = await bid({ deadline: day(5) });
    const text = readable(await page(visitor, path));
    expect(text).toContain('5 days left');
    expect(text).toContain('Undecided');
    const status = await visitor.post(path, { intent: 'status', status: 'Submitted' });
    expect(status.status).toBe(302);
    // A no-go without its reasons is refused, kept, and said.
    await expectRefused(visitor, path, { intent: 'decide', decision: 'no_go', decision_reasons: '' }, 'decision_reasons', 'Say why it is a no go');
    expect((await visitor.post(path, { intent: 'decide', decision: 'no_go', decision_reasons: 'Too far from our core' })).status).toBe(302);
    expect((await visitor.post(path, { intent: 'status', status: 'Won!' })).status).toBe(400);
    const after = readable(await page(visitor, path));
    expect(after).toContain('Submitted');
    expect(after).toContain('No go');
    expect(after).toContain('Too far from our core');
  });

  it('edits with an owner, refuses another account\'s user, and deletes', async () => {
    const path = await bid();
    const edit = `${path}?edit`;
    expect(readable(await page(visitor, edit))).toContain('Edit RFP Response');
    const fields = { intent: 'update', ...valid, title: 'Renamed bid', deadline: day(-1), owner_id: '' };
    expect((await visitor.post(edit, fields)).status).toBe(302);
    expect(readable(await page(visitor, path))).toContain('Past deadline (1 day ago)');
    const service = serviceClient();
    const { data: stranger } = await service.from('users').select('id').eq('email', DEMO_NORTHWIND_ADMIN.email).single();
    const refused = await visitor.post(edit, { ...fields, owner_id: stranger!.id });
    expect(refused.status).toBe(400);
    expect(readable(await pageText(refused))).toContain('Renamed bid');
    expect((await visitor.post(`${path}?delete`, { intent: 'delete' })).status).toBe(302);
    expect((await visitor.get(path)).status).toBe(404);
  });

  it('lets an auditor read and refuses its posts; another account gets a 404', async () => {
    const path = await bid();
    const text = readable(await page(auditor, path));
    expect(text).not.toContain('Record Decision');
    expect(text).not.toContain('Change Status');
    expect((await auditor.post(path, { intent: 'status', status: 'Won' })).status).toBe(403);
    expect((await auditor.post('/rfp?new', valid)).status).toBe(403);
    expect((await northwind.get(path)).status).toBe(404);
  });
});
