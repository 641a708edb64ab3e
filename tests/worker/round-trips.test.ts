// How many backend round trips each signed-in page waits on, one after
// another (issue 33): the Worker reaches the backend through global-setup's
// proxy, which holds every request of a "round-trips …" user agent 50 ms (a
// backend in another region) and reports when each arrived and when its
// answer ended. Requests made in parallel overlap; a read that waits for
// another's answer starts after it ended. Every page must wait on one round
// trip at most: its reads in one function, or started alongside the users row
// (requireUserWith). Not a timing: the count of sequential steps.
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { DELAYED_CLIENT, sequentialRoundTrips, type TimedRequest } from '../support/round-trips';
import { serviceClient } from './support/backend';
import { demoAdmin } from './support/module-screens';
import { signIn, signUpFreshAdmin, type Visitor } from './support/app';
import { DEMO_CLIENT } from '../support/accounts';
import { extracted, textInvoice, upload } from './support/documents';

async function timedRequestsOf(userAgent: string): Promise<TimedRequest[]> {
  const response = await fetch(`${env.SUPABASE_URL}/_requests?client=${encodeURIComponent(userAgent)}&timing=1`);
  if (!response.ok) throw new Error(`the request log answered ${response.status}`);
  return (await response.json()) as TimedRequest[];
}

/** One page view (or a form post, then its redirect unfollowed) with a delayed user agent of its own: its requests and the round trips it waited on. */
async function roundTripsOf(visitor: Visitor, path: string, form?: Record<string, string>): Promise<{ requests: string[]; roundTrips: number }> {
  const userAgent = `${DELAYED_CLIENT}${crypto.randomUUID()}`;
  const response = form ? await visitor.post(path, form, { 'User-Agent': userAgent }) : await visitor.get(path, { 'User-Agent': userAgent });
  expect(form ? [302, 303] : [200], path).toContain(response.status);
  await response.arrayBuffer();
  const requests = await timedRequestsOf(userAgent);
  return { requests: requests.map((r) => r.request.split('?')[0]), roundTrips: sequentialRoundTrips(requests) };
}

let admin: Visitor;
const pages: string[] = [
  '/dashboard',
  '/leads',
  '/clients',
  '/quotes',
  '/invoices',
  '/bills',
  '/documents',
  '/messages',
  '/shipments',
  '/purchase-orders',
  '/rfp',
  '/rfp/radar',
  '/rfp/radar/settings',
  '/compliance',
  '/compliance/catalogues',
  '/automations',
  '/analytics',
  '/profile',
  '/settings/website',
  '/settings/modules',
  '/settings/templates',
  '/settings/integrations',
  '/settings/users',
  '/settings/account',
  '/settings/audit-logs',
  // The helpdesk's SLA settings and report (decision 075).
  '/settings/helpdesk',
  '/messages/report',
  '/messages/new',
  '/messages/replies',
];

beforeAll(async () => {
  admin = await demoAdmin();
  // The isolate's first verification fetches the signing keys: the pages are counted after it.
  expect((await admin.get('/dashboard')).status).toBe(200);
  const service = serviceClient();
  const { data: account } = await service.from('users').select('account_id').eq('email', 'demo@opshub.test').single();
  const first = async (table: string): Promise<string | undefined> => {
    const { data } = await service.from(table).select('id').eq('account_id', account!.account_id).limit(1);
    return (data as { id: string }[] | null)?.[0]?.id;
  };
  const records: Array<[string, string | undefined]> = [
    ['/leads/', await first('leads')],
    ['/clients/', await first('contacts')],
    ['/quotes/', await first('quotes')],
    ['/invoices/', await first('invoices')],
    ['/bills/', await first('bills')],
    ['/documents/', await first('documents')],
    ['/messages/', await first('conversations')],
    ['/compliance/', await first('compliance_items')],
    ['/shipments/', await first('shipments')],
    ['/purchase-orders/', await first('purchase_orders')],
    ['/automations/', await first('automations')],
    ['/rfp/', await first('rfps')],
  ];
  // A draft's edit pages.
  const { data: draftQuote } = await service.from('quotes').select('id').eq('account_id', account!.account_id).eq('status', 'draft').limit(1);
  const { data: draftInvoice } = await service.from('invoices').select('id').eq('account_id', account!.account_id).eq('status', 'draft').limit(1);
  if (draftQuote?.[0]) pages.push(`/quotes/${draftQuote[0].id}/edit`);
  if (draftInvoice?.[0]) pages.push(`/invoices/${draftInvoice[0].id}/edit`);
  for (const [prefix, id] of records) if (id) pages.push(`${prefix}${id}`);
  // A purchase order's PDF: the order, its lines and the seller in one read beside the users row (issue 36).
  const po = records.find(([prefix]) => prefix === '/purchase-orders/')?.[1];
  if (po) pages.push(`/purchase-orders/${po}/pdf`);
});

