// The client portal (issue 31, decision 050): a client reads only what was
// sent to it (no draft, nothing of another client or account; a supplier
// nothing), and signs or declines from the portal through a short link that
// only it can use, through the same accept_quote / decline_quote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, quoteArgs, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;
let client: Member;
let otherClient: Member;
let supplier: Member;
let member: Member;
let auditor: Member;
let strangerAdmin: Member;
let strangerClient: Member;

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function quoteFor(owner: Member, email: string, send: boolean): Promise<string> {
  const { data, error } = await owner.client.rpc('create_quote', quoteArgs(1000, 2, 'USD', { p_contact_email: email })).single<{ id: string }>();
  if (error) throw error;
  if (send) {
    const sent = await owner.client.rpc('send_quote', { p_quote_id: data!.id });
    if (sent.error) throw sent.error;
  }
  return data!.id;
}

async function invoiceFor(owner: Member, email: string, send: boolean, paid = 0): Promise<string> {
  const { data, error } = await owner.client
    .rpc('create_invoice', {
      p_client_name: 'Portal Client', p_client_email: email, p_description: 'Consulting',
      p_unit_price: 12_500, p_quantity: 2, p_currency: 'USD', p_due_date: inDays(30), p_notes: null,
    })
    .single<{ id: string }>();
  if (error) throw error;
  if (send) {
    const sent = await owner.client.rpc('send_invoice', { p_invoice_id: data!.id });
    if (sent.error) throw sent.error;
  }
  if (paid) {
    const payment = await owner.client.rpc('record_payment', { p_invoice_id: data!.id, p_amount: paid, p_paid_on: today() });
    if (payment.error) throw payment.error;
  }
  return data!.id;
}

const ids = async (who: Member, table: string) =>
  ((await who.client.from(table).select('id')).data ?? []).map((row: { id: string }) => row.id).sort();

const portalLink = (who: SupabaseClient, quoteId: string) => who.rpc('portal_quote_link', { p_quote_id: quoteId });

let sentQuote: string;
let draftQuote: string;
let otherClientsQuote: string;
let sentInvoice: string;
let draftInvoice: string;
let otherClientsInvoice: string;
let strangerQuote: string;
let strangerInvoice: string;

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'portal');
  client = await addMember(backend, admin, 'client');
  otherClient = await addMember(backend, admin, 'client', 'other-client');
  supplier = await addMember(backend, admin, 'supplier');
  member = await addMember(backend, admin, 'member');
  auditor = await addMember(backend, admin, 'auditor');
  strangerAdmin = await signUpFreshAdmin(backend, 'portal-stranger');
  strangerClient = await addMember(backend, strangerAdmin, 'client', 'stranger-client');

  sentQuote = await quoteFor(admin, client.email, true);
  draftQuote = await quoteFor(admin, client.email, false);
  otherClientsQuote = await quoteFor(admin, otherClient.email, true);
  sentInvoice = await invoiceFor(admin, client.email, true, 5_000);
  draftInvoice = await invoiceFor(admin, client.email, false);
  otherClientsInvoice = await invoiceFor(admin, otherClient.email, true, 1_000);
  // Account B addresses the same email as A's client: still nothing of B is A's client's.
  strangerQuote = await quoteFor(strangerAdmin, client.email, true);
  strangerInvoice = await invoiceFor(strangerAdmin, client.email, true, 2_000);
  await quoteFor(strangerAdmin, strangerClient.email, true);
});
afterAll(async () => backend?.stop());

describe('what the portal reads', () => {
  it('gives a client its sent quotes, invoices and their payments: no draft, nothing of another client or account', async () => {
    expect(await ids(client, 'quotes')).toEqual([sentQuote]);
    expect(await ids(client, 'invoices')).toEqual([sentInvoice]);
    const payments = (await client.client.from('payments').select('invoice_id, amount')).data ?? [];
    expect(payments).toEqual([{ invoice_id: sentInvoice, amount: 5_000 }]);
    for (const hidden of [draftQuote, otherClientsQuote, strangerQuote]) {
      expect((await client.client.rpc('quote_document', { p_quote_id: hidden })).data, hidden).toBeNull();
    }
    for (const hidden of [draftInvoice, otherClientsInvoice, strangerInvoice]) {
      expect((await client.client.rpc('invoice_document', { p_invoice_id: hidden })).data, hidden).toBeNull();
    }
    expect((await client.client.rpc('quote_document', { p_quote_id: sentQuote })).data).not.toBeNull();
    expect((await client.client.rpc('invoice_document', { p_invoice_id: sentInvoice })).data).not.toBeNull();
  });

  it('gives another client of the account only its own, a supplier and another account\'s client nothing of A', async () => {
    expect(await ids(otherClient, 'quotes')).toEqual([otherClientsQuote]);
    expect(await ids(otherClient, 'invoices')).toEqual([otherClientsInvoice]);
    for (const table of ['quotes', 'invoices', 'payments', 'quote_items', 'invoice_items']) {
      expect(await ids(supplier, table), `supplier ${table}`).toEqual([]);
    }
    const strangers = await ids(strangerClient, 'quotes');
    expect(strangers).toHaveLength(1);
    expect(strangers).not.toContain(sentQuote);
    expect(await ids(strangerClient, 'invoices')).toEqual([]);
    expect(await ids(strangerClient, 'payments')).toEqual([]);
  });

  it("names the caller's own seller and nobody else's; anon is not let in", async () => {
    const { data: account } = await service.from('accounts').select('name').eq('id', admin.accountId).single();
    expect((await client.client.rpc('portal_brand')).data).toMatchObject({ name: account!.name });
    const { data: other } = await service.from('accounts').select('name').eq('id', strangerAdmin.accountId).single();
    expect((await strangerClient.client.rpc('portal_brand')).data).toMatchObject({ name: other!.name });
    expect((await anonClient(backend).rpc('portal_brand')).error).not.toBeNull();
  });
});

