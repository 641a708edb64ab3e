// A quote's pages through the built Worker, as a browser without JavaScript
// uses them: /quotes/:id (read, send, revise, delete) and /quotes/:id/edit
// (lines added, removed and moved by Conform's list intents posted as plain
// forms, then saved), for each role, with bad input and other accounts' ids.
import { beforeAll, describe, expect, it } from 'vitest';
import { pageText, Visitor } from './support/app';
import { serviceClient } from './support/backend';
import { freshTeam } from './support/settings';

type Team = Awaited<ReturnType<typeof freshTeam>>;
let team: Team;
let other: Team;

beforeAll(async () => {
  [team, other] = await Promise.all([freshTeam(), freshTeam()]);
}, 120_000);

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** A draft of the account with one line (1 × $10.00), for a client with this email. */
async function draft(accountId: string, email = 'buyer@quote-pages.test', status = 'draft') {
  const db = serviceClient();
  const { data: contact, error: contactError } = await db
    .from('contacts')
    .insert({ account_id: accountId, name: 'Quinn Buyer', email, company: 'Buyer Co' })
    .select('id')
    .single();
  if (contactError) throw contactError;
  const { data: quote, error } = await db
    .from('quotes')
    .insert({ account_id: accountId, contact_id: contact.id, status, subtotal: 1000, total: 1000, expires_at: inDays(30) })
    .select('id, quote_number')
    .single();
  if (error) throw error;
  const item = await db.from('quote_items').insert({ quote_id: quote.id, description: 'Starter line', qty: 1, unit_price: 1000, total: 1000 });
  if (item.error) throw item.error;
  return { id: quote.id as string, number: quote.quote_number as string, contactId: contact.id as string };
}

async function stored(id: string) {
  const { data } = await serviceClient()
    .from('quotes')
    .select('status, currency, subtotal, discount_amount, tax_amount, total, tax_rate, discount, notes')
    .eq('id', id)
    .single();
  return data as Record<string, unknown>;
}

async function lines(id: string) {
  const { data } = await serviceClient().from('quote_items').select('description, qty, unit_price, total').eq('quote_id', id).order('position');
  return data as { description: string; qty: number; unit_price: number; total: number }[];
}

/** The edit form as its page renders it, with these lines (description, qty, price). */
function editForm(contactId: string, items: [string, string, string][], changes: Record<string, string> = {}): URLSearchParams {
  const form = new URLSearchParams({
    contact_id: contactId,
    currency: 'EUR',
    expires_on: inDays(20).slice(0, 10),
    notes: 'Net 30',
    tax_rate: '20',
    discount: '10',
  });
  items.forEach(([description, quantity, price], i) => {
    form.set(`items[${i}].description`, description);
    form.set(`items[${i}].quantity`, quantity);
    form.set(`items[${i}].unit_price`, price);
  });
  for (const [name, value] of Object.entries(changes)) form.set(name, value);
  return form;
}

/** A list intent button as Conform renders it (name __intent__, its JSON as the value). */
const intent = (value: unknown) => ['__intent__', JSON.stringify(value)] as const;

async function post(visitor: Visitor, path: string, form: URLSearchParams) {
  return visitor.post(path, Object.fromEntries(form) as Record<string, string>);
}

/** The value of an input, as the page renders it. */
function inputValue(html: string, name: string): string | undefined {
  const tag = new RegExp(`<(?:input|textarea)[^>]*name="${name.replace(/[[\].]/g, '\\$&')}"[^>]*>([^<]*)`).exec(html);
  if (!tag) return undefined;
  const value = /value="([^"]*)"/.exec(tag[0]);
  return value ? value[1] : tag[1];
}

