// Histories name who acted (issue 31, decision 047): a client's action through
// the public link names the client (the signer as typed, else the quote's or
// invoice's client) as 'client'; the jobs runner's (the service role's) reads
// 'System'; a person of the account is named; a deleted user is a former user.
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, quoteArgs, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;
let member: Member;
let stranger: Member;

interface HistoryRow {
  action: string;
  actor_name: string | null;
  actor_kind: string | null;
  actor_email: string | null;
}

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'who');
  member = await addMember(backend, admin, 'member');
  stranger = await signUpFreshAdmin(backend, 'who-stranger');
});
afterAll(async () => backend?.stop());

async function sentQuote(by: Member = admin, expiresInDays = 7): Promise<{ id: string; token: string }> {
  const { data, error } = await by.client
    .rpc('create_quote', quoteArgs(1000, 2, 'USD', { p_contact_name: 'Quinn Buyer', p_contact_email: 'quinn@buyer.test', p_expires_in_days: expiresInDays }))
    .single<{ id: string }>();
  if (error) throw error;
  const sent = await by.client.rpc('send_quote', { p_quote_id: data!.id });
  if (sent.error) throw sent.error;
  const token = await service.rpc('issue_quote_link', { p_quote_id: data!.id });
  if (token.error) throw token.error;
  return { id: data!.id, token: token.data as string };
}

async function history(type: string, id: string, who: Member = admin): Promise<HistoryRow[]> {
  const { data, error } = await who.client.rpc('record_history', { p_resource_type: type, p_resource_id: id });
  if (error) throw error;
  return data as HistoryRow[];
}
const entry = (rows: HistoryRow[], action: string) => {
  const found = rows.find((row) => row.action === action);
  if (!found) throw new Error(`no ${action} in ${JSON.stringify(rows.map((row) => row.action))}`);
  return { actor_name: found.actor_name, actor_kind: found.actor_kind, actor_email: found.actor_email };
};

describe('who acted', () => {
  it('a signer through the public link is the client, by the name and email they signed with', async () => {
    const quote = await sentQuote();
    const anon = anonClient(backend);
    expect((await anon.rpc('open_quote_link', { p_token: quote.token })).error).toBeNull();
    const signed = await anon.rpc('accept_quote', { p_token: quote.token, p_name: 'Ada Signer', p_email: 'ada@signer.test', p_signature_png: null });
    expect(signed.error).toBeNull();
    const rows = await history('quote', quote.id);
    expect(entry(rows, 'quote_signed')).toEqual({ actor_name: 'Ada Signer', actor_kind: 'client', actor_email: 'ada@signer.test' });
    // Opening it named no one: the quote's client.
    expect(entry(rows, 'quote_viewed')).toEqual({ actor_name: 'Quinn Buyer', actor_kind: 'client', actor_email: 'quinn@buyer.test' });
    // The staff's own actions name them.
    expect(entry(rows, 'quote_sent')).toMatchObject({ actor_name: 'who Tester', actor_kind: 'user' });
    // The audit log screen's reader says the same.
    const { data: log, error } = await admin.client.rpc('list_audit_logs', { p_search: null, p_action: 'quote_signed', p_limit: 100, p_offset: 0 });
    expect(error).toBeNull();
    expect((log as (HistoryRow & { resource_id: string; user_email: string | null })[]).find((row) => row.resource_id === quote.id)).toMatchObject({
      actor_kind: 'client', actor_name: 'Ada Signer', actor_email: 'ada@signer.test', user_email: null,
    });
  });

  it('a decline through the link is the quote\'s client; a signed-in user of another account is an outsider too', async () => {
    const quote = await sentQuote();
    const declined = await stranger.client.rpc('decline_quote', { p_token: quote.token, p_reason: 'Too dear' });
    expect(declined.error).toBeNull();
    expect(entry(await history('quote', quote.id), 'quote_declined')).toEqual({
      actor_name: 'Quinn Buyer', actor_kind: 'client', actor_email: 'quinn@buyer.test',
    });
  });

  it('the jobs runner (service role) is System: an expired quote, an overdue invoice, an extracted document', async () => {
    const quote = await sentQuote();
    await backend.db.query(`update public.quotes set expires_at = now() - interval '1 minute' where id = $1`, [quote.id]);
    expect((await service.rpc('expire_quotes')).error).toBeNull();
    expect(entry(await history('quote', quote.id), 'quote_expired')).toEqual({ actor_name: 'System', actor_kind: 'system', actor_email: null });

    const { data: invoice } = await admin.client
      .rpc('create_invoice', {
        p_client_name: 'Ivy Client', p_client_email: 'ivy@client.test', p_description: 'Consulting',
        p_unit_price: 12_500, p_quantity: 2, p_currency: 'USD',
        p_due_date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), p_notes: null,
      })
      .single<{ id: string }>();
    expect((await admin.client.rpc('send_invoice', { p_invoice_id: invoice!.id })).error).toBeNull();
    expect((await service.rpc('sweep_overdue_invoices', { p_now: new Date(Date.now() + 3 * 86_400_000).toISOString() })).error).toBeNull();
    const invoiceRows = await history('invoice', invoice!.id);
    expect(entry(invoiceRows, 'invoice_overdue')).toEqual({ actor_name: 'System', actor_kind: 'system', actor_email: null });
    expect(entry(invoiceRows, 'invoice_sent')).toMatchObject({ actor_name: 'who Tester', actor_kind: 'user' });

    const { data: document, error } = await service
      .from('documents')
      .insert({
        account_id: admin.accountId, title: 'Contract', file_path: `${admin.accountId}/${randomUUID()}/c.pdf`, file_name: 'c.pdf',
        file_size: 10, mime_type: 'application/pdf', sha256: createHash('sha256').update(randomUUID()).digest('hex'),
      })
      .select('id')
      .single();
    expect(error).toBeNull();
    expect((await service.from('documents').update({ extraction_status: 'done' }).eq('id', document!.id)).error).toBeNull();
    expect(entry(await history('document', document!.id), 'document_extracted')).toEqual({ actor_name: 'System', actor_kind: 'system', actor_email: null });
  });

  it('a user since deleted is still a former user', async () => {
    const gone = await addMember(backend, admin, 'member', 'gone');
    const quote = await sentQuote(gone);
    // The users row goes; the audit row keeps its action, with no user.
    await backend.db.query('delete from public.users where id = $1', [gone.userId]);
    expect(entry(await history('quote', quote.id), 'quote_sent')).toEqual({ actor_name: null, actor_kind: 'user', actor_email: null });
  });

  it('rows from before the actor was recorded: link actions read as the client, sweeps as System, the rest a former user', async () => {
    const quote = await sentQuote(member);
    const rows = await backend.db.query<{ id: string }>(
      `insert into public.audit_logs (account_id, action, resource_type, resource_id, new_values)
       values ($1, 'quote_viewed', 'quote', $2, '{}'), ($1, 'quote_expired', 'quote', $2, '{}'), ($1, 'quote_updated', 'quote', $2, '{}')
       returning id`, [admin.accountId, quote.id]);
    expect(rows.rows).toHaveLength(3);
    const legacy = (await history('quote', quote.id)).filter((row) => ['quote_viewed', 'quote_expired', 'quote_updated'].includes(row.action));
    expect(legacy.map((row) => [row.action, row.actor_kind, row.actor_name]).sort()).toEqual([
      ['quote_expired', 'system', 'System'],
      ['quote_updated', null, null],
      ['quote_viewed', 'client', 'Quinn Buyer'],
    ]);
  });
});
