// The settings screens' RPCs (migration 20261122300001): the website save is
// the master account admin's alone, and the audit log search is admins' and
// auditors' only (a member is refused),
// scoped to their account, capped at 100 per read and literal (no LIKE
// wildcards), paged by offset and naming each record (20261125400001).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, serviceClient, signInAs, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';
import { DEMO_ADMIN } from '../support/accounts.ts';

let backend: TestBackend;
let service: SupabaseClient;
let master: Member;
let other: Member;
let auditor: Member;
let member: Member;

const website = (overrides: Record<string, string> = {}) => ({
  p_company_name: 'OpsHub Pro',
  p_contact_email: 'hello@opshub.test',
  p_description: 'Saved through the RPC',
  p_timezone: 'Europe/Paris',
  p_default_currency: 'EUR',
  ...overrides,
});

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  master = await signInAs(backend, DEMO_ADMIN.email, DEMO_ADMIN.password);
  other = await signUpFreshAdmin(backend, 'rpc-admin');
  auditor = await addMember(backend, other, 'auditor');
  member = await addMember(backend, other, 'member');
});
afterAll(async () => backend?.stop());

describe('update_website_settings', () => {
  it("saves the master account's name, email, description, timezone and currency, and stamps updated_at", async () => {
    const { data: before } = await service.from('accounts').select('updated_at').eq('id', master.accountId).single();
    const { data, error } = await master.client.rpc('update_website_settings', website({ p_contact_email: 'Hello@OpsHub.test' }));
    expect(error).toBeNull();
    expect(data).toMatchObject({ name: 'OpsHub Pro', billing_email: 'hello@opshub.test', description: 'Saved through the RPC', timezone: 'Europe/Paris', default_currency: 'EUR' });
    expect(new Date(data.updated_at).getTime()).toBeGreaterThan(new Date(before!.updated_at).getTime());
    const site = (await service.rpc('get_public_site_info').maybeSingle()).data;
    expect(site).toMatchObject({ description: 'Saved through the RPC' });
  });

  it('stores an empty description as null (the landing page then shows the tagline)', async () => {
    const { data } = await master.client.rpc('update_website_settings', website({ p_description: '  ' }));
    expect(data.description).toBeNull();
  });

  it("refuses another account's admin with the spec's save text, and a non-admin with the admin text", async () => {
    const { data: before } = await service.from('accounts').select('*').eq('id', other.accountId).single();
    const byOther = await other.client.rpc('update_website_settings', website());
    expect(byOther.error?.message).toBe('Only the master account admin can update website settings');
    const byAuditor = await auditor.client.rpc('update_website_settings', website());
    expect(byAuditor.error?.message).toBe('Only administrators can manage website settings');
    expect((await service.from('accounts').select('*').eq('id', other.accountId).single()).data).toEqual(before);
  });

  it('refuses invalid values', async () => {
    expect((await master.client.rpc('update_website_settings', website({ p_company_name: ' ' }))).error?.message).toBe('Company name is required');
    expect((await master.client.rpc('update_website_settings', website({ p_contact_email: 'nope' }))).error?.message).toBe(
      'Contact email must be a valid email address',
    );
    expect((await master.client.rpc('update_website_settings', website({ p_timezone: 'Mars/Base' }))).error?.message).toBe('Unsupported timezone');
    expect((await master.client.rpc('update_website_settings', website({ p_default_currency: 'XXX' }))).error).not.toBeNull();
  });

  it('is not callable anonymously', async () => {
    const { error } = await anonClient(backend).rpc('update_website_settings', website());
    expect(error).not.toBeNull();
  });
});

