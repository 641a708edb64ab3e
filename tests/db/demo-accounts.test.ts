// The seeded demo accounts work end to end through the local backend: the
// README's credentials sign in with the real GoTrue, each sees its own data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, signInAs, startBackend, type TestBackend } from './support/backend.ts';
import { DEMO_ADMIN, DEMO_AUDITOR, DEMO_CLIENT, DEMO_MEMBER, DEMO_NORTHWIND_ADMIN } from '../support/accounts.ts';

let backend: TestBackend;

beforeAll(async () => {
  backend = await startBackend();
});
afterAll(async () => backend?.stop());

describe('demo data through the API', () => {
  it('the landing page shows OpsHub Pro', async () => {
    const { data } = await anonClient(backend).rpc('get_public_site_info').maybeSingle();
    expect(data).toEqual({ name: 'OpsHub Pro', contact_email: 'hello@opshub.test', description: 'Operations & Automation Hub — Pro Edition' });
  });

  it('demo@opshub.test / demo1234 signs in as the master admin and sees the sample screens', async () => {
    const dana = await signInAs(backend, DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect(dana.role).toBe('admin');
    const { data: leads } = await dana.client.from('leads').select('status').order('created_at', { ascending: false });
    expect(leads).toHaveLength(5);
    const { data: quotes } = await dana.client.from('quotes').select('quote_number, contacts(name, company)').order('created_at', { ascending: false });
    expect(quotes).toHaveLength(3);
    expect(quotes![0].contacts).toEqual({ name: 'John Smith', company: 'Acme Corporation' });
    const { data: modules } = await dana.client.from('account_modules').select('status, module:modules(key)').eq('status', 'active');
    expect(modules?.map((m) => (m.module as unknown as { key: string }).key).sort()).toEqual(['cpq', 'logistics']);
    const { data: logs } = await dana.client.from('audit_logs').select('action, users(email)').order('created_at', { ascending: false }).limit(100);
    expect(logs!.length).toBeGreaterThan(10);
    const { data: invitations } = await dana.client.from('user_invitations').select('email, role').is('accepted_at', null);
    expect(invitations).toEqual([{ email: 'new.hire@opshub.test', role: 'supplier' }]);
    // The master admin's website settings save.
    const saved = await dana.client.from('accounts').update({ description: 'Operations & Automation Hub — Pro Edition' }).eq('id', dana.accountId).select('name');
    expect(saved.data).toEqual([{ name: 'OpsHub Pro' }]);
  });

  it('auditor@opshub.test / demo1234 signs in as an auditor who reads the audit log and the quotes, and writes nothing', async () => {
    const avery = await signInAs(backend, DEMO_AUDITOR.email, DEMO_AUDITOR.password);
    expect(avery.role).toBe('auditor');
    expect((await avery.client.from('audit_logs').select('id')).data!.length).toBeGreaterThan(10);
    expect((await avery.client.from('quotes').select('id')).data).toHaveLength(3);
    expect((await avery.client.from('leads').insert({ account_id: avery.accountId, name: 'A', email: 'a@x.test', company: 'A' })).error).not.toBeNull();
  });

  it('member@opshub.test / demo1234 signs in as staff: business records, no settings', async () => {
    const morgan = await signInAs(backend, DEMO_MEMBER.email, DEMO_MEMBER.password);
    expect(morgan.role).toBe('member');
    expect((await morgan.client.from('leads').select('id')).data).toHaveLength(5);
    expect((await morgan.client.from('integrations').select('id')).data).toEqual([]);
    expect((await morgan.client.from('audit_logs').select('id')).data).toEqual([]);
  });

  it("john@acme.test / demo1234 signs in as a client who sees only the Acme quote sent to him, not its draft", async () => {
    const john = await signInAs(backend, DEMO_CLIENT.email, DEMO_CLIENT.password);
    expect(john.role).toBe('client');
    const { data: quotes } = await john.client.from('quote_list').select('contact_name, notes').order('created_at');
    // 'Helpdesk seats' is a draft addressed to him, never sent: not his to see (issue 30).
    expect(quotes).toEqual([{ contact_name: 'John Smith', notes: 'Annual CPQ licence' }]);
    expect((await john.client.from('quote_items').select('description')).data).toEqual([{ description: 'Annual CPQ licence' }]);
    expect((await john.client.from('leads').select('id')).data).toEqual([]);
  });

  it('admin@northwind.test / demo1234 sees Northwind Traders only', async () => {
    const nora = await signInAs(backend, DEMO_NORTHWIND_ADMIN.email, DEMO_NORTHWIND_ADMIN.password);
    const { data: accounts } = await nora.client.from('accounts').select('name, subscription_status');
    expect(accounts).toEqual([{ name: 'Northwind Traders', subscription_status: 'trial' }]);
    expect((await nora.client.from('leads').select('id')).data).toHaveLength(1);
    const website = await nora.client.from('accounts').update({ description: 'Northwind rules' }).eq('id', nora.accountId).select();
    expect(website.error?.message).toBe('Only the master account admin can update website settings');
  });
});