describe('backend round trips a signed-in page waits on', () => {
  it('holds every page to one', async () => {
    const measured: Record<string, string> = {};
    const over: string[] = [];
    for (const path of pages) {
      const { requests, roundTrips } = await roundTripsOf(admin, path);
      measured[path] = `${roundTrips} (${requests.join(', ')})`;
      if (roundTrips > 1) over.push(path);
    }
    expect(over, JSON.stringify(measured, null, 1)).toEqual([]);
  });

  // The client's portal (decision 050), as the demo client.
  it("holds the client's portal pages to one", async () => {
    const client = await signIn(DEMO_CLIENT);
    for (const path of ['/portal', '/portal/invoices', '/portal/documents', '/portal/orders']) {
      const { requests, roundTrips } = await roundTripsOf(client, path);
      expect(roundTrips, `${path}: ${requests.join(', ')}`).toBe(1);
    }
  });

  // A document's review page, as a fresh account that uploaded one (the demo account may hold none).
  it("holds a document's page to one", async () => {
    const { visitor } = await signUpFreshAdmin();
    const id = await upload(visitor, { file: textInvoice('INV-RT-1'), title: 'Round trip invoice' });
    await extracted(id);
    const { requests, roundTrips } = await roundTripsOf(visitor, `/documents/${id}`);
    expect(roundTrips, requests.join(', ')).toBe(1);
  });

  // A create form's post: its write starts alongside the users row (createRecord).
  it('holds a create form post to one before its redirect', async () => {
    const { visitor } = await signUpFreshAdmin();
    const posts: Array<[string, Record<string, string>]> = [
      ['/leads?new', { name: 'Round Trip', email: 'round@trip.test', company: 'Trips', phone_whatsapp: '+1 555 0100', role: 'Buyer', source: 'email', notes: '' }],
      ['/clients?new', { name: 'Round Trip Client', email: 'client@trip.test', company: '' }],
    ];
    for (const [path, form] of posts) {
      const { requests, roundTrips } = await roundTripsOf(visitor, path, form);
      expect(roundTrips, `${path}: ${requests.join(', ')}`).toBe(1);
    }
  });

  // A record page's post (recordAction): its write starts alongside the users row too.
  it("holds a record page's post to one before its redirect", async () => {
    const { visitor } = await signUpFreshAdmin();
    const created = await visitor.post('/leads?new', { name: 'Moved Lead', email: 'moved@trip.test', company: 'Trips', phone_whatsapp: '', role: '', source: 'email', notes: '' });
    const location = created.headers.get('Location') ?? '';
    const service = serviceClient();
    const { data: lead } = await service.from('leads').select('id').eq('email', 'moved@trip.test').order('created_at', { ascending: false }).limit(1).single();
    expect(location, 'the create redirected').not.toBe('');
    const { requests, roundTrips } = await roundTripsOf(visitor, `/leads/${lead!.id}`, { intent: 'status', status: 'contacted' });
    expect(roundTrips, requests.join(', ')).toBe(1);
  });

  // The Export Report dialog's post (issue 40): the row count, and over the limit the queued job, in one call
  // (analytics_export_request) started alongside the users row; here a direct download's 303.
  it("holds the Export Report dialog's post to one before its redirect", async () => {
    const { visitor } = await signUpFreshAdmin();
    const form = { report_type: 'comprehensive', format: 'csv', date_range: 'last_30_days', start_date: '', end_date: '', include_summary: 'on' };
    const { requests, roundTrips } = await roundTripsOf(visitor, '/analytics?export', form);
    expect(roundTrips, requests.join(', ')).toBe(1);
    expect(requests.filter((r) => r.includes('analytics_export_request')), requests.join(', ')).toHaveLength(1);
  });

  it('counts parallel requests once and chained ones each (the measure itself)', () => {
    const at = (start: number, end: number): TimedRequest => ({ request: 'GET /x', start, end });
    expect(sequentialRoundTrips([])).toBe(0);
    expect(sequentialRoundTrips([at(0, 50), at(1, 52), at(2, 51)])).toBe(1);
    expect(sequentialRoundTrips([at(0, 50), at(51, 101)])).toBe(2);
    expect(sequentialRoundTrips([at(0, 50), at(51, 101), at(10, 120), at(121, 170)])).toBe(3);
  });
});