describe('list_audit_logs and audit_log_actions', () => {
  it("give an admin their own account's entries with the acting user, and refuse everyone else", async () => {
    await other.client.from('templates').insert({ account_id: other.accountId, name: 'Audited template', type: 'email', content: 'x' });
    const { data, error } = await other.client.rpc('list_audit_logs', {});
    expect(error).toBeNull();
    const template = data.find((row: { action: string }) => row.action === 'template_created');
    expect(template).toMatchObject({ resource_type: 'template', user_email: other.email, user_first_name: 'rpc-admin', user_last_name: 'Tester' });
    expect(data.every((row: { action: string }) => row.action !== 'quote_created')).toBe(true); // the demo account's

    const actions = await other.client.rpc('audit_log_actions');
    expect(actions.error).toBeNull();
    expect(JSON.stringify(actions.data)).toContain('template_created');

    // An auditor reads the same log; a member is refused it.
    const audited = await auditor.client.rpc('list_audit_logs', {});
    expect(audited.error).toBeNull();
    expect(audited.data.map((row: { id: string }) => row.id)).toEqual(data.map((row: { id: string }) => row.id));
    expect((await auditor.client.rpc('audit_log_actions')).data).toEqual(actions.data);
    expect((await member.client.rpc('list_audit_logs', {})).error?.message).toBe('Only administrators can view audit logs');
    expect((await member.client.rpc('audit_log_actions')).error?.message).toBe('Only administrators can view audit logs');
  });

  it("lists every action of the account's log once, in order, whatever else the log holds", async () => {
    // Entries of many actions, with another account's between them: the list
    // is found by skipping through an index, and must miss none of them.
    // Written as the database's owner: no API role may insert into the log.
    const write = async (accountId: string, action: string) =>
      backend.db.query(`insert into public.audit_logs (account_id, action, resource_type) values ($1, $2, 'lead')`, [accountId, action]);
    for (const action of ['a_first', 'lead_b', 'lead_b', 'm_middle', 'z_last', 'zz_1']) await write(other.accountId, action);
    for (const action of ['lead_c', 'n_other', 'zzz_other']) await write(master.accountId, action);

    const { rows } = await backend.db.query<{ action: string }>(`select action from public.audit_logs where account_id = $1`, [other.accountId]);
    const expected = [...new Set(rows.map((row) => row.action))].sort();
    expect(expected).toEqual(expect.arrayContaining(['a_first', 'lead_b', 'm_middle', 'z_last', 'zz_1']));
    const listed = ((await other.client.rpc('audit_log_actions')).data as ({ action: string } | string)[]).map((row) => (typeof row === 'string' ? row : row.action));
    // Each once (in the database's collation, which JavaScript's sort need not share).
    expect([...listed].sort()).toEqual(expected);
    expect(listed).not.toContain('n_other');
  });

  it('searches action (with spaces for underscores), resource type and user name literally; filters by action; caps at 100', async () => {
    const search = async (p_search: string | null, p_action: string | null = null, p_limit = 100) =>
      ((await other.client.rpc('list_audit_logs', { p_search, p_action, p_limit })).data as { action: string }[]).map((r) => r.action);
    expect(await search('template created')).toEqual(['template_created']);
    expect(await search('TEMPLATE')).toEqual(['template_created']);
    expect(await search('rpc-admin tester')).toContain('template_created');
    expect(await search('%')).toEqual([]);
    expect(await search(null, 'user_invited')).toEqual(['user_invited', 'user_invited']); // the auditor and the member

    const rows = Array.from({ length: 120 }, (_, i) => ({ account_id: other.accountId, name: `Bulk ${i}`, type: 'quote', content: 'x' }));
    expect((await service.from('templates').insert(rows)).error).toBeNull();
    expect(await search(null)).toHaveLength(100);
    expect(await search(null, null, 1000)).toHaveLength(100);
    expect(await search(null, null, 5)).toHaveLength(5);
  });

  it('pages beyond the latest 100 by offset, and names each record: the current one, else from its snapshot', async () => {
    const page = async (p_offset: number, p_limit = 100) =>
      (await other.client.rpc('list_audit_logs', { p_limit, p_offset })).data as { id: string; record_name: string | null; resource_type: string; action: string }[];
    const first = await page(0);
    const second = await page(100);
    expect(first).toHaveLength(100);
    expect(second.length).toBeGreaterThan(0);
    // No entry on two pages: the pages continue one another.
    expect(second.filter((row) => first.some((seen) => seen.id === row.id))).toEqual([]);
    expect((await page(1, 2))[0]!.id).toBe(first[1]!.id);

    // A lead is named by its current record; a deleted template by its snapshot.
    const lead = await other.client
      .from('leads')
      .insert({ account_id: other.accountId, name: 'Sarah Johnson', email: 'sarah@example.test', company: 'Acme' });
    expect(lead.error).toBeNull();
    const { data: gone } = await other.client
      .from('templates')
      .insert({ account_id: other.accountId, name: 'Soon gone', type: 'email', content: 'x' })
      .select('id')
      .single();
    expect((await other.client.from('templates').delete().eq('id', gone!.id)).error).toBeNull();
    const latest = await page(0, 3);
    const about = (type: string) => latest.filter((row) => row.resource_type === type).map((row) => [row.action, row.record_name]);
    expect(about('lead')).toEqual([['lead_created', 'Sarah Johnson']]);
    expect(about('template')).toEqual([
      ['template_deleted', 'Soon gone'],
      ['template_created', 'Soon gone'],
    ]);
  });
});
