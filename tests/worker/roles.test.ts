// The role matrix in the app (docs/decisions/012-role-matrix.md): the four
// settings screens that had no role check show a member 'Access Restricted'
// and refuse their posts; an auditor reads the business screens without their
// buttons and is refused a create; clients and suppliers get the portal
// (decision 050), holding only what was sent to them.
import { describe, expect, it } from 'vitest';
import { serviceClient } from './support/backend';
import { pageText } from './support/app';
import { freshTeam, joinAs, toastIn } from './support/settings';
import { uniqueEmail } from '../support/accounts';

const NEW_QUOTE = {
  contact_name: 'Casey Client',
  company: 'Client Co',
  description: 'Consulting',
  unit_price: '100',
  quantity: '2',
  currency: 'USD',
  expires_in_days: '14',
};

const SETTINGS_SCREENS: { path: string; message: string; post: Record<string, string> }[] = [
  { path: '/settings/templates', message: 'Only administrators can manage templates', post: { intent: 'save', name: 'Mine', type: 'quote', content: 'x' } },
  { path: '/settings/integrations', message: 'Only administrators can manage integrations', post: { intent: 'save', name: 'Mine', type: 'crm', config: '{}' } },
  { path: '/settings/modules', message: 'Only administrators can manage modules and billing', post: { intent: 'toggle', module_id: '', status: 'active' } },
  { path: '/settings/account', message: 'Only administrators can manage account settings', post: { intent: 'save', name: 'Taken over', default_currency: 'USD', timezone: 'UTC' } },
];

async function accountState(accountId: string) {
  const service = serviceClient();
  const [templates, integrations, modules, account] = await Promise.all([
    service.from('templates').select('id').eq('account_id', accountId),
    service.from('integrations').select('id').eq('account_id', accountId),
    service.from('account_modules').select('module_id, status').eq('account_id', accountId),
    service.from('accounts').select('name').eq('id', accountId).single(),
  ]);
  return { templates: templates.data, integrations: integrations.data, modules: modules.data, account: account.data };
}

describe('a member (the company staff)', () => {
  it("sees 'Access Restricted' on the settings screens that had no role check, and is refused their posts", async () => {
    const team = await freshTeam();
    const member = await joinAs(team.accountId, 'member');
    const { data: module } = await serviceClient().from('modules').select('id').eq('key', 'cpq').single();
    const before = await accountState(team.accountId);
    for (const screen of SETTINGS_SCREENS) {
      const html = await pageText(await member.visitor.get(screen.path));
      expect(html, screen.path).toContain('Access Restricted');
      expect(html, screen.path).toContain(screen.message);
      const fields = screen.path === '/settings/modules' ? { ...screen.post, module_id: module!.id } : screen.post;
      const response = await member.visitor.post(screen.path, fields);
      expect(response.status, screen.path).toBe(403);
      expect(toastIn(await pageText(response)), screen.path).toContain(screen.message);
    }
    expect(await accountState(team.accountId)).toEqual(before);
  });

  it('works on the business screens, with no Settings in the sidebar', async () => {
    const team = await freshTeam();
    const member = await joinAs(team.accountId, 'member');
    const html = await pageText(await member.visitor.get('/leads'));
    expect(html).toContain('New Lead');
    expect(html).not.toContain('href="/settings/templates"');
    const created = await member.visitor.post('/quotes?new', { ...NEW_QUOTE, contact_email: 'someone@client.test' });
    expect(created.status).toBe(302);
  });
});

describe('an auditor', () => {
  it('reads the business screens without their create buttons, and is refused a create', async () => {
    const team = await freshTeam();
    for (const [path, button] of [['/leads', 'New Lead'], ['/clients', 'New Client'], ['/quotes', 'New Quote'], ['/dashboard', 'Create New Quote']]) {
      const response = await team.auditor.visitor.get(path);
      expect(response.status, path).toBe(200);
      expect(await pageText(response), path).not.toContain(button);
    }
    const lead = await team.auditor.visitor.post('/leads?new', { name: 'Audit', email: 'a@x.test', company: 'A', source: 'website' });
    expect(lead.status).toBe(403);
    expect(toastIn(await pageText(lead))).toContain('Your role can view these records but not change them');
    const { count } = await serviceClient().from('leads').select('id', { count: 'exact', head: true }).eq('account_id', team.accountId);
    expect(count).toBe(0);
  });

  it('sees Settings in the sidebar, read-only', async () => {
    const team = await freshTeam();
    const html = await pageText(await team.auditor.visitor.get('/settings/templates'));
    expect(html).toContain('href="/settings/templates"');
    expect(html).not.toContain('Access Restricted');
    expect(html).not.toContain('New Template');
  });
});

