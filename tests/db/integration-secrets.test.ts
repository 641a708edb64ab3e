// Integration secrets are write-only: whoever may write an integration sets
// them, nobody signed in reads them back (admins included: they learn only
// which are set), and server code with the service role reads them whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend,
} from './support/backend.ts';

const SECRETS = {
  api_key: 'sk_live_LEAK_api',
  webhook_secret: 'whsec_LEAK_hook',
  smtp: { host: 'smtp.test', pass: 'LEAK_smtp_pass' },
  private_key: '-----BEGIN LEAK PRIVATE KEY-----',
  signingKey: 'LEAK_signing',
  authorization: 'Bearer LEAK_bearer',
};

let backend: TestBackend;
let admin: Member;
const others: Member[] = [];

/** Every role a user can have, read from the users table's check constraint. */
async function rolesFromCatalogue(): Promise<string[]> {
  const { rows } = await backend.db.query<{ definition: string }>(
    `select pg_get_constraintdef(c.oid) as definition from pg_constraint c
      where c.conrelid = 'public.users'::regclass and c.contype = 'c' and pg_get_constraintdef(c.oid) like '%role%'`,
  );
  return [...rows[0].definition.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]);
}

async function credentials(id: string) {
  const { data, error } = await serviceClient(backend).rpc('integration_credentials', { p_integration_id: id });
  expect(error).toBeNull();
  return data as Record<string, unknown>;
}

async function createIntegration(config: Record<string, unknown>): Promise<{ id: string; body: string }> {
  const { data, error } = await admin.client.from('integrations')
    .insert({ account_id: admin.accountId, name: 'Stripe', type: 'payment', config }).select('*').single();
  expect(error).toBeNull();
  return { id: data.id as string, body: JSON.stringify(data) };
}

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'secrets-admin');
  for (const role of await rolesFromCatalogue()) {
    if (role !== 'admin') others.push(await addMember(backend, admin, role));
  }
});
afterAll(async () => backend?.stop());

describe('write-only integration secrets', () => {
  it('no signed-in role, the admin included, reads a secret back over REST; the service role does', async () => {
    const { id, body } = await createIntegration({ ...SECRETS, currency: 'USD' });
    expect(body).not.toContain('LEAK');
    for (const reader of [admin, ...others]) {
      const { data } = await reader.client.from('integrations').select('*');
      expect(JSON.stringify(data ?? []), `what ${reader.role} reads`).not.toContain('LEAK');
    }
    const { data: mine } = await admin.client.from('integrations').select('config, secrets_set').eq('id', id).single();
    expect(mine!.config).toEqual({
      api_key: '', webhook_secret: '', smtp: { host: 'smtp.test', pass: '' }, private_key: '', signingKey: '', authorization: '', currency: 'USD',
    });
    expect(mine!.secrets_set).toEqual({
      api_key: true, webhook_secret: true, smtp: { pass: true }, private_key: true, signingKey: true, authorization: true,
    });
    expect(await credentials(id)).toEqual({ ...SECRETS, currency: 'USD' });
  });

  it('only the service role may call integration_credentials', async () => {
    const { id } = await createIntegration({ api_key: 'sk_live_LEAK_rpc' });
    const asAdmin = await admin.client.rpc('integration_credentials', { p_integration_id: id });
    expect(asAdmin.error).not.toBeNull();
    expect(JSON.stringify(asAdmin)).not.toContain('LEAK');
    const asAnon = await anonClient(backend).rpc('integration_credentials', { p_integration_id: id });
    expect(asAnon.error).not.toBeNull();
  });

  it('a blank secret keeps the stored one, a new value replaces it, a key left out forgets it', async () => {
    const { id } = await createIntegration({ api_key: 'sk_live_first', webhook_secret: 'whsec_first', currency: 'USD' });
    await admin.client.from('integrations').update({ config: { api_key: '', webhook_secret: null, currency: 'EUR' } }).eq('id', id);
    expect(await credentials(id)).toEqual({ api_key: 'sk_live_first', webhook_secret: 'whsec_first', currency: 'EUR' });
    await admin.client.from('integrations').update({ config: { api_key: 'sk_live_second', webhook_secret: '', currency: 'EUR' } }).eq('id', id);
    expect(await credentials(id)).toEqual({ api_key: 'sk_live_second', webhook_secret: 'whsec_first', currency: 'EUR' });
    await admin.client.from('integrations').update({ config: { api_key: '', currency: 'EUR' } }).eq('id', id);
    expect(await credentials(id)).toEqual({ api_key: 'sk_live_second', currency: 'EUR' });
    const { data } = await admin.client.from('integrations').select('secrets_set').eq('id', id).single();
    expect(data!.secrets_set).toEqual({ api_key: true });
  });

  it('what is set cannot be forged, and secrets inside lists are refused rather than exposed', async () => {
    const { id } = await createIntegration({ currency: 'USD' });
    const forged = await admin.client.from('integrations').update({ secrets_set: { api_key: true } }).eq('id', id).select();
    expect(forged.error).not.toBeNull();
    const listed = await admin.client.from('integrations')
      .insert({ account_id: admin.accountId, name: 'Lists', type: 'crm', config: { servers: [{ password: 'LEAK_in_list' }] } }).select();
    expect(listed.error?.message).toContain('Secrets inside lists are not supported');
  });

  it('the audit log records an integration change without any secret', async () => {
    const { id } = await createIntegration({ api_key: 'sk_live_LEAK_audit', currency: 'USD' });
    await admin.client.from('integrations').update({ config: { api_key: 'sk_live_LEAK_audit_2', currency: 'USD' } }).eq('id', id);
    const { data } = await admin.client.from('audit_logs').select('old_values, new_values').eq('resource_id', id);
    expect(data!.length).toBeGreaterThan(0);
    expect(JSON.stringify(data)).not.toContain('LEAK');
  });

  it('secrets are kept where no API role can see them', async () => {
    const { rows } = await backend.db.query<{ role: string; readable: boolean }>(
      `select r.role, has_table_privilege(r.role, 'private.integration_secrets', 'select') as readable
         from unnest(array['anon', 'authenticated', 'service_role']) r (role)`,
    );
    expect(rows.every((r) => !r.readable)).toBe(true);
  });
});
