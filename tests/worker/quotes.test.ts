import { describe, expect, it } from 'vitest';
import { accountOf, serviceClient, userClient, withoutGrant } from './support/backend';
import { pageText, signUpFreshAdmin, statValue } from './support/app';
import { DEMO_ADMIN } from '../support/accounts';

// Each test works in a fresh account (signUpFreshAdmin), arranged through the
// service role, so figures are exact and other suites' writes cannot disturb them.

async function quotesOf(accountId: string) {
  const { data, error } = await serviceClient()
    .from('quotes')
    .select('id, total, subtotal, status, currency, expires_at, notes, created_at, contact_id, quote_number, quote_items(description, qty, unit_price, total)')
    .eq('account_id', accountId);
  if (error) throw error;
  return data;
}

async function contactsOf(accountId: string) {
  const { data, error } = await serviceClient().from('contacts').select('id, name, email, company, is_primary').eq('account_id', accountId);
  if (error) throw error;
  return data;
}

const VALID = {
  contact_name: 'Grace Hopper',
  contact_email: 'grace@navy.test',
  company: 'Navy Labs',
  description: 'Compiler consulting',
  unit_price: '1250.50',
  quantity: '3',
  currency: 'EUR',
  expires_in_days: '14',
  notes: 'First engagement',
};

