// Audit rows appear for each audited action, with who did it and the right
// old/new values, and nobody (admin or service role) can alter or delete them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  addMember, anonClient, invitationTokenFor, invoke, PASSWORD, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend,
} from './support/backend.ts';
import { uniqueEmail } from '../support/accounts.ts';

interface AuditRow {
  id: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown> | null;
  user_id: string | null;
}

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'auditing-admin');
});
afterAll(async () => backend?.stop());

/** The newest log row of an action, read by the admin through the API. */
async function latest(action: string, resourceId?: string): Promise<AuditRow> {
  let query = admin.client.from('audit_logs').select('id, action, resource_type, resource_id, old_values, new_values, user_id').eq('action', action);
  if (resourceId) query = query.eq('resource_id', resourceId);
  const { data, error } = await query.order('created_at', { ascending: false }).limit(1);
  expect(error).toBeNull();
  expect(data, `an audit row for ${action}`).toHaveLength(1);
  return data![0] as AuditRow;
}

describe('audit trail', () => {
  it('quote_created, quote_updated and quote_sent, with only the changed values', async () => {
    const { data: quote } = await admin.client
      .rpc('create_quote', {
        p_contact_name: 'Cora', p_contact_email: 'cora@c.test', p_company: 'Cora Co', p_description: 'Setup',
        p_unit_price: 30000, p_quantity: 1, p_currency: 'USD', p_expires_in_days: 14, p_notes: null,
      })
      .single<{ id: string; quote_number: string }>();
    const created = await latest('quote_created', quote!.id);
    expect(created).toMatchObject({ resource_type: 'quote', user_id: admin.userId, old_values: null });
    expect(created.new_values).toMatchObject({ total: 30000, status: 'draft', quote_number: quote!.quote_number });

    await admin.client.from('quotes').update({ notes: 'Sent by mail' }).eq('id', quote!.id);
    const updated = await latest('quote_updated', quote!.id);
    expect(updated.old_values).toEqual({ notes: null });
    expect(updated.new_values).toEqual({ notes: 'Sent by mail' });
    expect(updated.user_id).toBe(admin.userId);
    // A status moves by change_quote_status, and is logged as what happened (quote_sent).
    expect((await admin.client.rpc('change_quote_status', { p_quote_id: quote!.id, p_status: 'sent' })).error).toBeNull();
    const sent = await latest('quote_sent', quote!.id);
    // Leaving draft stamps when it was sent (the conversion rate counts it from then).
    expect(sent.old_values).toEqual({ status: 'draft', sent_at: null });
    expect(sent.new_values).toEqual({ status: 'sent', sent_at: expect.any(String) });

    // contact_created came with the quote's contact.
    const { data: q } = await admin.client.from('quotes').select('contact_id').eq('id', quote!.id).single();
    expect((await latest('contact_created', q!.contact_id)).new_values).toMatchObject({ name: 'Cora', is_primary: true });
  });

  it('lead_created and contact_created', async () => {
    const { data: lead } = await admin.client.from('leads')
      .insert({ account_id: admin.accountId, name: 'Leo', email: 'leo@l.test', company: 'Leo Ltd', source: 'referral', interest: ['cpq'] })
      .select('id').single();
    expect((await latest('lead_created', lead!.id)).new_values).toMatchObject({ name: 'Leo', status: 'new', interest: ['cpq'] });
    const { data: contact } = await admin.client.from('contacts')
      .insert({ account_id: admin.accountId, name: 'Cleo', email: 'cleo@c.test', company: 'Cleo Co', is_primary: true })
      .select('id').single();
    expect((await latest('contact_created', contact!.id)).new_values).toMatchObject({ name: 'Cleo', company: 'Cleo Co' });
  });

  it('user_invited (without the token), invitation_accepted, user_role_updated, user_deactivated, user_activated', async () => {
    const email = uniqueEmail('audited');
    expect((await invoke(admin.client, 'invite-user', { email, role: 'client' })).status).toBe(201);
    const invited = await latest('user_invited');
    expect(invited.new_values).toMatchObject({ email, role: 'client' });
    expect(invited.new_values).not.toHaveProperty('token');
    expect(invited.user_id).toBe(admin.userId);

    const token = await invitationTokenFor(backend, email);
    expect((await invoke(anonClient(backend), 'accept-invitation', { token, password: PASSWORD, first_name: 'Ada' })).status).toBe(201);
    const { data: member } = await service.from('users').select('id').eq('email', email).single();
    const accepted = await latest('invitation_accepted', invited.resource_id!);
    expect(accepted.user_id).toBe(member!.id);
    expect(accepted.new_values).toMatchObject({ email, role: 'client', user_id: member!.id });

    expect((await invoke(admin.client, 'manage-user-role', { user_id: member!.id, new_role: 'supplier' })).status).toBe(200);
    const role = await latest('user_role_updated', member!.id);
    expect(role.old_values).toEqual({ role: 'client', email });
    expect(role.new_values).toEqual({ role: 'supplier', email });

    await admin.client.from('users').update({ is_active: false }).eq('id', member!.id);
    expect((await latest('user_deactivated', member!.id)).new_values).toEqual({ is_active: false, email });
    await admin.client.from('users').update({ is_active: true }).eq('id', member!.id);
    const activated = await latest('user_activated', member!.id);
    expect(activated.old_values).toEqual({ is_active: false, email });
    expect(activated.user_id).toBe(admin.userId);
  });

  it('module_status_changed', async () => {
    const { data: module } = await admin.client.from('modules').select('id').eq('key', 'logistics').single();
    const { data: sub } = await admin.client.from('account_modules')
      .insert({ account_id: admin.accountId, module_id: module!.id, status: 'active' }).select('id, monthly_price_applied').single();
    expect(sub!.monthly_price_applied).toBe(29900);
    expect((await latest('module_status_changed', sub!.id)).new_values).toEqual({ module: 'logistics', status: 'active' });
    await admin.client.from('account_modules').update({ status: 'paused' }).eq('account_id', admin.accountId).eq('module_id', module!.id);
    const paused = await latest('module_status_changed', sub!.id);
    expect(paused.old_values).toEqual({ module: 'logistics', status: 'active' });
    expect(paused.new_values).toEqual({ module: 'logistics', status: 'paused' });
  });

  it('template_created, template_updated, template_deleted', async () => {
    const { data: t } = await admin.client.from('templates')
      .insert({ account_id: admin.accountId, name: 'Hello', type: 'email', subject: 'Hi', content: 'Body', variables: { name: 'Name' } })
      .select('id').single();
    expect((await latest('template_created', t!.id)).new_values).toMatchObject({ name: 'Hello', subject: 'Hi', created_by: admin.userId });
    await admin.client.from('templates').update({ content: 'New body' }).eq('id', t!.id);
    const updated = await latest('template_updated', t!.id);
    expect(updated.old_values).toEqual({ content: 'Body' });
    expect(updated.new_values).toEqual({ content: 'New body' });
    await admin.client.from('templates').delete().eq('id', t!.id);
    const deleted = await latest('template_deleted', t!.id);
    expect(deleted.old_values).toMatchObject({ name: 'Hello', content: 'New body' });
    expect(deleted.new_values).toBeNull();
  });

  it('integration_created, integration_updated, integration_deleted, without credentials', async () => {
    const { data: i } = await admin.client.from('integrations')
      .insert({ account_id: admin.accountId, name: 'Stripe', type: 'payment', config: { api_key: 'sk_live_secret', webhook_secret: 'whsec', currency: 'USD' } })
      .select('id').single();
    const created = await latest('integration_created', i!.id);
    // The secrets never reach the readable config: the log sees blanks and which are set.
    expect(created.new_values?.config).toEqual({ api_key: '', webhook_secret: '', currency: 'USD' });
    expect(created.new_values?.secrets_set).toEqual({ api_key: true, webhook_secret: true });
    expect(JSON.stringify(created)).not.toContain('sk_live_secret');
    await admin.client.from('integrations').update({ is_active: false }).eq('id', i!.id);
    const updated = await latest('integration_updated', i!.id);
    expect(updated.old_values).toEqual({ is_active: true });
    expect(updated.new_values).toEqual({ is_active: false });
    await admin.client.from('integrations').delete().eq('id', i!.id);
    expect((await latest('integration_deleted', i!.id)).old_values).toMatchObject({ name: 'Stripe', type: 'payment' });
  });

  it('account_settings_updated, and website_settings_updated for the master account', async () => {
    const { data: before } = await admin.client.from('accounts').select('name').eq('id', admin.accountId).single();
    await admin.client.from('accounts').update({ name: 'Audited Co', timezone: 'Europe/Paris' }).eq('id', admin.accountId);
    const account = await latest('account_settings_updated', admin.accountId);
    expect(account.old_values).toEqual({ name: before!.name, timezone: 'UTC' });
    expect(account.new_values).toEqual({ name: 'Audited Co', timezone: 'Europe/Paris' });

    await service.from('accounts').update({ created_at: '2000-01-01T00:00:00Z' }).eq('id', admin.accountId);
    await admin.client.from('accounts').update({ description: 'Hub for everyone' }).eq('id', admin.accountId);
    const website = await latest('website_settings_updated', admin.accountId);
    expect(website.old_values).toEqual({ description: null });
    expect(website.new_values).toEqual({ description: 'Hub for everyone' });
  });

  it('nobody can alter or delete audit rows: not the admin, not the service role', async () => {
    const { data: rows } = await service.from('audit_logs').select('*').eq('account_id', admin.accountId).order('id');
    expect(rows!.length).toBeGreaterThan(10);
    const target = rows![0].id;
    const adminUpdate = await admin.client.from('audit_logs').update({ action: 'forged' }).eq('id', target).select();
    expect(adminUpdate.error !== null || adminUpdate.data.length === 0).toBe(true);
    const adminDelete = await admin.client.from('audit_logs').delete().eq('id', target).select();
    expect(adminDelete.error !== null || adminDelete.data.length === 0).toBe(true);
    const adminInsert = await admin.client.from('audit_logs').insert({ account_id: admin.accountId, action: 'forged', resource_type: 'x' }).select();
    expect(adminInsert.error).not.toBeNull();
    expect((await service.from('audit_logs').update({ action: 'forged' }).eq('id', target).select()).error).not.toBeNull();
    expect((await service.from('audit_logs').delete().eq('id', target).select()).error).not.toBeNull();
    expect((await service.from('audit_logs').insert({ account_id: admin.accountId, action: 'forged', resource_type: 'x' }).select()).error).not.toBeNull();
    const { data: after } = await service.from('audit_logs').select('*').eq('account_id', admin.accountId).order('id');
    expect(after).toEqual(rows);
  });

  it('an auditor reads it as the admin does; a member or a client sees none of it', async () => {
    const auditor = await addMember(backend, admin, 'auditor');
    const member = await addMember(backend, admin, 'member');
    const client = await addMember(backend, admin, 'client');
    const ids = async (who: typeof admin) => ((await who.client.from('audit_logs').select('id').order('id')).data ?? []).map((r) => r.id);
    const all = await ids(admin);
    expect(all.length).toBeGreaterThan(0);
    expect(await ids(auditor)).toEqual(all);
    expect(await ids(member)).toEqual([]);
    expect(await ids(client)).toEqual([]);
  });
});
