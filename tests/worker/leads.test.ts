import { describe, expect, it } from 'vitest';
import { accountOf, serviceClient, userClient, withoutGrant } from './support/backend';
import { pageText, signIn, signUpFreshAdmin, statValue } from './support/app';
import { DEMO_ADMIN } from '../support/accounts';

async function leadsOf(accountId: string) {
  const { data, error } = await serviceClient()
    .from('leads')
    .select('name, email, company, phone_whatsapp, role, source, notes, interest, status, created_at')
    .eq('account_id', accountId)
    .order('created_at', { ascending: false });
  if (error) throw error;
  return data;
}

function leadForm(fields: Record<string, string>, interests: string[] = []): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const interest of interests) form.append('interest', interest);
  return form;
}

const VALID = {
  name: 'Katherine Johnson',
  email: 'katherine@orbit.test',
  company: 'Orbit Mechanics',
  phone_whatsapp: '+1 555 0199',
  role: 'Mathematician',
  source: 'email',
  notes: 'Met at the launch',
};

describe('/leads figures and list', () => {
  it('shows the four summary cards from the account\'s real leads', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const day = 86_400_000;
    const rows = [
      { status: 'new', age: 1 },
      { status: 'qualified', age: 2 },
      { status: 'qualified', age: 10 },
      { status: 'lost', age: 30 },
    ].map((r, i) => ({
      account_id: accountId,
      name: `Lead ${i}`,
      email: `lead${i}@example.test`,
      company: `Company ${i}`,
      status: r.status,
      created_at: new Date(Date.now() - r.age * day).toISOString(),
    }));
    expect((await serviceClient().from('leads').insert(rows)).error).toBeNull();

    const html = await pageText(await visitor.get('/leads'));
    const stored = await leadsOf(accountId);
    const weekAgo = Date.now() - 7 * day;
    const qualified = stored.filter((l) => l.status === 'qualified').length;
    expect(statValue(html, 'Total Leads')).toBe(String(stored.length));
    expect(statValue(html, 'New This Week')).toBe(String(stored.filter((l) => new Date(l.created_at).getTime() >= weekAgo).length));
    expect(statValue(html, 'Qualified')).toBe(String(qualified));
    expect(statValue(html, 'Conversion Rate')).toBe(`${Math.round((100 * qualified) / stored.length)}%`);
  });

  it("lists the demo account's sample leads in the record table: name, company, email, status and date (phone and interests are on the lead's page)", async () => {
    const html = await pageText(await (await signIn(DEMO_ADMIN)).get('/leads?q=sarah'));
    expect(html).toMatch(/href="\/leads\/[0-9a-f-]{36}"[^>]*>Sarah Johnson<\/a>/);
    expect(html).toContain('>TechCorp Solutions</td>');
    expect(html).toContain('>sarah@techcorp.test</td>');
    expect(html).toMatch(/data-status="new"[^>]*>New</);
    expect(html).toContain(">Created<");
    expect(html).not.toContain('Michael Chen');
  });

  it('filters by status and pages through the URL, with an empty state', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const empty = await pageText(await visitor.get('/leads'));
    expect(empty).toContain('No leads yet. Add your first lead to get started!');

    const rows = Array.from({ length: 22 }, (_, i) => ({
      account_id: accountId,
      name: `Person ${String(i).padStart(2, '0')}`,
      email: `p${i}@example.test`,
      company: 'Bulk Co',
      status: i % 2 === 0 ? 'contacted' : 'new',
      created_at: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
    }));
    await serviceClient().from('leads').insert(rows);
    const first = await pageText(await visitor.get('/leads'));
    expect(first).toContain('Showing 1–20 of 22 leads');
    expect(first).toContain('Person 21');
    expect(first).not.toContain('Person 01<');
    const second = await pageText(await visitor.get('/leads?page=2'));
    expect(second).toContain('Person 01');
    expect(second).toContain('Person 00');
    const contacted = await pageText(await visitor.get('/leads?status=contacted'));
    expect(contacted).toContain('Showing 1–11 of 11 leads');
    expect(contacted).not.toContain('Person 21');
    // A search counts its matches (search_leads), with the status filter too.
    const searched = await pageText(await visitor.get('/leads?q=PERSON+1'));
    expect(searched).toContain('Showing 1–10 of 10 leads');
    expect(searched).toContain('Person 19');
    expect(searched).not.toContain('Person 01<');
    const both = await pageText(await visitor.get('/leads?q=person+1&status=contacted'));
    expect(both).toContain('Showing 1–5 of 5 leads');
    expect(both).not.toContain('Person 19');
  });
});