describe('/quotes figures and list', () => {
  it('shows the count, the sum and rounded mean per currency (never across), and signed ÷ sent from the database', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const rows = [
      { total: 10_000, currency: 'USD', status: 'draft' },
      { total: 25_050, currency: 'GBP', status: 'sent' },
      { total: 333, currency: 'USD', status: 'signed' },
      { total: 1_000, currency: 'USD', status: 'declined' },
      { total: 2_000, currency: 'USD', status: 'viewed' },
      // Expired as a draft: never sent, so not in the rate.
      { total: 500, currency: 'GBP', status: 'expired' },
    ];
    const { error } = await serviceClient()
      .from('quotes')
      .insert(rows.map((row) => ({ account_id: accountId, subtotal: row.total, ...row })));
    expect(error).toBeNull();

    const html = await pageText(await visitor.get('/quotes'));
    const stored = await quotesOf(accountId);
    const money = (cents: number, currency: string) => new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
    const of = (currency: string) => stored.filter((q) => q.currency === currency).map((q) => Number(q.total));
    const total = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const [usd, gbp] = [of('USD'), of('GBP')];
    expect(statValue(html, 'Total Quotes')).toBe(String(stored.length));
    // USD has the most quotes, so it comes first.
    expect(statValue(html, 'Quote Value')).toBe(`${money(total(usd), 'USD')} · ${money(total(gbp), 'GBP')}`);
    expect(statValue(html, 'Quote Value')).toBe('$133.33 · £255.50');
    expect(statValue(html, 'Avg Quote Value')).toBe(
      `${money(Math.round(total(usd) / usd.length), 'USD')} · ${money(Math.round(total(gbp) / gbp.length), 'GBP')}`,
    );
    // Sent: sent, viewed, signed, declined (4); signed 1: 25%.
    expect(statValue(html, 'Conversion Rate')).toBe('25%');
    expect(html).toContain('1 of 4 sent quotes signed');
  });

  it("reads '—' before any quote was sent, and 0% while none sent was signed", async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const fresh = await pageText(await visitor.get('/quotes'));
    expect(statValue(fresh, 'Conversion Rate')).toBe('—');
    expect(fresh).toContain('No quotes sent yet');
    expect(statValue(fresh, 'Quote Value')).toBe('$0.00');

    const { error } = await serviceClient().from('quotes').insert({ account_id: accountId, subtotal: 100, total: 100, status: 'sent' });
    expect(error).toBeNull();
    const sent = await pageText(await visitor.get('/quotes'));
    expect(statValue(sent, 'Conversion Rate')).toBe('0%');
    expect(sent).toContain('No conversions yet');
  });

  it('shows $0 and the empty text for an account without quotes', async () => {
    const { visitor } = await signUpFreshAdmin();
    const html = await pageText(await visitor.get('/quotes'));
    expect(statValue(html, 'Total Quotes')).toBe('0');
    expect(statValue(html, 'Avg Quote Value')).toBe('$0');
    expect(html).toContain('No quotes yet. Create your first quote to get started!');
  });

  it('lists quotes newest first with contact, total, status, dates and a link to each, a page at a time', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const service = serviceClient();
    const { data: contact } = await service
      .from('contacts')
      .insert({ account_id: accountId, name: 'Ada Byron', email: 'ada@example.test', company: 'Engines Ltd' })
      .select('id')
      .single();
    const base = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: 25 }, (_, i) => ({
      account_id: accountId,
      contact_id: i === 24 ? contact!.id : null,
      total: 100 * (i + 1),
      subtotal: 100 * (i + 1),
      status: i === 24 ? 'sent' : 'draft',
      created_at: new Date(base + i * 86_400_000).toISOString(),
      expires_at: i === 24 ? new Date(Date.UTC(2026, 5, 30)).toISOString() : null,
    }));
    expect((await service.from('quotes').insert(rows)).error).toBeNull();

    const first = await pageText(await visitor.get('/quotes'));
    const numbers = [...first.matchAll(/href="\/quotes\/[0-9a-f-]{36}"[^>]*>(Q-\d{4}-\d{4})<\/a>/g)].map((m) => m[1]);
    expect(numbers).toHaveLength(20);
    // Newest first: the quote created last (with the contact) leads.
    const stored = (await quotesOf(accountId)).sort((a, b) => b.created_at.localeCompare(a.created_at));
    expect(numbers).toEqual(stored.slice(0, 20).map((q) => q.quote_number));
    expect(first).toContain('Ada Byron - Engines Ltd');
    expect(first).toContain('No contact');
    expect(first).toContain('$25.00');
    expect(first).toContain('>Jun 30, 2026<');
    expect(first).toContain('No expiry');
    expect(first).toContain('>Sent<');
    // The row's one link opens the quote's page (its Edit is there, for a draft).
    expect(first).toMatch(new RegExp(`href="/quotes/${stored[0].id}"[^>]*>${stored[0].quote_number}</a>`));
    expect(first).not.toContain(`/edit"`);
    expect(first).toContain('Showing 1–20 of 25 quotes');
    expect(first).toContain('href="/quotes?page=2"');

    const second = await pageText(await visitor.get('/quotes?page=2'));
    const rest = [...second.matchAll(/href="\/quotes\/[0-9a-f-]{36}"[^>]*>(Q-\d{4}-\d{4})<\/a>/g)].map((m) => m[1]);
    expect(rest).toEqual(stored.slice(20).map((q) => q.quote_number));
    expect(second).toContain('href="/quotes"');
    expect(second).not.toContain('rel="next"');
  });

  it('searches by contact and filters by status through the URL', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const service = serviceClient();
    const { data: contact } = await service
      .from('contacts')
      .insert({ account_id: accountId, name: 'Linus Pauling', email: 'linus@example.test', company: 'Vitamin Co' })
      .select('id')
      .single();
    await service.from('quotes').insert([
      { account_id: accountId, contact_id: contact!.id, total: 500, subtotal: 500, status: 'viewed' },
      { account_id: accountId, total: 700, subtotal: 700, status: 'draft' },
    ]);

    const searched = await pageText(await visitor.get('/quotes?q=vitamin'));
    expect(searched).toContain('Linus Pauling - Vitamin Co');
    expect(searched).not.toContain('No contact');
    expect(searched).toContain('Showing 1–1 of 1 quotes');
    expect(searched).toContain('value="vitamin"');

    const drafts = await pageText(await visitor.get('/quotes?status=draft'));
    expect(drafts).toContain('No contact');
    expect(drafts).not.toContain('Linus Pauling');

    const none = await pageText(await visitor.get('/quotes?q=%22%29%2C*nobody%25'));
    expect(none).toContain('No quotes match your search.');
  });
});

