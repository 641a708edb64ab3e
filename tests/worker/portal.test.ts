// The client portal (issue 31, decision 050), as a browser without JavaScript
// uses it: a client lands on /portal and reads only what was sent to it (its
// quotes, its invoices with balance and payments, its signed documents), and
// signs from the portal through the quote's own page with a short link that
// only it can open. Staff have no portal; the client has nothing else.
import { beforeAll, describe, expect, it } from 'vitest';
import { pageText, Visitor } from './support/app';
import { readable } from './support/module-screens';
import { serviceClient } from './support/backend';
import { freshTeam, toastIn } from './support/settings';

type Team = Awaited<ReturnType<typeof freshTeam>>;
let team: Team;
let contactId: string;
let otherContactId: string;

let ipCounter = 0;
const freshIp = () => `203.0.113.${(ipCounter += 1) % 250}`;

async function quote(contact: string, notes: string, price: number, send: boolean): Promise<{ id: string; number: string }> {
  const db = serviceClient();
  const { data, error } = await db
    .from('quotes')
    .insert({ account_id: team.accountId, contact_id: contact, status: 'draft', notes, expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString() })
    .select('id, quote_number')
    .single();
  if (error) throw error;
  const item = await db.from('quote_items').insert({ quote_id: data.id, description: notes, qty: 1, unit_price: price, total: price });
  if (item.error) throw item.error;
  if (send) expect((await team.admin.visitor.post(`/quotes/${data.id}`, { intent: 'send' })).status).toBe(302);
  return { id: data.id as string, number: data.quote_number as string };
}

async function invoice(email: string, price: string, send: boolean): Promise<{ id: string; number: string }> {
  const created = await team.admin.visitor.post('/invoices?new', {
    client_name: 'Portal Client', client_email: email, description: 'Consulting', unit_price: price, quantity: '1',
    currency: 'USD', due_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), notes: '',
  });
  expect(created.status).toBe(302);
  const { data } = await serviceClient().from('invoices').select('id, invoice_number').eq('account_id', team.accountId)
    .eq('client_email', email).order('created_at', { ascending: false }).limit(1).single();
  if (send) expect((await team.admin.visitor.post(`/invoices/${data!.id}`, { intent: 'send' })).status).toBe(302);
  return { id: data!.id as string, number: data!.invoice_number as string };
}

beforeAll(async () => {
  team = await freshTeam();
  const db = serviceClient();
  const made = await db.from('contacts').insert([
    { account_id: team.accountId, name: 'Casey Client', email: team.client.email, company: 'Client Co' },
    { account_id: team.accountId, name: 'Other Person', email: `other-${crypto.randomUUID().slice(0, 8)}@client.test`, company: 'Other Co' },
  ]).select('id, name');
  if (made.error) throw made.error;
  contactId = made.data.find((row) => row.name === 'Casey Client')!.id;
  otherContactId = made.data.find((row) => row.name === 'Other Person')!.id;
}, 120_000);