describe('signing from the portal', () => {
  it('issues a link only for an open quote sent to the caller', async () => {
    expect((await portalLink(client.client, sentQuote)).data).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const [who, quote] of [
      [client, draftQuote], [client, otherClientsQuote], [client, strangerQuote], [otherClient, sentQuote],
      [supplier, sentQuote], [strangerClient, sentQuote], [admin, sentQuote], [member, sentQuote], [auditor, sentQuote],
      [strangerAdmin, sentQuote],
    ] as const) {
      const answer = await portalLink(who.client, quote);
      expect(answer.error?.code, `${who.email} → ${quote}`).toBe('P0002');
    }
    expect((await portalLink(anonClient(backend), sentQuote)).error).not.toBeNull();
  });

  it('opens and signs through accept_quote for its own caller only, the mailed link kept alive', async () => {
    const quote = await quoteFor(admin, client.email, true);
    const { data: mailed } = await service.rpc('issue_quote_link', { p_quote_id: quote });
    const token = (await portalLink(client.client, quote)).data as string;
    // Nobody else can use the client's portal link: not anon, not another client, not staff.
    for (const other of [anonClient(backend), otherClient.client, admin.client, member.client, supplier.client, strangerClient.client]) {
      expect((await other.rpc('open_quote_link', { p_token: token })).data).toMatchObject({ state: 'not_found' });
      expect((await other.rpc('accept_quote', { p_token: token, p_name: 'Mallory' })).data).toMatchObject({ state: 'not_found' });
    }
    expect((await client.client.rpc('open_quote_link', { p_token: token })).data).toMatchObject({ state: 'open' });
    // The link in the client's mail still works.
    expect((await anonClient(backend).rpc('open_quote_link', { p_token: mailed })).data).toMatchObject({ state: 'open' });

    const signed = await client.client.rpc('accept_quote', { p_token: token, p_name: 'Portal Signer', p_email: client.email });
    expect(signed.error).toBeNull();
    expect(signed.data).toMatchObject({ state: 'signed', signed_now: true });
    const { data: row } = await service.from('quotes').select('status, signer_name, content_hash, signed_document').eq('id', quote).single();
    expect(row).toMatchObject({ status: 'signed', signer_name: 'Portal Signer' });
    expect(row!.content_hash).toMatch(/^[0-9a-f]{64}$/);
    const { data: jobs } = await service.from('jobs').select('kind').eq('subject_id', quote);
    // The same job as a signature through the mailed link: it mails the admins and the signer's copy.
    expect((jobs ?? []).map((job: { kind: string }) => job.kind)).toContain('quote_accepted');
    const { data: audit } = await service.from('audit_logs').select('action, actor_kind, new_values').eq('resource_id', quote);
    const opened = audit!.find((entry) => entry.action === 'quote_opened_in_portal');
    expect(opened).toMatchObject({ actor_kind: 'client' });
    expect(audit!.find((entry) => entry.action === 'quote_signed')).toMatchObject({ actor_kind: 'client' });
    expect(JSON.stringify(audit)).not.toContain(token);
    // Signed: no new link to sign again.
    expect((await portalLink(client.client, quote)).error?.code).toBe('22023');
  });

  it('declines through decline_quote with the reason', async () => {
    const quote = await quoteFor(admin, client.email, true);
    const token = (await portalLink(client.client, quote)).data as string;
    const declined = await client.client.rpc('decline_quote', { p_token: token, p_reason: 'Too dear' });
    expect(declined.data).toMatchObject({ state: 'declined', declined_now: true });
    const { data: row } = await service.from('quotes').select('status, decline_reason').eq('id', quote).single();
    expect(row).toEqual({ status: 'declined', decline_reason: 'Too dear' });
  });

  it('ends a link after its hour, a newer one replaces it, and it dies when the caller is no longer the client', async () => {
    const quote = await quoteFor(admin, client.email, true);
    const first = (await portalLink(client.client, quote)).data as string;
    const second = (await portalLink(client.client, quote)).data as string;
    expect((await client.client.rpc('open_quote_link', { p_token: first })).data).toMatchObject({ state: 'not_found' });
    expect((await client.client.rpc('open_quote_link', { p_token: second })).data).toMatchObject({ state: 'open' });
    await backend.db.query(`update private.quote_portal_links set expires_at = now() - interval '1 second' where quote_id = $1`, [quote]);
    expect((await client.client.rpc('open_quote_link', { p_token: second })).data).toMatchObject({ state: 'not_found' });

    const third = (await portalLink(client.client, quote)).data as string;
    await backend.db.query(`update public.contacts set email = 'moved@elsewhere.test' where account_id = $1 and lower(email) = $2`,
      [admin.accountId, client.email.toLowerCase()]);
    try {
      expect((await client.client.rpc('open_quote_link', { p_token: third })).data).toMatchObject({ state: 'not_found' });
    } finally {
      await backend.db.query(`update public.contacts set email = $2 where account_id = $1 and email = 'moved@elsewhere.test'`,
        [admin.accountId, client.email]);
    }
  });

  it('is limited to 20 links a minute per client', async () => {
    const limited = await addMember(backend, admin, 'client', 'busy-client');
    const quote = await quoteFor(admin, limited.email, true);
    for (let i = 0; i < 20; i += 1) expect((await portalLink(limited.client, quote)).error).toBeNull();
    const over = await portalLink(limited.client, quote);
    expect(over.error?.code).toBe('54000');
    expect(over.error?.message).toContain('Too many requests');
  });
});