describe('/quotes text search', () => {
  it('finds quotes by number, notes, contact name or company, with the status filter, paged and counted', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const service = serviceClient();
    const { data: contact } = await service
      .from('contacts')
      .insert({ account_id: accountId, name: 'Rosalind Franklin', email: 'rf@example.test', company: 'Helix Labs' })
      .select('id')
      .single();
    const rows = [
      ...Array.from({ length: 22 }, (_, i) => ({ contact_id: contact!.id, status: i % 2 === 0 ? 'sent' : 'draft', notes: null })),
      { contact_id: null, status: 'draft', notes: 'Crystallography 100% rush_job' },
      { contact_id: null, status: 'draft', notes: 'Unrelated' },
    ].map((row, i) => ({ ...row, account_id: accountId, total: 100, subtotal: 100, created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString() }));
    expect((await service.from('quotes').insert(rows)).error).toBeNull();
    const numbers = (await quotesOf(accountId)).sort((a, b) => a.created_at.localeCompare(b.created_at)).map((q) => q.quote_number!);

    const byCompany = await pageText(await visitor.get('/quotes?q=helix'));
    expect(byCompany).toContain('Showing 1–20 of 22 quotes');
    expect(await pageText(await visitor.get('/quotes?q=helix&page=2'))).toContain('Showing 21–22 of 22 quotes');
    expect(await pageText(await visitor.get('/quotes?q=ROSALIND'))).toContain('of 22 quotes');
    expect(await pageText(await visitor.get('/quotes?q=rosalind&status=sent'))).toContain('Showing 1–11 of 11 quotes');

    const byNotes = await pageText(await visitor.get('/quotes?q=crystal'));
    expect(byNotes).toContain(numbers[22]);
    expect(byNotes).not.toContain(numbers[23]);
    const byNumber = await pageText(await visitor.get(`/quotes?q=${numbers[23]}`));
    expect(byNumber).toContain('Showing 1–1 of 1 quotes');
    expect(byNumber).toContain('No contact');
    // LIKE's wildcards are never wildcards: 'rush%job' does not match 'rush_job'.
    expect(await pageText(await visitor.get('/quotes?q=rush%25job'))).toContain('No quotes match your search.');
  });
});

