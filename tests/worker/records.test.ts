// A lead's and a client's page through the real Worker, as a browser without
// JavaScript uses them: open, edit, change a status (on the page and from a
// list row), convert a lead to a client and to a quote, delete behind a
// confirmation, the history by name, the directory's figures, and the toasts
// that link to what was made. With and without a session, and by role.
import { describe, expect, it } from 'vitest';
import { accountOf, serviceClient } from './support/backend';
import { pageText, signIn, signUpFreshAdmin, Visitor } from './support/app';
import { DEMO_ADMIN, DEMO_AUDITOR, DEMO_CLIENT, DEMO_NORTHWIND_ADMIN } from '../support/accounts';

async function leadOf(accountId: string, name: string) {
  const { data, error } = await serviceClient()
    .from('leads')
    .insert({ account_id: accountId, name, email: 'ada@engine.test', company: 'Analytical Engines', phone_whatsapp: '+1 555 0142' })
    .select('id')
    .single();
  if (error) throw error;
  return data.id as string;
}

const stored = async (table: string, id: string) => (await serviceClient().from(table).select('*').eq('id', id).maybeSingle()).data;

/** The toast's link: where it goes and what it says. */
function toastLink(html: string): { href: string; label: string } | null {
  const match = /data-toast-type="success"[\s\S]*?<a[^>]*href="([^"]+)"[^>]*>([^<]+)<\/a>/.exec(html);
  return match ? { href: match[1], label: match[2] } : null;
}

const LEAD_EDIT = {
  intent: 'update',
  name: 'Ada King',
  email: 'ada@engine.test',
  company: 'Analytical Engines',
  phone_whatsapp: '',
  role: 'Countess',
  source: 'referral',
  notes: 'Prefers letters',
};

