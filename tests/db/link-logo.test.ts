// Which logo a public link may show (decision 051): quote_link_logo and
// invoice_link_logo answer the logo path of the seller the link's document
// carries (its snapshot once sent), to anyone holding the token and only for
// it; a path outside the document's own account's folder is never answered;
// a token that opens nothing answers null.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { anonClient, quoteArgs, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let service: SupabaseClient;
let seller: Member;
let other: Member;

async function withLogo(member: Member, extension: 'png' | 'jpg') {
  await backend.db.query('update public.accounts set logo_path = $2 where id = $1', [member.accountId, `${member.accountId}/logo.${extension}`]);
}

async function quoteToken(member: Member): Promise<string> {
  const { data, error } = await member.client.rpc('create_quote', quoteArgs(1000, 1)).single<{ id: string }>();
  if (error) throw error;
  expect((await member.client.rpc('send_quote', { p_quote_id: data.id })).error).toBeNull();
  const { data: token } = await service.rpc('issue_quote_link', { p_quote_id: data.id });
  return token as string;
}

async function invoiceToken(member: Member): Promise<{ id: string; token: string }> {
  const { data, error } = await member.client.rpc('create_invoice', {
    p_client_name: 'Ivy', p_client_email: 'ivy@logo.test', p_description: 'Work', p_unit_price: 1000, p_quantity: 1,
    p_currency: 'USD', p_due_date: '2030-01-01',
  }).single<{ id: string }>();
  if (error) throw error;
  expect((await member.client.rpc('send_invoice', { p_invoice_id: data.id })).error).toBeNull();
  const token = randomBytes(32).toString('base64url');
  await backend.db.query('update public.invoices set link_token_hash = $2 where id = $1', [data.id, createHash('sha256').update(token).digest()]);
  return { id: data.id, token };
}

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  seller = await signUpFreshAdmin(backend, 'logo-seller');
  other = await signUpFreshAdmin(backend, 'logo-other');
  await withLogo(seller, 'png');
  await withLogo(other, 'jpg');
}, 120_000);
afterAll(async () => backend?.stop());

describe('the logo a link may show', () => {
  it("answers the sent document's seller's logo to anyone with the token (anon, another account), the snapshot's after the account changes", async () => {
    const quote = await quoteToken(seller);
    const { token: invoice } = await invoiceToken(seller);
    await withLogo(seller, 'jpg');
    for (const [who, client] of [['anon', anonClient(backend)], ['another account', other.client], ['the seller', seller.client]] as const) {
      expect((await client.rpc('quote_link_logo', { p_token: quote })).data, who).toEqual({ logo_path: `${seller.accountId}/logo.png` });
      expect((await client.rpc('invoice_link_logo', { p_token: invoice })).data, who).toEqual({ logo_path: `${seller.accountId}/logo.png` });
    }
    await withLogo(seller, 'png');
  });

  it('answers null for a token that opens nothing, and no logo when the seller had none', async () => {
    const anon = anonClient(backend);
    expect((await anon.rpc('quote_link_logo', { p_token: randomBytes(32).toString('base64url') })).data).toBeNull();
    expect((await anon.rpc('invoice_link_logo', { p_token: randomBytes(32).toString('base64url') })).data).toBeNull();
    const bare = await signUpFreshAdmin(backend, 'logo-bare');
    expect((await anon.rpc('quote_link_logo', { p_token: await quoteToken(bare) })).data).toEqual({ logo_path: null });
  });

  it("never answers a path in another account's folder, even when a document's snapshot names one", async () => {
    const quote = await quoteToken(seller);
    const invoice = await invoiceToken(seller);
    // Tampered with behind every trigger (which keeps a snapshot as it was taken).
    await backend.db.exec(`begin; set local session_replication_role = replica;
      update public.quotes set seller = jsonb_set(seller, '{logo_path}', to_jsonb('${other.accountId}/logo.jpg'::text)) where link_token_hash = private.quote_link_token_hash('${quote}');
      update public.invoices set seller = jsonb_set(seller, '{logo_path}', to_jsonb('${other.accountId}/logo.jpg'::text)) where id = '${invoice.id}';
      commit;`);
    const anon = anonClient(backend);
    expect((await anon.rpc('quote_link_logo', { p_token: quote })).data).toEqual({ logo_path: null });
    expect((await anon.rpc('invoice_link_logo', { p_token: invoice.token })).data).toEqual({ logo_path: null });
  });
});