describe('creating a lead', () => {
  it("offers the spec's fields and sources, 'Email Campaign' included, without JavaScript", async () => {
    const { visitor } = await signUpFreshAdmin();
    const html = await pageText(await visitor.get('/leads?new'));
    expect(html).toContain('role="dialog"');
    for (const label of ['Full name', 'Email', 'Company', 'Phone/WhatsApp', 'Job role', 'Source', 'Notes']) {
      expect(html).toContain(`>${label}</label>`);
    }
    expect(html).toContain('<option value="email">Email Campaign</option>');
  });

  it('creates a new lead with its interests and shows it at once with the success toast', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const response = await visitor.post('/leads?new', leadForm(VALID, ['cpq', 'rfp']));
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/leads');
    const [lead] = await leadsOf(accountId);
    expect(lead).toMatchObject({ ...VALID, interest: ['cpq', 'rfp'], status: 'new' });

    const page = await pageText(await visitor.follow(response));
    expect(page).toContain('Lead Katherine Johnson created');
    expect(page).toContain('Katherine Johnson');
    expect(page).toContain('RFP Radar');
  });

  it('stores empty optional fields as null and defaults the source to website', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const response = await visitor.post('/leads?new', { name: 'Min Imal', email: 'min@example.test', company: 'Small', phone_whatsapp: '' });
    expect(response.status).toBe(302);
    const [lead] = await leadsOf(accountId);
    expect(lead).toMatchObject({ phone_whatsapp: null, role: null, notes: null, source: 'website', interest: [] });
  });

  const invalid: [string, Record<string, string>, string][] = [
    ['full name', { name: '' }, 'Full name is required'],
    ['email', { email: 'nope' }, 'Enter a valid email address'],
    ['company', { company: '' }, 'Company is required'],
    ['source', { source: 'carrier-pigeon' }, 'Choose a source'],
    ['phone/WhatsApp', { phone_whatsapp: '9'.repeat(51) }, 'Phone/WhatsApp must be at most 50 characters'],
    ['job role', { role: 'r'.repeat(201) }, 'Job role must be at most 200 characters'],
    ['notes', { notes: 'n'.repeat(2001) }, 'Notes must be at most 2000 characters'],
  ];
  for (const [field, change, message] of invalid) {
    it(`refuses an invalid ${field} with a 400 and a field error, writing nothing`, async () => {
      const { visitor, email } = await signUpFreshAdmin();
      const { accountId } = await accountOf(email);
      const response = await visitor.post('/leads?new', { ...VALID, ...change });
      expect(response.status).toBe(400);
      const html = await pageText(response);
      expect(html).toContain(message);
      expect(html).toContain('role="dialog"');
      // The user's input is still there (the job role, unless it is the field refused).
      expect(html).toContain(change.role ? 'value="Katherine Johnson"' : 'value="Mathematician"');
      expect(await leadsOf(accountId)).toEqual([]);
    });
  }

  it('refuses an unknown interest tag', async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    const response = await visitor.post('/leads?new', leadForm(VALID, ['cpq', 'teleportation']));
    expect(response.status).toBe(400);
    expect(await leadsOf(accountId)).toEqual([]);
  });

  it("shows the database's message when the write fails, keeping the input and writing nothing", async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId } = await accountOf(email);
    // A real refusal by the database: the insert privilege taken away for this one request.
    const response = await withoutGrant('insert', 'public.leads', () => visitor.post('/leads?new', VALID));
    expect(response.status).toBe(500);
    const html = await pageText(response);
    expect(html).toContain('permission denied for table leads');
    expect(html).toContain('role="dialog"');
    expect(html).toContain('value="Mathematician"');
    expect(await leadsOf(accountId)).toEqual([]);
  });

  it("answers 'User account not found' without an account record, writing nothing", async () => {
    const { visitor, email } = await signUpFreshAdmin();
    const { accountId, userId } = await accountOf(email);
    await serviceClient().from('users').delete().eq('id', userId);
    const response = await visitor.post('/leads?new', VALID);
    expect(response.status).toBe(403);
    expect(await pageText(response)).toContain('User account not found');
    expect(await leadsOf(accountId)).toEqual([]);
  });

  it("cannot add a lead to another account: RLS refuses, and a posted account_id is ignored", async () => {
    const target = await accountOf(DEMO_ADMIN.email);
    const before = (await leadsOf(target.accountId)).length;
    const { visitor, email, password } = await signUpFreshAdmin();
    const own = await accountOf(email);
    const intruder = await userClient(email, password);
    const direct = await intruder.from('leads').insert({ account_id: target.accountId, name: 'X', email: 'x@x.test', company: 'X' });
    expect(direct.error?.code).toBe('42501');
    const response = await visitor.post('/leads?new', { ...VALID, account_id: target.accountId });
    expect(response.status).toBe(302);
    expect((await leadsOf(target.accountId)).length).toBe(before);
    expect(await leadsOf(own.accountId)).toHaveLength(1);
  });
});