describe("a lead's page", () => {
  it('shows its fields, status control, conversion and history by name', async () => {
    const { visitor, email } = await signUpFreshAdmin({ first_name: 'Grace', last_name: 'Hopper' });
    const { accountId } = await accountOf(email);
    const created = await visitor.post('/leads?new', { name: 'Ada Lovelace', email: 'ada@engine.test', company: 'Analytical Engines' });
    expect(created.status).toBe(302);
    const list = await pageText(await visitor.follow(created));
    // The toast names the lead and links to it.
    expect(list).toContain('Lead Ada Lovelace created');
    const link = toastLink(list);
    expect(link?.label).toBe('View lead');
    const id = link!.href.replace('/leads/', '');
    expect((await stored('leads', id))?.account_id).toBe(accountId);
    // The list row links to the page and is ticked for a bulk action.
    expect(list).toContain(`href="/leads/${id}"`);
    expect(list).toContain(`aria-label="Select Ada Lovelace"`);

    const page = await visitor.get(`/leads/${id}`);
    expect(page.status).toBe(200);
    const html = await pageText(page);
    expect(html).toContain('<h1');
    expect(html).toContain('Ada Lovelace');
    expect(html).toContain('Analytical Engines');
    expect(html).toContain('Convert to client');
    expect(html).toContain('Convert and create quote');
    expect(html).toMatch(/Created<\/span> by Grace Hopper/);
  });

  it('edits the lead without JavaScript; a bad edit keeps the input and says why', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const id = await leadOf((await accountOf(email)).accountId, 'Ada Lovelace');
    const form = await pageText(await visitor.get(`/leads/${id}?edit`));
    expect(form).toContain('role="dialog"');
    expect(form).toContain('value="Ada Lovelace"');

    const bad = await visitor.post(`/leads/${id}?edit`, { ...LEAD_EDIT, email: 'not-an-email' });
    expect(bad.status).toBe(400);
    const badHtml = await pageText(bad);
    expect(badHtml).toContain('Enter a valid email address');
    expect(badHtml).toContain('value="Countess"');
    expect((await stored('leads', id))?.name).toBe('Ada Lovelace');

    const saved = await visitor.post(`/leads/${id}?edit`, LEAD_EDIT);
    expect(saved.status).toBe(302);
    expect(saved.headers.get('Location')).toBe(`/leads/${id}`);
    expect(await stored('leads', id)).toMatchObject({ name: 'Ada King', role: 'Countess', source: 'referral', phone_whatsapp: null });
    const after = await pageText(await visitor.follow(saved));
    expect(after).toContain('Lead updated');
    expect(after).toContain('Name: Ada Lovelace → Ada King');
  });

  it('changes the status from the page and from a list row, back to the same list page', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const id = await leadOf((await accountOf(email)).accountId, 'Ada Lovelace');
    const onPage = await visitor.post(`/leads/${id}`, { intent: 'status', status: 'contacted' });
    expect(onPage.headers.get('Location')).toBe(`/leads/${id}`);
    expect((await stored('leads', id))?.status).toBe('contacted');
    expect(await pageText(await visitor.follow(onPage))).toContain('Status changed');

    const fromList = await visitor.post(`/leads/${id}`, { intent: 'status', status: 'qualified', returnTo: '/leads?q=ada&page=1' });
    expect(fromList.status).toBe(302);
    expect(fromList.headers.get('Location')).toBe('/leads?q=ada&page=1');
    expect((await stored('leads', id))?.status).toBe('qualified');

    // Nowhere but the leads list: an altered return path is refused.
    const elsewhere = await visitor.post(`/leads/${id}`, { intent: 'status', status: 'lost', returnTo: 'https://evil.test/' });
    expect(elsewhere.status).toBe(400);
    const unknown = await visitor.post(`/leads/${id}`, { intent: 'status', status: 'won' });
    expect(unknown.status).toBe(400);
    expect((await stored('leads', id))?.status).toBe('qualified');
  });

  it('converts the lead to a client (a toast linking to it), and on to a quote for it', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const id = await leadOf((await accountOf(email)).accountId, 'Ada Lovelace');
    const converted = await visitor.post(`/leads/${id}`, { intent: 'convert' });
    expect(converted.headers.get('Location')).toBe(`/leads/${id}`);
    const lead = await stored('leads', id);
    expect(lead).toMatchObject({ status: 'qualified' });
    const client = await stored('contacts', lead!.contact_id as string);
    expect(client).toMatchObject({ name: 'Ada Lovelace', phone: '+1 555 0142', company: 'Analytical Engines' });
    const page = await pageText(await visitor.follow(converted));
    expect(page).toContain('Client Ada Lovelace created');
    expect(toastLink(page)).toEqual({ href: `/clients/${client!.id}`, label: 'View client' });
    expect(page).toContain(`href="/quotes?new&amp;client=${client!.id}"`);

    // Converting again (the quote route) reuses the client and opens the quote dialog with it chosen.
    const toQuote = await visitor.post(`/leads/${id}`, { intent: 'convert-quote' });
    expect(toQuote.headers.get('Location')).toBe(`/quotes?new&client=${client!.id}`);
    const dialog = await pageText(await visitor.follow(toQuote));
    expect(dialog).toContain('role="dialog"');
    expect(dialog).toMatch(new RegExp(`<option value="${client!.id}" selected=""[^>]*>Ada Lovelace`));

    const quote = await visitor.post('/quotes?new', {
      contact_id: client!.id, description: 'Difference engine', unit_price: '1000', quantity: '2', currency: 'GBP', expires_in_days: '30',
    });
    expect(quote.status).toBe(302);
    const stamped = (await serviceClient().from('quotes').select('id, quote_number, contact_id, total, currency').eq('contact_id', client!.id).single()).data!;
    expect(stamped).toMatchObject({ total: 200000, currency: 'GBP' });
    const quotes = await pageText(await visitor.follow(quote));
    expect(quotes).toContain(`Quote ${stamped.quote_number} created`);
    // The link opens the quote's page.
    expect(toastLink(quotes)).toEqual({ href: `/quotes/${stamped.id}`, label: 'View quote' });
    const linked = await pageText(await visitor.get(toastLink(quotes)!.href));
    expect(linked).toContain(stamped.quote_number);
    const { count } = await serviceClient().from('contacts').select('id', { count: 'exact', head: true }).eq('name', 'Ada Lovelace');
    expect(count, 'no second client was made').toBe(1);
  });

  it("refuses a quote for another account's client as the visitor's error (400, the form kept), writing nothing", async () => {
    const { email: otherEmail } = await signUpFreshAdmin();
    const otherLead = await leadOf((await accountOf(otherEmail)).accountId, 'Grace Hopper');
    const { data: otherClient } = await serviceClient()
      .from('contacts')
      .insert({ account_id: (await accountOf(otherEmail)).accountId, name: 'Grace Hopper', email: `grace-${otherLead}@navy.test` })
      .select('id')
      .single();
    const { visitor } = await signUpFreshAdmin();
    const refused = await visitor.post('/quotes?new', {
      contact_id: otherClient!.id, description: 'Compiler', unit_price: '10', quantity: '1', currency: 'USD', expires_in_days: '30',
    });
    expect(refused.status).toBe(400);
    const page = await pageText(refused);
    expect(page).toContain('Client not found');
    expect(page).toContain('>Compiler</textarea>');
    const { count } = await serviceClient().from('quotes').select('id', { count: 'exact', head: true }).eq('contact_id', otherClient!.id);
    expect(count).toBe(0);
  });

  it('deletes behind a confirmation that starts on Cancel; the audit trail stays', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const id = await leadOf((await accountOf(email)).accountId, 'Ada Lovelace');
    const confirm = await pageText(await visitor.get(`/leads/${id}?delete`));
    expect(confirm).toContain('role="dialog"');
    expect(confirm).toContain('Delete the lead &quot;Ada Lovelace&quot;?');
    expect(confirm).toMatch(/<a[^>]*autofocus=""[^>]*>Cancel<\/a>/);
    const deleted = await visitor.post(`/leads/${id}?delete`, { intent: 'delete' });
    expect(deleted.headers.get('Location')).toBe('/leads');
    expect(await pageText(await visitor.follow(deleted))).toContain('Lead deleted');
    expect(await stored('leads', id)).toBeNull();
    const trail = (await serviceClient().from('audit_logs').select('action').eq('resource_id', id).order('created_at')).data;
    expect(trail?.map((row) => row.action)).toEqual(['lead_created', 'lead_deleted']);
    expect((await visitor.get(`/leads/${id}`)).status).toBe(404);
  });

  it("is a 404 for an id that is no lead, another account's lead, or no id at all", async () => {
    const visitor = await signIn(DEMO_NORTHWIND_ADMIN);
    const { accountId } = await accountOf(DEMO_ADMIN.email);
    const theirs = await leadOf(accountId, 'Not Northwind');
    for (const path of [`/leads/${theirs}`, '/leads/00000000-0000-4000-8000-000000000000', '/leads/not-an-id']) {
      const response = await visitor.get(path);
      expect(response.status, path).toBe(404);
      expect(await pageText(response)).toContain('Lead not found');
    }
    const post = await visitor.post(`/leads/${theirs}`, { intent: 'delete' });
    expect(post.status).toBe(400);
    expect(await stored('leads', theirs)).not.toBeNull();
  });
});