describe('a client (outside the company)', () => {
  it('sees its portal only: the quotes sent to it, never a draft addressed to it, nothing else of the account', async () => {
    const team = await freshTeam();
    await team.admin.visitor.post('/quotes?new', { ...NEW_QUOTE, contact_email: team.client.email, notes: 'Addressed to the client' });
    await team.admin.visitor.post('/quotes?new', { ...NEW_QUOTE, contact_name: 'Other Person', contact_email: uniqueEmail('other'), notes: 'Someone else' });
    const { data: quotes } = await serviceClient().from('quote_list').select('id, quote_number, contact_name').eq('account_id', team.accountId);
    expect(quotes).toHaveLength(2);
    const sent = quotes!.find((q) => q.contact_name === 'Casey Client')!;
    const theirs = quotes!.find((q) => q.contact_name === 'Other Person')!.quote_number;
    const { error } = await serviceClient().rpc('change_quote_status', { p_quote_id: sent.id!, p_status: 'sent' });
    expect(error).toBeNull();
    // A draft for the same client, never sent, with its own price: not the client's to see (issue 30).
    const { data: contact } = await serviceClient().from('quotes').select('contact_id').eq('id', sent.id!).single();
    const draft = await serviceClient().from('quotes')
      .insert({ account_id: team.accountId, contact_id: contact!.contact_id, currency: 'USD', notes: 'Unsent draft' })
      .select('id, quote_number').single();
    expect(draft.error).toBeNull();
    await serviceClient().from('quote_items').insert({ quote_id: draft.data!.id, description: 'Secret pricing', qty: 1, unit_price: 987_654, total: 987_654 });

    const html = await pageText(await team.client.visitor.get('/portal'));
    expect(html).toContain('Your quotes');
    expect(html).toContain(sent.quote_number);
    expect(html).not.toContain(theirs);
    expect(html).not.toContain(draft.data!.quote_number);
    expect(html).not.toContain('9,876.54');
    // The staff's pages are not the client's: back to the portal.
    expect((await team.client.visitor.get(`/quotes/${draft.data!.id}`)).headers.get('Location')).toBe('/portal');
    expect((await team.client.visitor.get(`/quotes/${draft.data!.id}/pdf`)).status).toBe(404);
    for (const hidden of ['href="/dashboard"', 'href="/leads"', 'href="/clients"', 'href="/settings/modules"', 'Total Quotes', 'New Quote', 'Quote Value']) {
      expect(html, hidden).not.toContain(hidden);
    }
  });

  it('is sent to its portal from every other screen, and refused a quote of its own', async () => {
    const team = await freshTeam();
    for (const path of ['/dashboard', '/leads', '/quotes', '/invoices', '/clients', '/analytics', '/settings/templates', '/settings/integrations', '/settings/users']) {
      const response = await team.client.visitor.get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('Location'), path).toBe('/portal');
    }
    // Its post never reaches the staff's action: it is sent home first.
    const created = await team.client.visitor.post('/quotes?new', { ...NEW_QUOTE, contact_email: team.client.email });
    expect(created.status).toBe(302);
    expect(created.headers.get('Location')).toBe('/portal');
    const { count } = await serviceClient().from('quotes').select('id', { count: 'exact', head: true }).eq('account_id', team.accountId);
    expect(count).toBe(0);
  });
});

describe('a supplier (outside the company)', () => {
  it("is told 'No quotes have been sent to you yet', though the account has quotes", async () => {
    const team = await freshTeam();
    await team.admin.visitor.post('/quotes?new', { ...NEW_QUOTE, contact_email: 'someone@client.test' });
    const html = await pageText(await team.supplier.visitor.get('/portal'));
    expect(html).toContain('Your quotes');
    expect(html).toContain('No quotes have been sent to you yet');
    expect(html).not.toContain('Casey Client');
  });
});
