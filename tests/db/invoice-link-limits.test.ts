// The public invoice link's limits at the database (decision 043): a direct
// REST call to public_invoice or invoice_link_document is counted, per caller
// and per token, in one-minute windows. The caller is the client IP the
// Worker signs; headers a caller sends unsigned (X-Forwarded-For,
// CF-Connecting-IP) name no budget of their own. One client over its limit
// does not lock out another, and nobody stays locked past the window.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let admin: Member;

/** The header the Worker sends (app/lib/audit-client.server.ts). */
function signedClient(ip: string, secret: string): string {
  const signed = `${Math.floor(Date.now() / 1000)}.${Buffer.from(JSON.stringify({ ip, ua: 'Browser/1.0' })).toString('base64')}`;
  return `${signed}.${createHmac('sha256', secret).update(signed).digest('hex')}`;
}

/** An anonymous caller sending these headers with every call. */
const anonSending = (headers: Record<string, string> = {}): SupabaseClient =>
  createClient(backend.url, backend.anonKey, { auth: { persistSession: false, autoRefreshToken: false }, global: { headers } });

/** A sent invoice and the token of its public link. */
async function sentInvoiceLink(): Promise<string> {
  const { data, error } = await admin.client.rpc('create_invoice', {
    p_client_name: 'Ivy', p_client_email: 'ivy@limits.test', p_description: 'Work', p_unit_price: 1000, p_quantity: 1,
    p_currency: 'USD', p_due_date: '2030-01-01',
  }).single<{ id: string }>();
  if (error) throw error;
  await admin.client.rpc('send_invoice', { p_invoice_id: data.id });
  const token = randomBytes(32).toString('base64url');
  await backend.db.query(`update public.invoices set link_token_hash = $2 where id = $1`, [data.id, createHash('sha256').update(token).digest()]);
  return token;
}

/** Opens the link n times; the answers' kinds in order. */
async function open(client: SupabaseClient, token: string, n: number, fn = 'public_invoice'): Promise<string[]> {
  const answers: string[] = [];
  for (let i = 0; i < n; i++) {
    const { data, error } = await client.rpc(fn, { p_token: token });
    if (error) throw error;
    answers.push(data === null ? 'none' : 'rate_limited' in data ? 'limited' : 'invoice');
  }
  return answers;
}

/** The windows are whole minutes: start a burst early in one, so it does not straddle two. */
async function startOfAWindow(): Promise<void> {
  const second = new Date().getUTCSeconds();
  if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
}

/** Moves every count back a minute: the windows they were in are over. */
const windowsPass = () =>
  backend.db.exec(`update private.rate_limit_counters set window_start = window_start - interval '1 minute', window_end = window_end - interval '1 minute'`);

beforeAll(async () => {
  backend = await startBackend();
  admin = await signUpFreshAdmin(backend, 'invoice-limits');
});
afterAll(async () => backend?.stop());

describe('the public invoice link at the database', () => {
  it('limits one client to 60 uses of a link a minute; another client and the next minute are unaffected', async () => {
    const token = await sentInvoiceLink();
    await startOfAWindow();
    const first = anonSending({ 'x-opshub-client': signedClient('198.51.100.1', backend.auditSigningSecret) });
    const answers = await open(first, token, 61);
    expect(answers.slice(0, 60).every((a) => a === 'invoice')).toBe(true);
    expect(answers[60]).toBe('limited');
    // The PDF's read is the same budget.
    expect(await open(first, token, 1, 'invoice_link_document')).toEqual(['limited']);
    // The client the link was forwarded from is not locked out by whoever hammers it.
    const second = anonSending({ 'x-opshub-client': signedClient('198.51.100.2', backend.auditSigningSecret) });
    expect(await open(second, token, 1)).toEqual(['invoice']);
    await windowsPass();
    expect(await open(first, token, 1)).toEqual(['invoice']);
  });

  it('counts unsigned callers together, whatever IP headers they send', async () => {
    const token = await sentInvoiceLink();
    await windowsPass();
    await startOfAWindow();
    const answers = await open(anonSending({ 'x-forwarded-for': '203.0.113.1', 'cf-connecting-ip': '203.0.113.1' }), token, 61);
    expect(answers[60]).toBe('limited');
    for (const ip of ['203.0.113.2', '203.0.113.3']) {
      const spoofed = anonSending({ 'x-forwarded-for': ip, 'x-real-ip': ip, 'cf-connecting-ip': ip, 'x-opshub-client': 'forged.e30=.00' });
      expect(await open(spoofed, token, 1), ip).toEqual(['limited']);
    }
    // The Worker's clients have budgets of their own.
    const signed = anonSending({ 'x-opshub-client': signedClient('198.51.100.3', backend.auditSigningSecret) });
    expect(await open(signed, token, 1)).toEqual(['invoice']);
  });

  it('limits a caller over every link (guessing tokens), and a widely shared link over every caller', async () => {
    await windowsPass();
    await startOfAWindow();
    const guesser = anonSending({ 'x-opshub-client': signedClient('198.51.100.4', backend.auditSigningSecret) });
    const guesses = [];
    for (let i = 0; i < 121; i++) guesses.push(...(await open(guesser, randomBytes(32).toString('base64url'), 1)));
    expect(guesses.slice(0, 120).every((a) => a === 'none')).toBe(true);
    expect(guesses[120]).toBe('limited');

    const token = await sentInvoiceLink();
    const hash = createHash('sha256').update(token).digest('hex');
    // 600 uses of the link this minute, from many clients.
    await backend.db.query(
      `insert into private.rate_limit_counters (key, window_start, window_end, hits)
       values ($1, to_timestamp(floor(extract(epoch from now()) / 60) * 60), to_timestamp(floor(extract(epoch from now()) / 60) * 60 + 60), 600)`,
      [`invoice_link:token:${hash}`]);
    const fresh = anonSending({ 'x-opshub-client': signedClient('198.51.100.5', backend.auditSigningSecret) });
    expect(await open(fresh, token, 1)).toEqual(['limited']);
    await windowsPass();
    expect(await open(fresh, token, 1)).toEqual(['invoice']);
  });

  it('keeps its counts where no API role reaches them', async () => {
    for (const client of [anonSending(), admin.client]) {
      expect((await client.rpc('hit_rate_limit', { p_key: 'x', p_limit: 1, p_window: '1 minute' })).error).not.toBeNull();
      expect((await client.schema('private' as never).from('rate_limit_counters').select('*')).data ?? []).toEqual([]);
    }
  });
});