describe("a client's page", () => {
  it("shows fields, revenue per currency, last contact, its quotes and history; edits the address and the country", async () => {
    const { visitor } = await signUpFreshAdmin({ first_name: 'Grace', last_name: 'Hopper' });
    const created = await visitor.post('/clients?new', { name: 'Dorothy Vaughan', email: 'dorothy@fortran.test', address: '1 Langley Way' });
    const list = await pageText(await visitor.follow(created));
    expect(list).toContain('Client Dorothy Vaughan created');
    const id = toastLink(list)!.href.replace('/clients/', '');
    expect(list).toContain('1 Langley Way');

    const service = serviceClient();
    const usd = await visitor.post('/quotes?new', { contact_id: id, description: 'A', unit_price: '5238', quantity: '1', currency: 'USD', expires_in_days: '30' });
    const eur = await visitor.post('/quotes?new', { contact_id: id, description: 'B', unit_price: '1350', quantity: '1', currency: 'EUR', expires_in_days: '30' });
    expect([usd.status, eur.status]).toEqual([302, 302]);
    expect((await service.from('quotes').update({ status: 'signed' }).eq('contact_id', id)).error).toBeNull();

    const html = await pageText(await visitor.get(`/clients/${id}`));
    expect(html).toContain('Dorothy Vaughan');
    expect(html).toContain('$5,238.00 · €1,350.00');
    expect(html).toContain('Last contact');
    expect(html).toMatch(/Created<\/span> by Grace Hopper/);
    // Each of its quotes links to the quote's page.
    expect(html).toMatch(/href="\/quotes\/[0-9a-f-]{36}"[^>]*>Q-\d{4}-\d+</);
    const directory = await pageText(await visitor.get('/clients'));
    expect(directory).toContain('$5,238.00 · €1,350.00');

    const saved = await visitor.post(`/clients/${id}?edit`, {
      intent: 'update', name: 'Dorothy Vaughan', email: 'dorothy@fortran.test', company: '', phone: '', role: '', status: 'inactive', address: '2 Hampton Road', country: 'FR', notes: '',
    });
    expect(saved.headers.get('Location')).toBe(`/clients/${id}`);
    expect(await stored('contacts', id)).toMatchObject({ address: '2 Hampton Road', country: 'FR', status: 'inactive', company: 'Dorothy Vaughan' });
    const after = await pageText(await visitor.follow(saved));
    expect(after).toContain('Address: 1 Langley Way → 2 Hampton Road');
    expect(after).toMatch(/Country<\/dt>\s*<dd[^>]*>France</);
    // A country that is no ISO code is refused on the form, with what was typed kept (decision 052).
    const refused = await visitor.post(`/clients/${id}?edit`, {
      intent: 'update', name: 'Dorothy Vaughan', email: 'dorothy@fortran.test', company: '', phone: '', role: '', status: 'inactive', address: '3 Mercury Lane', country: 'Narnia', notes: '',
    });
    expect(refused.status).toBe(400);
    const refusedHtml = await pageText(refused);
    expect(refusedHtml).toContain('Choose a country');
    expect(refusedHtml).toContain('3 Mercury Lane');
    expect(await stored('contacts', id)).toMatchObject({ address: '2 Hampton Road', country: 'FR' });
  });

  it('refuses to delete a client with quotes and says why; deletes one without', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const quoted = await visitor.post('/quotes?new', {
      contact_name: 'Quoted Client', contact_email: 'q@client.test', company: 'Q Co', description: 'A', unit_price: '10', quantity: '1', currency: 'USD', expires_in_days: '30',
    });
    expect(quoted.status).toBe(302);
    const contact = (await serviceClient().from('contacts').select('id').eq('account_id', accountId).single()).data!;
    const dialog = await pageText(await visitor.get(`/clients/${contact.id}?delete`));
    expect(dialog).toContain('This client has quotes, so it cannot be deleted.');
    expect(dialog).not.toContain('>Delete</button>');
    // A post made anyway is refused by the database, and said.
    const refused = await visitor.post(`/clients/${contact.id}?delete`, { intent: 'delete' });
    expect(refused.status).toBe(409);
    expect(await pageText(refused)).toContain('This client has quotes, so it cannot be deleted.');
    expect(await stored('contacts', contact.id)).not.toBeNull();

    const { data: free } = await serviceClient().from('contacts').insert({ account_id: accountId, name: 'Free', email: 'f@client.test' }).select('id').single();
    const deleted = await visitor.post(`/clients/${free!.id}?delete`, { intent: 'delete' });
    expect(deleted.headers.get('Location')).toBe('/clients');
    expect(await stored('contacts', free!.id)).toBeNull();
  });
});