describe('the client portal', () => {
  it('is where a client lands: its sent quotes and invoices, with balance and payments, nothing unsent or of others', async () => {
    const sent = await quote(contactId, 'Sent to the client', 12_300, true);
    const draft = await quote(contactId, 'Unsent draft', 987_654, false);
    const others = await quote(otherContactId, 'Someone else', 55_500, true);
    const billed = await invoice(team.client.email, '400', true);
    const unsent = await invoice(team.client.email, '777', false);
    const paid = await team.admin.visitor.post(`/invoices/${billed.id}`, {
      intent: 'pay', amount: '150', paid_on: new Date().toISOString().slice(0, 10), method: 'card', reference: '', currency: 'USD',
    });
    expect(paid.status).toBe(302);

    const home = await team.client.visitor.get('/dashboard');
    expect(home.headers.get('Location')).toBe('/portal');
    const html = readable(await pageText(await team.client.visitor.get('/portal')));
    expect(html).toContain('Your quotes');
    expect(html).toContain(sent.number);
    expect(html).toContain('$123.00');
    for (const hidden of [draft.number, others.number, '9,876.54', '$555.00', 'Total Quotes', 'New Quote']) expect(html, hidden).not.toContain(hidden);

    const invoices = readable(await pageText(await team.client.visitor.get('/portal/invoices')));
    expect(invoices).toContain(billed.number);
    expect(invoices).toMatch(/Balance due \$250\.00/);
    expect(invoices).toMatch(/Card \$150\.00/);
    expect(invoices).not.toContain(unsent.number);
    expect(invoices).not.toContain('$777.00');

    const pdf = await team.client.visitor.get(`/invoices/${billed.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('Content-Type')).toContain('application/pdf');
    expect((await team.client.visitor.get(`/invoices/${unsent.id}/pdf`)).status).toBe(404);
    expect((await team.client.visitor.get(`/quotes/${draft.id}/pdf`)).status).toBe(404);
    // The staff's pages of the same records send it back to the portal.
    expect((await team.client.visitor.get(`/quotes/${sent.id}`)).headers.get('Location')).toBe('/portal');
  });

  it('signs from the portal on the quote\'s own page; the signed PDF is then among its signed documents', async () => {
    const sent = await quote(contactId, 'Portal signing', 20_000, true);
    const before = readable(await pageText(await team.client.visitor.get('/portal/documents')));
    expect(before).not.toContain(sent.number);

    const review = await team.client.visitor.post(`/portal/quotes/${sent.id}/sign`, {});
    expect(review.status).toBe(303);
    const location = review.headers.get('Location')!;
    expect(location).toMatch(/^\/q\/[A-Za-z0-9_-]{43}\?from=portal$/);
    // The link is the client's own: nobody else, signed in or not, opens it.
    expect((await new Visitor().get(location, { 'CF-Connecting-IP': freshIp() })).status).toBe(404);
    expect((await team.supplier.visitor.get(location, { 'CF-Connecting-IP': freshIp() })).status).toBe(404);

    const page = readable(await pageText(await team.client.visitor.get(location, { 'CF-Connecting-IP': freshIp() })));
    expect(page).toContain(`Quote ${sent.number}`);
    expect(page).toContain('Accept and sign');
    expect(page).toContain('Back to your quotes');
    const signed = await team.client.visitor.post(location,
      { intent: 'accept', signer_name: 'Casey Client', signer_email: team.client.email, agree: 'on' },
      { 'CF-Connecting-IP': freshIp() });
    expect(signed.status).toBe(303);
    // Signed, the page keeps its way back to the portal.
    expect(signed.headers.get('Location')).toBe(location);
    const { data: row } = await serviceClient().from('quotes').select('status, signer_name, content_hash').eq('id', sent.id).single();
    expect(row).toMatchObject({ status: 'signed', signer_name: 'Casey Client' });

    const documents = readable(await pageText(await team.client.visitor.get('/portal/documents')));
    expect(documents).toContain(`Quote ${sent.number}`);
    const pdf = await team.client.visitor.get(`/quotes/${sent.id}/pdf`);
    expect(pdf.status).toBe(200);
    // Signed: no second link.
    const again = await team.client.visitor.post(`/portal/quotes/${sent.id}/sign`, {});
    expect(again.headers.get('Location')).toBe('/portal');
    expect(toastIn(await pageText(await team.client.visitor.follow(again)))).toContain('This quote can no longer be signed');
  });

  it('declines from the portal with a reason, and the owner and admins are told as from the mailed link', async () => {
    const sent = await quote(contactId, 'Portal decline', 4_000, true);
    const review = await team.client.visitor.post(`/portal/quotes/${sent.id}/sign`, {});
    const location = review.headers.get('Location')!;
    const declined = await team.client.visitor.post(location, { intent: 'decline', decline_reason: 'Over budget' }, { 'CF-Connecting-IP': freshIp() });
    expect(declined.status).toBe(303);
    const { data: row } = await serviceClient().from('quotes').select('status, decline_reason').eq('id', sent.id).single();
    expect(row).toEqual({ status: 'declined', decline_reason: 'Over budget' });
    const { data: jobs } = await serviceClient().from('jobs').select('kind').eq('subject_id', sent.id);
    expect((jobs ?? []).map((job) => job.kind)).toContain('quote_declined');
    const page = readable(await pageText(await team.client.visitor.get('/portal')));
    expect(page).toMatch(new RegExp(`${sent.number}[\\s\\S]*Declined`));
  });

  it('gives no link for a draft or another client\'s quote', async () => {
    const draft = await quote(contactId, 'Draft again', 1_000, false);
    const others = await quote(otherContactId, 'Not theirs', 1_000, true);
    for (const id of [draft.id, others.id, 'not-a-uuid']) {
      const refused = await team.client.visitor.post(`/portal/quotes/${id}/sign`, {});
      expect(refused.headers.get('Location'), id).toBe('/portal');
      expect(toastIn(await pageText(await team.client.visitor.follow(refused)))).toContain('Quote not found');
    }
  });

  it('is not for staff, and a supplier finds nothing in it', async () => {
    await quote(contactId, 'For the client only', 3_000, true);
    expect((await team.admin.visitor.get('/portal')).headers.get('Location')).toBe('/dashboard');
    const html = readable(await pageText(await team.supplier.visitor.get('/portal')));
    expect(html).toContain('No quotes have been sent to you yet');
    expect(html).not.toContain('For the client only');
    expect(readable(await pageText(await team.supplier.visitor.get('/portal/invoices')))).toContain('No invoices have been sent to you yet');
  });
});
