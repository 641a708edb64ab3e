// What an audit row says about who asked, and how much it copies. The IP and
// user agent come only from the header the app's Worker signs; whatever else
// a caller sends is stored as null. Snapshots are capped.
import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { PASSWORD, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'audit-truth');
});
afterAll(async () => backend?.stop());

/** The header the Worker sends (app/lib/audit-client.server.ts), signed with the given key and time. */
function signedClient(client: { ip: string | null; ua: string | null }, secret: string, seconds = Math.floor(Date.now() / 1000)): string {
  const signed = `${seconds}.${Buffer.from(JSON.stringify(client)).toString('base64')}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('hex')}`;
}

/** The admin, signed in on a client that sends these headers with every call. */
async function adminSending(headers: Record<string, string>): Promise<SupabaseClient> {
  const client = createClient(backend.url, backend.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers },
  });
  const { error } = await client.auth.signInWithPassword({ email: admin.email, password: PASSWORD });
  if (error) throw error;
  return client;
}

/** Creates a lead through the given client; returns its lead_created audit row. */
async function leadAudit(client: SupabaseClient, notes: string | null = null) {
  const { data: lead, error } = await client.from('leads')
    .insert({ account_id: admin.accountId, name: 'Lee', email: 'lee@l.test', company: 'Lee Co', notes }).select('id').single();
  if (error) throw error;
  const { data } = await admin.client.from('audit_logs')
    .select('ip_address, user_agent, new_values').eq('resource_id', (lead as { id: string }).id).single();
  return data as { ip_address: string | null; user_agent: string | null; new_values: Record<string, unknown> };
}

describe('audit IP and user agent', () => {
  it("ignores the caller's own x-forwarded-for, x-real-ip and user-agent", async () => {
    const forger = await adminSending({
      'x-forwarded-for': '=HYPERLINK("http://evil.test","click")', 'x-real-ip': '6.6.6.6', 'user-agent': 'Forged/1.0',
    });
    expect(await leadAudit(forger)).toMatchObject({ ip_address: null, user_agent: null });
  });

  it('stores the IP and user agent of a header signed with the key the database holds', async () => {
    const header = signedClient({ ip: '203.0.113.7', ua: 'Mozilla/5.0 (Signed)' }, backend.auditSigningSecret);
    expect(await leadAudit(await adminSending({ 'x-opshub-client': header }))).toMatchObject({
      ip_address: '203.0.113.7', user_agent: 'Mozilla/5.0 (Signed)',
    });
  });

  it('stores the signed client on every audit row of a bulk insert (verified once, used for all)', async () => {
    const header = signedClient({ ip: '203.0.113.8', ua: 'Bulk/1.0' }, backend.auditSigningSecret);
    const client = await adminSending({ 'x-opshub-client': header });
    const rows = Array.from({ length: 5 }, (_, i) => ({ account_id: admin.accountId, name: `Bulk ${i}`, email: `bulk${i}@l.test`, company: 'Bulk Co' }));
    const { data: leads, error } = await client.from('leads').insert(rows).select('id');
    expect(error).toBeNull();
    const { data } = await admin.client.from('audit_logs').select('ip_address, user_agent').in('resource_id', (leads ?? []).map((l) => l.id));
    expect(data).toHaveLength(5);
    for (const row of data ?? []) expect(row).toEqual({ ip_address: '203.0.113.8', user_agent: 'Bulk/1.0' });
    // The next request, unsigned, is not taken for the previous one's client.
    expect(await leadAudit(await adminSending({}))).toMatchObject({ ip_address: null, user_agent: null });
  });

  it('ignores a header signed with another key, altered after signing, or older than five minutes', async () => {
    const client = { ip: '203.0.113.8', ua: 'Mozilla/5.0 (Forged)' };
    const wrongKey = signedClient(client, 'a-key-the-database-does-not-hold-0123456789');
    const good = signedClient(client, backend.auditSigningSecret);
    const [seconds, , signature] = good.split('.');
    const altered = `${seconds}.${Buffer.from(JSON.stringify({ ip: '6.6.6.6', ua: 'x' })).toString('base64')}.${signature}`;
    const stale = signedClient(client, backend.auditSigningSecret, Math.floor(Date.now() / 1000) - 600);
    for (const header of [wrongKey, altered, stale, 'garbage', `${seconds}..`]) {
      expect(await leadAudit(await adminSending({ 'x-opshub-client': header })), header).toMatchObject({ ip_address: null, user_agent: null });
    }
  });

  it('truncates signed values to 64 (IP) and 512 (user agent) characters', async () => {
    const header = signedClient({ ip: '1'.repeat(100), ua: 'U'.repeat(2000) }, backend.auditSigningSecret);
    const row = await leadAudit(await adminSending({ 'x-opshub-client': header }));
    expect(row.ip_address).toHaveLength(64);
    expect(row.user_agent).toHaveLength(512);
  });
});

describe('audit snapshots', () => {
  it('a 1 MB note makes a small audit row: its length and hash instead of the text', async () => {
    // Just under the local backend's 1 MiB request body limit.
    const note = 'n'.repeat(1_000_000);
    const row = await leadAudit(admin.client, note);
    expect(JSON.stringify(row).length).toBeLessThan(2000);
    expect(row.new_values.notes).toEqual({ truncated: true, length: note.length, sha256: createHash('sha256').update(note).digest('hex') });
    expect(row.new_values).toMatchObject({ name: 'Lee', company: 'Lee Co' });
  });

  it('a record of many large values is capped as a whole', async () => {
    const cap = async (keys: number) => {
      const { rows } = await backend.db.query<{ capped: Record<string, unknown> }>(
        `select private.cap_audit_snapshot((select jsonb_object_agg('k' || n, repeat('v', 900)) from generate_series(1, $1::int) n)) as capped`,
        [keys],
      );
      return rows[0].capped;
    };
    const hundred = await cap(100);
    expect(JSON.stringify(hundred).length).toBeLessThanOrEqual(16384);
    expect(hundred.k1).toMatchObject({ truncated: true, length: 902 });
    const thousands = await cap(5000);
    expect(thousands).toMatchObject({ truncated: true });
    expect(JSON.stringify(thousands).length).toBeLessThan(200);
  });
});