describe('who may open and change a record', () => {
  it('sends a visitor without a session to sign in, for the page and for a post', async () => {
    const { accountId } = await accountOf(DEMO_ADMIN.email);
    const id = await leadOf(accountId, 'Anonymous Target');
    const visitor = new Visitor();
    for (const response of [await visitor.get(`/leads/${id}`), await visitor.post(`/leads/${id}`, { intent: 'delete' }), await visitor.get(`/clients/${id}`)]) {
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toMatch(/^\/auth/);
    }
    expect(await stored('leads', id)).not.toBeNull();
  });

  it('lets an auditor read a lead but not change it (no controls, and a post is a 403)', async () => {
    const { accountId } = await accountOf(DEMO_ADMIN.email);
    const id = await leadOf(accountId, 'Audited Lead');
    const auditor = await signIn(DEMO_AUDITOR);
    const html = await pageText(await auditor.get(`/leads/${id}?delete`));
    expect(html).toContain('Audited Lead');
    expect(html).not.toContain('role="dialog"');
    expect(html).not.toContain('Convert to client');
    const post = await auditor.post(`/leads/${id}`, { intent: 'delete' });
    expect(post.status).toBe(403);
    expect(await stored('leads', id)).not.toBeNull();
  });

  it("keeps a client user out of the account's leads and clients", async () => {
    const { accountId } = await accountOf(DEMO_ADMIN.email);
    const id = await leadOf(accountId, 'Hidden From Clients');
    const client = await signIn(DEMO_CLIENT);
    // Sent to their own page before any loader or action runs.
    for (const response of [
      await client.get(`/leads/${id}`),
      await client.get(`/clients/${id}`),
      await client.post(`/leads/${id}`, { intent: 'status', status: 'lost' }),
      await client.post(`/leads/${id}`, { intent: 'convert' }),
    ]) {
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toBe('/portal');
    }
    expect(await stored('leads', id)).toMatchObject({ status: 'new', contact_id: null });
  });
});
