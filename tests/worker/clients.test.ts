import { describe, expect, it } from 'vitest';
import { accountOf, serviceClient, userClient, withoutGrant } from './support/backend';
import { pageText, signIn, signUpFreshAdmin, statValue } from './support/app';
import { DEMO_ADMIN } from '../support/accounts';

async function contactsOf(accountId: string) {
  const { data, error } = await serviceClient()
    .from('contacts')
    .select('name, email, phone, company, role, notes, is_primary, status, created_at')
    .eq('account_id', accountId)
    .order('created_at', { ascending: false });
  if (error) throw error;
  return data;
}

const VALID = {
  name: 'Dorothy Vaughan',
  email: 'dorothy@fortran.test',
  company: 'Fortran Works',
  phone: '+1 555 0177',
  role: 'Supervisor',
  notes: 'Prefers email',
};

describe('/clients figures and directory', () => {
  it("shows the summary cards from the account's real contacts", async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const rows = ['active', 'active', 'prospect', 'inactive'].map((status, i) => ({
      account_id: accountId,
      name: `Client ${i}`,
      email: `c${i}@example.test`,
      status,
      created_at: i === 3 ? '2020-01-01T00:00:00Z' : new Date().toISOString(),
    }));
    expect((await serviceClient().from('contacts').insert(rows)).error).toBeNull();
    const html = await pageText(await visitor.get('/clients'));
    const stored = await contactsOf(accountId);
    expect(statValue(html, 'Total Clients')).toBe(String(stored.length));
    expect(statValue(html, 'Active Clients')).toBe(String(stored.filter((c) => c.status === 'active').length));
    expect(statValue(html, 'Prospects')).toBe(String(stored.filter((c) => c.status === 'prospect').length));
    const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)).getTime();
    expect(statValue(html, 'New This Month')).toBe(String(stored.filter((c) => new Date(c.created_at).getTime() >= monthStart).length));
  });

  it("lists the demo account's clients and searches and filters them through the URL", async () => {
    const visitor = await signIn(DEMO_ADMIN);
    const html = await pageText(await visitor.get('/clients?q=acme'));
    expect(html).toContain('John Smith');
    expect(html).toContain('Acme Corporation · Purchasing Manager');
    expect(html).toContain('john@acme.test');
    expect(html).toContain('+1 555 0111');
    expect(html).toMatch(/data-status="active"[^>]*>Active</);
    expect(html).not.toContain('Lisa Brown');
    // The search counts its matches (search_contacts); other tests add Acme contacts to the demo account.
    expect(html).toMatch(/Showing 1–(\d+) of \1 clients/);
    const prospects = await pageText(await visitor.get('/clients?status=prospect&q=acme'));
    expect(prospects).toContain('No clients match your search.');
  });

  it('shows the empty state for a new account', async () => {
    const { visitor } = await signUpFreshAdmin();
    expect(await pageText(await visitor.get('/clients'))).toContain('No clients yet. Add your first client to get started!');
  });
});

describe('creating a client', () => {
  it('creates a primary contact and shows it at once with the success toast', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const form = await pageText(await visitor.get('/clients?new'));
    expect(form).toContain('role="dialog"');
    const response = await visitor.post('/clients?new', VALID);
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/clients');
    const [client] = await contactsOf(accountId);
    expect(client).toMatchObject({ ...VALID, is_primary: true, status: 'active' });
    const page = await pageText(await visitor.follow(response));
    expect(page).toContain('Client Dorothy Vaughan created');
    expect(page).toContain('Dorothy Vaughan');
  });

  it('defaults the company to the name when left empty', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const response = await visitor.post('/clients?new', { name: 'Solo Trader', email: 'solo@example.test', company: '' });
    expect(response.status).toBe(302);
    const [client] = await contactsOf(accountId);
    expect(client).toMatchObject({ name: 'Solo Trader', company: 'Solo Trader', phone: null, role: null, notes: null });
  });

  const invalid: [string, Record<string, string>, string][] = [
    ['name', { name: ' ' }, 'Name is required'],
    ['email', { email: 'dorothy-at-fortran' }, 'Enter a valid email address'],
    ['phone', { phone: '9'.repeat(51) }, 'Phone must be at most 50 characters'],
    ['company', { company: 'c'.repeat(201) }, 'Company must be at most 200 characters'],
    ['role', { role: 'r'.repeat(201) }, 'Role must be at most 200 characters'],
    ['notes', { notes: 'n'.repeat(2001) }, 'Notes must be at most 2000 characters'],
  ];
  for (const [field, change, message] of invalid) {
    it(`refuses an invalid ${field} with a 400 and a field error, writing nothing`, async () => {
      const { visitor, email } = await signUpFreshAdmin();
      const { accountId } = await accountOf(email);
      const response = await visitor.post('/clients?new', { ...VALID, ...change });
      expect(response.status).toBe(400);
      const html = await pageText(response);
      expect(html).toContain(message);
      // The user's input is still there (the role, unless it is the field refused).
      expect(html).toContain(change.role ? 'value="Dorothy Vaughan"' : 'value="Supervisor"');
      expect(await contactsOf(accountId)).toEqual([]);
    });
  }

  it("shows the database's message when the write fails, keeping the input and writing nothing", async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    // A real refusal by the database: the insert privilege taken away for this one request.
    const response = await withoutGrant('insert', 'public.contacts', () => visitor.post('/clients?new', VALID));
    expect(response.status).toBe(500);
    const html = await pageText(response);
    expect(html).toContain('permission denied for table contacts');
    expect(html).toContain('role="dialog"');
    expect(html).toContain('value="Supervisor"');
    expect(await contactsOf(accountId)).toEqual([]);
  });

  it("answers 'User account not found' without an account record, writing nothing", async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId, userId } = await accountOf(email);
    await serviceClient().from('users').delete().eq('id', userId);
    const response = await visitor.post('/clients?new', VALID);
    expect(response.status).toBe(403);
    expect(await pageText(response)).toContain('User account not found');
    expect(await contactsOf(accountId)).toEqual([]);
  });

  it('cannot add a client to another account: RLS refuses, and a posted account_id is ignored', async () => {
    const target = await accountOf(DEMO_ADMIN.email);
    const before = (await contactsOf(target.accountId)).length;
    const { visitor, email, password } = await signUpFreshAdmin();
    const own = await accountOf(email);
    const intruder = await userClient(email, password);
    const direct = await intruder.from('contacts').insert({ account_id: target.accountId, name: 'X', email: 'x@x.test' });
    expect(direct.error?.code).toBe('42501');
    const response = await visitor.post('/clients?new', { ...VALID, account_id: target.accountId });
    expect(response.status).toBe(302);
    expect((await contactsOf(target.accountId)).length).toBe(before);
    expect(await contactsOf(own.accountId)).toHaveLength(1);
  });
});