describe('without a session', () => {
  it('sends every route and intent to sign-in', async () => {
    const quote = await draft(team.accountId);
    const anonymous = new Visitor();
    for (const path of [`/quotes/${quote.id}`, `/quotes/${quote.id}/edit`]) {
      const page = await anonymous.get(path);
      expect(page.status, path).toBe(302);
      expect(page.headers.get('Location')).toMatch(/^\/auth/);
    }
    for (const intentName of ['send', 'revise', 'delete']) {
      const response = await anonymous.post(`/quotes/${quote.id}`, { intent: intentName });
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toMatch(/^\/auth/);
    }
    const save = await post(anonymous, `/quotes/${quote.id}/edit`, editForm(quote.contactId, [['A', '1', '1']]));
    expect(save.headers.get('Location')).toMatch(/^\/auth/);
    expect(await stored(quote.id)).toMatchObject({ status: 'draft', subtotal: 1000 });
  });
});

describe("an admin's quote page", () => {
  it('shows the draft: number, status, client, lines, totals, history and the draft actions', async () => {
    const quote = await draft(team.accountId);
    const html = await pageText(await team.admin.visitor.get(`/quotes/${quote.id}`));
    expect(html).toMatch(new RegExp(`<h1 [^>]*>${quote.number}</h1>`));
    expect(html).toMatch(/data-status="draft"/);
    expect(html).toContain('Quinn Buyer');
    expect(html).toContain('Starter line');
    expect(html).toContain('$10.00');
    expect(html).toContain('Subtotal');
    expect(html).toContain('History');
    expect(html).toContain(`href="/quotes/${quote.id}/edit"`);
    expect(html).toMatch(/name="intent" value="send"/);
    expect(html).toContain('>Delete</a>');
    expect(html).not.toMatch(/name="intent" value="revise"/);
    expect(html).toContain(`href="/quotes/${quote.id}/pdf"`);
    const pdf = await team.admin.visitor.get(`/quotes/${quote.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('Content-Type')).toBe('application/pdf');
  });

  it('is a 404 for an unknown id, a malformed one and another account\'s quote', async () => {
    const foreign = await draft(other.accountId);
    for (const path of ['/quotes/6f1c1d9e-0000-4000-8000-00000000dead', '/quotes/not-a-uuid', `/quotes/${foreign.id}`, `/quotes/${foreign.id}/edit`]) {
      const response = await team.admin.visitor.get(path);
      expect(response.status, path).toBe(404);
      expect(await pageText(response)).toContain('Quote not found');
    }
    const send = await team.admin.visitor.post(`/quotes/${foreign.id}`, { intent: 'send' });
    expect(send.status).toBe(400);
    expect(await pageText(send)).toContain('Quote not found');
    expect((await stored(foreign.id)).status).toBe('draft');
  });

  it('says when the mail could not be delivered', async () => {
    const quote = await draft(team.accountId, 'late@quote-pages.test', 'sent');
    await serviceClient().from('quotes').update({ delivery_error: 'SMTP 550 mailbox unavailable' }).eq('id', quote.id);
    const html = await pageText(await team.admin.visitor.get(`/quotes/${quote.id}`));
    expect(html).toContain('Delivery failed: SMTP 550 mailbox unavailable');
    expect(html).toMatch(/name="intent" value="revise"/);
    expect(html).not.toContain(`href="/quotes/${quote.id}/edit"`);
  });
});

describe('the edit page without JavaScript', () => {
  it('adds, moves and removes lines by posting list intents, keeping what was typed, then saves', async () => {
    const quote = await draft(team.accountId);
    const path = `/quotes/${quote.id}/edit`;
    const page = await pageText(await team.admin.visitor.get(path));
    expect(inputValue(page, 'items[0].description')).toBe('Starter line');
    expect(inputValue(page, 'items[0].unit_price')).toBe('10.00');
    expect(page).toContain('name="__intent__"');

    // Add a line: the page comes back with a second (empty) line, the first as typed; nothing saved.
    const typed = editForm(quote.contactId, [['Design work', '2', '50.00']]);
    typed.append(...intent({ type: 'insert', payload: { name: 'items', defaultValue: { description: '', quantity: '1', unit_price: '' } } }));
    const added = await post(team.admin.visitor, path, typed);
    expect(added.status).toBe(200);
    const addedHtml = await pageText(added);
    expect(inputValue(addedHtml, 'items[0].description')).toBe('Design work');
    expect(inputValue(addedHtml, 'items[1].quantity')).toBe('1');
    expect(addedHtml).toContain('Line 2');
    expect(await lines(quote.id)).toEqual([{ description: 'Starter line', qty: 1, unit_price: 1000, total: 1000 }]);

    // Three lines, the third moved up to first, then the (now) second removed.
    const three = editForm(quote.contactId, [['Design work', '2', '50.00'], ['Throwaway', '1', '1'], ['Hosting', '12', '9.99']]);
    three.append(...intent({ type: 'reorder', payload: { name: 'items', from: 2, to: 0 } }));
    const moved = await pageText(await post(team.admin.visitor, path, three));
    expect([0, 1, 2].map((i) => inputValue(moved, `items[${i}].description`))).toEqual(['Hosting', 'Design work', 'Throwaway']);
    const removing = editForm(quote.contactId, [['Hosting', '12', '9.99'], ['Design work', '2', '50.00'], ['Throwaway', '1', '1']]);
    removing.append(...intent({ type: 'remove', payload: { name: 'items', index: 2 } }));
    const removed = await pageText(await post(team.admin.visitor, path, removing));
    expect(inputValue(removed, 'items[2].description')).toBeUndefined();
    expect(inputValue(removed, 'items[1].description')).toBe('Design work');

    // Save, with a crafted total that is not read.
    const save = editForm(quote.contactId, [['Hosting', '12', '9.99'], ['Design work', '2', '50.00']], { total: '1', 'items[0].total': '1', subtotal: '5' });
    const saved = await post(team.admin.visitor, path, save);
    expect(saved.status).toBe(302);
    expect(saved.headers.get('Location')).toBe(`/quotes/${quote.id}`);
    expect(await pageText(await team.admin.visitor.follow(saved))).toContain('Quote saved');
    expect(await lines(quote.id)).toEqual([
      { description: 'Hosting', qty: 12, unit_price: 999, total: 11988 },
      { description: 'Design work', qty: 2, unit_price: 5000, total: 10000 },
    ]);
    // 21988 − 10% (2198.8 → 2199) = 19789; + 20% = 3957.8 → 3958; total 23747.
    expect(await stored(quote.id)).toMatchObject({ currency: 'EUR', subtotal: 21988, discount_amount: 2199, tax_amount: 3958, total: 23747, notes: 'Net 30' });
    const detail = await pageText(await team.admin.visitor.get(`/quotes/${quote.id}`));
    expect(detail).toContain('€237.47');
    expect(detail).toContain('Discount (10%)');
    expect(detail).toContain('Tax (20%)');
  });

  it("offers the account's clients, narrowed by a search the server answers, the quote's own kept chosen", async () => {
    const quote = await draft(team.accountId);
    const { data: zelda } = await serviceClient()
      .from('contacts')
      .insert({ account_id: team.accountId, name: 'Zelda Finder', email: 'zelda@quote-pages.test', company: 'Finders' })
      .select('id')
      .single();
    const html = await pageText(await team.admin.visitor.get(`/quotes/${quote.id}/edit?client_q=zelda`));
    expect(html).toContain(`<option value="${zelda!.id}">Zelda Finder — Finders</option>`);
    expect(html).toMatch(new RegExp(`<option value="${quote.contactId}" selected=""[^>]*>Quinn Buyer`));
    expect(html).not.toMatch(/<option value="[^"]+">Quinn Buyer/);
  });

  it('refuses bad input with errors under the fields, keeping what was typed and saving nothing', async () => {
    const quote = await draft(team.accountId);
    const path = `/quotes/${quote.id}/edit`;
    const cases: [URLSearchParams, string][] = [
      [editForm(quote.contactId, [['Priced below zero', '1', '-5']]), 'Unit price must be an amount of at least 0 with up to 2 decimals'],
      [editForm(quote.contactId, [['Too taxed', '1', '5']], { tax_rate: '100.001' }), 'Tax rate must be a percentage from 0 to 100 with up to 2 decimals'],
      [editForm(quote.contactId, [['Over discounted', '1', '5']], { discount: '150' }), 'Discount must be a percentage from 0 to 100 with up to 2 decimals'],
      [editForm(quote.contactId, [['No quantity', '0', '5']]), 'Quantity must be at least 1'],
      [editForm(quote.contactId, [['', '1', '5']]), 'Description is required'],
      [editForm(quote.contactId, [['Long ago', '1', '5']], { expires_on: '2020-01-01' }), 'The expiry date cannot be in the past'],
      [editForm(quote.contactId, []), 'Add at least one line item'],
      [editForm('', [['No client', '1', '5']]), 'Choose a client'],
      [editForm(quote.contactId, Array.from({ length: 101 }, (_, i) => [`Line ${i}`, '1', '1'] as [string, string, string])), 'A quote has at most 100 line items'],
    ];
    for (const [form, message] of cases) {
      const response = await post(team.admin.visitor, path, form);
      expect(response.status, message).toBe(400);
      const html = await pageText(response);
      expect(html, message).toContain(message);
      const first = form.get('items[0].description');
      if (first) expect(inputValue(html, 'items[0].description')).toBe(first);
    }
    // Another account's client is refused by the database, the form kept.
    const foreign = await draft(other.accountId);
    const response = await post(team.admin.visitor, path, editForm(foreign.contactId, [['Kept as typed', '1', '5']]));
    expect(response.status).toBe(400);
    const html = await pageText(response);
    expect(html).toContain('Client not found');
    expect(inputValue(html, 'items[0].description')).toBe('Kept as typed');
    expect(await lines(quote.id)).toEqual([{ description: 'Starter line', qty: 1, unit_price: 1000, total: 1000 }]);
    // A list intent that is not one.
    const broken = editForm(quote.contactId, [['A', '1', '1']]);
    broken.set('__intent__', '{not json');
    expect((await post(team.admin.visitor, path, broken)).status).toBe(400);
  });
});

describe('send, revise and delete', () => {
  it('sends a draft (toast, status, one queued job), then refuses to edit it and offers Revise', async () => {
    const quote = await draft(team.accountId, 'send-to@quote-pages.test');
    const sent = await team.admin.visitor.post(`/quotes/${quote.id}`, { intent: 'send' });
    expect(sent.status).toBe(302);
    expect(sent.headers.get('Location')).toBe(`/quotes/${quote.id}`);
    const html = await pageText(await team.admin.visitor.follow(sent));
    expect(html).toContain('Quote sent to send-to@quote-pages.test');
    expect(html).toMatch(/data-status="sent"/);
    expect((await stored(quote.id)).status).toBe('sent');
    const { data: jobs } = await serviceClient().from('jobs').select('kind, payload, idempotency_key').eq('subject_id', quote.id);
    expect(jobs).toEqual([{ kind: 'quote_send', payload: { quote_id: quote.id }, idempotency_key: `quote_send:${quote.id}` }]);

    // Sending twice is refused; the edit page sends the visitor back saying why; a save is refused.
    const again = await team.admin.visitor.post(`/quotes/${quote.id}`, { intent: 'send' });
    expect(again.status).toBe(400);
    expect(await pageText(again)).toContain('Only a draft quote can be sent');
    const edit = await team.admin.visitor.get(`/quotes/${quote.id}/edit`);
    expect(edit.status).toBe(302);
    expect(edit.headers.get('Location')).toBe(`/quotes/${quote.id}`);
    expect(await pageText(await team.admin.visitor.follow(edit))).toContain('Only a draft quote can be edited. Revise it to make changes.');
    const save = await post(team.admin.visitor, `/quotes/${quote.id}/edit`, editForm(quote.contactId, [['Sneaky', '1', '1']]));
    expect(save.status).toBe(302);
    expect(await lines(quote.id)).toEqual([{ description: 'Starter line', qty: 1, unit_price: 1000, total: 1000 }]);

    // Revise: a new draft -R1, opened for editing.
    const revised = await team.admin.visitor.post(`/quotes/${quote.id}`, { intent: 'revise' });
    expect(revised.status).toBe(302);
    const location = revised.headers.get('Location')!;
    expect(location).toMatch(/^\/quotes\/[0-9a-f-]{36}\/edit$/);
    const revisionPage = await pageText(await team.admin.visitor.follow(revised));
    expect(revisionPage).toContain(`Revision ${quote.number}-R1 created`);
    expect(revisionPage).toContain(`Edit ${quote.number}-R1`);
  });

  it('deletes a draft from its ?delete dialog, and never a sent quote', async () => {
    const quote = await draft(team.accountId);
    const dialog = await pageText(await team.admin.visitor.get(`/quotes/${quote.id}?delete`));
    expect(dialog).toContain('role="dialog"');
    const deleted = await team.admin.visitor.post(`/quotes/${quote.id}?delete`, { intent: 'delete' });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get('Location')).toBe('/quotes');
    expect(await pageText(await team.admin.visitor.follow(deleted))).toContain('Quote deleted');
    expect((await serviceClient().from('quotes').select('id').eq('id', quote.id)).data).toEqual([]);

    const sent = await draft(team.accountId, 'kept@quote-pages.test', 'sent');
    expect(await pageText(await team.admin.visitor.get(`/quotes/${sent.id}?delete`))).not.toContain('role="dialog"');
    const refused = await team.admin.visitor.post(`/quotes/${sent.id}?delete`, { intent: 'delete' });
    expect(refused.status).toBe(400);
    expect(await pageText(refused)).toContain('Failed to delete quote');
    expect((await stored(sent.id)).status).toBe('sent');
  });

  it('converts a signed quote to an invoice once: a second try says so and links to it; a sent quote is not converted', async () => {
    const quote = await draft(team.accountId, 'signer@quote-pages.test', 'signed');
    const page = await pageText(await team.admin.visitor.get(`/quotes/${quote.id}`));
    expect(page).toContain('Convert to invoice');
    expect(page).not.toContain('>Revise<');
    const converted = await team.admin.visitor.post(`/quotes/${quote.id}`, { intent: 'convert' });
    expect(converted.status).toBe(302);
    const invoicePath = converted.headers.get('Location')!;
    expect(invoicePath).toMatch(/^\/invoices\/[0-9a-f-]{36}$/);
    expect(await pageText(await team.admin.visitor.follow(converted))).toContain('Invoice created successfully!');
    const { data: invoice } = await serviceClient().from('invoices').select('invoice_number, quote_id, total').eq('id', invoicePath.split('/')[2]).single();
    expect(invoice).toMatchObject({ quote_id: quote.id, total: 1000 });

    const again = await team.admin.visitor.post(`/quotes/${quote.id}`, { intent: 'convert' });
    expect(again.status).toBe(302);
    expect(again.headers.get('Location')).toBe(`/quotes/${quote.id}`);
    const said = await pageText(await team.admin.visitor.follow(again));
    expect(said).toContain(`Already converted to ${invoice!.invoice_number}`);
    expect(said).toContain(`href="${invoicePath}"`);
    expect((await serviceClient().from('invoices').select('id').eq('quote_id', quote.id)).data).toHaveLength(1);
    // The quote's page now links to its invoice instead of offering to convert it again.
    expect(await pageText(await team.admin.visitor.get(`/quotes/${quote.id}`))).not.toContain('Convert to invoice');

    const sent = await draft(team.accountId, 'not-yet@quote-pages.test', 'sent');
    const refused = await team.admin.visitor.post(`/quotes/${sent.id}`, { intent: 'convert' });
    expect(refused.status).toBe(400);
    expect(await pageText(refused)).toContain('Only a signed quote can be converted to an invoice');
  });

  it('refuses an unknown intent as an altered form', async () => {
    const quote = await draft(team.accountId);
    const response = await team.admin.visitor.post(`/quotes/${quote.id}`, { intent: 'sign' });
    expect(response.status).toBe(400);
    expect((await stored(quote.id)).status).toBe('draft');
  });
});

describe('other roles', () => {
  it('an auditor reads the quote without actions; every post and the edit page are refused', async () => {
    const quote = await draft(team.accountId);
    const html = await pageText(await team.auditor.visitor.get(`/quotes/${quote.id}`));
    expect(html).toContain('Starter line');
    expect(html).toContain('History');
    expect(html).not.toMatch(/name="intent" value="send"/);
    expect(html).not.toContain(`href="/quotes/${quote.id}/edit"`);
    for (const intentName of ['send', 'revise', 'delete']) {
      const response = await team.auditor.visitor.post(`/quotes/${quote.id}`, { intent: intentName });
      expect(response.status).toBe(403);
      expect(await pageText(response)).toContain('Your role can view these records but not change them');
    }
    const edit = await team.auditor.visitor.get(`/quotes/${quote.id}/edit`);
    expect(edit.status).toBe(302);
    expect(edit.headers.get('Location')).toBe(`/quotes/${quote.id}`);
    // The refusal re-renders the edit page, whose loader sends a read-only role to the quote's page.
    const save = await post(team.auditor.visitor, `/quotes/${quote.id}/edit`, editForm(quote.contactId, [['A', '1', '1']]));
    expect(save.status).toBe(302);
    expect(save.headers.get('Location')).toBe(`/quotes/${quote.id}`);
    expect(await pageText(await team.auditor.visitor.follow(save))).toContain('Your role can view these records but not change them');
    expect(await stored(quote.id)).toMatchObject({ status: 'draft', subtotal: 1000 });
  });

  it("a client reads a quote addressed to them in its portal (the staff's page sends it there), not another; a supplier reads none", async () => {
    const theirs = await draft(team.accountId, team.client.email, 'sent');
    const notTheirs = await draft(team.accountId, 'someone-else@quote-pages.test', 'sent');
    // The quote's page is the staff's: the client's place is the portal (decision 050).
    expect((await team.client.visitor.get(`/quotes/${theirs.id}`)).headers.get('Location')).toBe('/portal');
    expect((await team.client.visitor.get(`/quotes/${theirs.id}/pdf`)).status).toBe(200);
    expect((await team.client.visitor.get(`/quotes/${notTheirs.id}/pdf`)).status).toBe(404);
    const portal = await pageText(await team.client.visitor.get('/portal'));
    expect(portal).toContain(`href="/quotes/${theirs.id}/pdf"`);
    expect(portal).not.toContain(`href="/quotes/${notTheirs.id}/pdf"`);
    const revise = await team.client.visitor.post(`/quotes/${theirs.id}`, { intent: 'revise' });
    expect([302, 403]).toContain(revise.status);
    expect((await serviceClient().from('quotes').select('id').eq('revision_of', theirs.id)).data).toEqual([]);
    expect((await team.supplier.visitor.get(`/quotes/${theirs.id}/pdf`)).status).toBe(404);
  });
});

describe('the quotes list', () => {
  it("links each row to the quote's page, one link per row (Edit is on the quote's page)", async () => {
    const quote = await draft(team.accountId);
    const sent = await draft(team.accountId, 'listed@quote-pages.test', 'sent');
    const html = await pageText(await team.admin.visitor.get('/quotes'));
    expect(html).toContain(`href="/quotes/${quote.id}"`);
    expect(html).not.toContain(`href="/quotes/${quote.id}/edit"`);
    expect(html).toContain(`href="/quotes/${sent.id}"`);
    const rows = [...html.matchAll(/<tr class="[^"]*" data-row="[^"]+">([\s\S]*?)<\/tr>/g)].map(([, row]) => row);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) expect(row.match(/<a /g)).toHaveLength(1);
  });
});