describe('creating a quote', () => {
  it('opens the dialog from the URL, without JavaScript', async () => {
    const { visitor } = await signUpFreshAdmin();
    const html = await pageText(await visitor.get('/quotes?new'));
    expect(html).toContain('role="dialog"');
    expect(html).toContain('Create New Quote');
    for (const label of ['Contact name', 'Contact email', 'Company', 'Description', 'Unit price', 'Quantity', 'Currency', 'Expires in', 'Notes']) {
      expect(html).toContain(`>${label}</label>`);
    }
    expect(html).toMatch(/<option value="30" selected="">30 days<\/option>/);
  });

  it('writes the contact, the draft quote and its one line item, then shows it with the success toast', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId, userId } = await accountOf(email);
    const before = Date.now();
    const response = await visitor.post('/quotes?new', VALID);
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/quotes');

    const [quote] = await quotesOf(accountId);
    expect(quote.status).toBe('draft');
    expect(quote.currency).toBe('EUR');
    expect(Number(quote.total)).toBe(375_150);
    expect(Number(quote.subtotal)).toBe(375_150);
    expect(quote.notes).toBe('First engagement');
    const expires = new Date(quote.expires_at!).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 14 * 86_400_000 - 5_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 14 * 86_400_000 + 5_000);
    expect(quote.quote_items).toEqual([{ description: 'Compiler consulting', qty: 3, unit_price: 125_050, total: 375_150 }]);
    const contacts = await contactsOf(accountId);
    expect(contacts).toEqual([
      { id: quote.contact_id, name: 'Grace Hopper', email: 'grace@navy.test', company: 'Navy Labs', is_primary: true },
    ]);
    const { data: creator } = await serviceClient().from('quotes').select('created_by').eq('id', quote.id).single();
    expect(creator!.created_by).toBe(userId);

    const page = await pageText(await visitor.follow(response));
    expect(page).toContain(`Quote ${quote.quote_number} created`);
    expect(page).toContain(quote.quote_number!);
    expect(page).toContain('Grace Hopper - Navy Labs');
    expect(page).toContain('€3,751.50');
    expect(page).not.toContain('role="dialog"');
  });

  const invalid: [string, Record<string, string>, string][] = [
    ['contact name', { contact_name: '' }, 'Contact name is required'],
    ['contact email', { contact_email: 'not-an-email' }, 'Enter a valid email address'],
    ['company', { company: '  ' }, 'Company is required'],
    ['description', { description: '' }, 'Description is required'],
    ['unit price', { unit_price: '-5' }, 'Unit price must be an amount of at least 0 with up to 2 decimals'],
    ['quantity', { quantity: '0' }, 'Quantity must be at least 1'],
    ['emptied quantity', { quantity: '' }, 'Quantity is required'],
    ['currency', { currency: 'XYZ' }, 'Choose a currency'],
    ['expiry', { expires_in_days: '45' }, 'Choose an expiry'],
  ];
  for (const [field, change, message] of invalid) {
    it(`refuses an invalid ${field} with a 400 and a field error, writing nothing and keeping the input`, async () => {
      const { visitor, email } = await signUpFreshAdmin();
      const { accountId } = await accountOf(email);
      const response = await visitor.post('/quotes?new', { ...VALID, ...change });
      expect(response.status).toBe(400);
      const html = await pageText(response);
      expect(html).toContain(message);
      expect(html).toContain('role="dialog"');
      if (field !== 'contact name') expect(html).toContain('value="Grace Hopper"');
      expect(await quotesOf(accountId)).toEqual([]);
      expect(await contactsOf(accountId)).toEqual([]);
    });
  }

  it("answers 'User account not found' when the user has no account record, writing nothing", async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId, userId } = await accountOf(email);
    expect((await serviceClient().from('users').delete().eq('id', userId)).error).toBeNull();
    const response = await visitor.post('/quotes?new', VALID);
    expect(response.status).toBe(403);
    expect(await pageText(response)).toContain('User account not found');
    expect(await quotesOf(accountId)).toEqual([]);
  });

  it("cannot write into another account: RLS refuses, and a posted account_id is ignored", async () => {
    const target = await accountOf(DEMO_ADMIN.email);
    const before = (await quotesOf(target.accountId)).length;
    const { visitor, email, password } = await signUpFreshAdmin();
    const own = await accountOf(email);

    const intruder = await userClient(email, password);
    const direct = await intruder.from('quotes').insert({ account_id: target.accountId, total: 1, subtotal: 1 });
    expect(direct.error?.code).toBe('42501');
    const contact = await intruder.from('contacts').insert({ account_id: target.accountId, name: 'X', email: 'x@x.test' });
    expect(contact.error?.code).toBe('42501');

    const response = await visitor.post('/quotes?new', { ...VALID, account_id: target.accountId });
    expect(response.status).toBe(302);
    expect((await quotesOf(target.accountId)).length).toBe(before);
    expect(await quotesOf(own.accountId)).toHaveLength(1);
  });

  it("through the dialog: a line item the database refuses leaves nothing written and shows its message", async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    // The third of create_quote's inserts (security invoker) refused for real.
    const response = await withoutGrant('insert', 'public.quote_items', () => visitor.post('/quotes?new', VALID));
    expect(response.status).toBe(500);
    const html = await pageText(response);
    expect(html).toContain('permission denied for table quote_items');
    expect(html).toContain('value="Grace Hopper"');
    expect(await quotesOf(accountId)).toEqual([]);
    expect(await contactsOf(accountId)).toEqual([]);
  });

  it('rolls the contact and the quote back when the line item fails', async () => {
    const { email, password } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const client = await userClient(email, password);
    const { error } = await client.rpc('create_quote', {
      p_contact_name: 'Rollback Test',
      p_contact_email: 'rollback@example.test',
      p_company: 'Nowhere',
      p_description: 'x'.repeat(2001), // over quote_items' limit: the last of the three inserts fails
      p_unit_price: 100,
      p_quantity: 1,
    });
    expect(error?.code).toBe('23514');
    expect(await quotesOf(accountId)).toEqual([]);
    expect(await contactsOf(accountId)).toEqual([]);

    // The quote number counter was rolled back too: the next quote is the first.
    const ok = await client.rpc('create_quote', {
      p_contact_name: 'Rollback Test',
      p_contact_email: 'rollback@example.test',
      p_company: 'Nowhere',
      p_description: 'fine',
      p_unit_price: 100,
      p_quantity: 1,
    });
    expect(ok.error).toBeNull();
    expect((ok.data as { quote_number: string }).quote_number).toMatch(/^Q-\d{4}-0001$/);
  });
});
