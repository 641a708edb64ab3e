// search_contacts, search_invoices and search_documents (the /clients,
// /invoices and /documents searches) run with their owner's rights so that
// they can use the account-first indexes, which row-level security would keep
// them from using. So each must give every caller exactly what the table's
// policy gives them through the filter it replaced: staff the account's rows,
// a client its own contact and the invoices addressed to it (no documents),
// anyone else nothing. (search_leads: lead-search.test.ts.)
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';
import { ROLES } from '../support/accounts.ts';

let backend: TestBackend;
let other: Member;
const as: Record<string, Member> = {};

/** The words of a search, each as a prefix, all required (to_tsquery syntax). */
const prefixQuery = (text: string) => text.trim().split(/\s+/).map((word) => `${word}:*`).join(' & ');
const ilikeAny = (columns: string[]) => (text: string) => columns.map((column) => `${column}.ilike."*${text}*"`).join(',');
/** Each search, and the filter it replaced (the list's former PostgREST `or`). */
const SEARCHES = {
  search_contacts: { table: 'contacts', filter: ilikeAny(['name', 'email', 'company']), clientFinds: 1 },
  search_invoices: { table: 'invoices', filter: ilikeAny(['invoice_number', 'client_name', 'client_email']), clientFinds: 1 },
  // Every word of the text as the start of a word of the title or extracted text (20261203100001), or the title containing it.
  search_documents: { table: 'documents', filter: (text: string) => `search.fts(simple)."${prefixQuery(text)}",title.ilike."*${text}*"`, clientFinds: 0 },
  // The bids of /rfp: staff only.
  search_rfps: { table: 'rfps', filter: ilikeAny(['title', 'company']), clientFinds: 0 },
  // The answer library (decision 091): as the documents' search, over title, tags and body; staff only.
  search_rfp_answers: { table: 'rfp_answers', filter: (text: string) => `search.fts(simple)."${prefixQuery(text)}",title.ilike."*${text}*"`, clientFinds: 0 },
} as const;
type SearchName = keyof typeof SEARCHES;

async function search(member: Member, fn: SearchName, text: string): Promise<string[]> {
  const { data, error } = await member.client.rpc(fn, { p_query: text }, { get: true }).select('id').order('created_at').order('id');
  if (error) throw new Error(`${fn}: ${error.message}`);
  return (data as { id: string }[]).map((row) => row.id);
}

/** What the list's former filter found: ilike on each column, under the table's policy. */
async function filtered(member: Member, fn: SearchName, text: string): Promise<string[]> {
  const { table, filter } = SEARCHES[fn];
  const { data, error } = await member.client.from(table).select('id').or(filter(text)).order('created_at').order('id');
  if (error) throw new Error(`${table}: ${error.message}`);
  return (data as { id: string }[]).map((row) => row.id);
}

/** An invoice, sent unless `draft` (a client reads only those sent to it). */
async function invoiceFor(member: Member, name: string, email: string, draft = false) {
  const { data, error } = await member.client.rpc('create_invoice', {
    p_client_name: name, p_client_email: email, p_description: 'Consulting', p_unit_price: 12_500,
    p_quantity: 1, p_currency: 'USD', p_due_date: '2030-01-01', p_notes: null,
  }).single<{ id: string }>();
  if (error) throw new Error(error.message);
  if (draft) return;
  const sent = await member.client.rpc('send_invoice', { p_invoice_id: data.id });
  if (sent.error) throw new Error(sent.error.message);
}

async function documentFor(member: Member, title: string, text: string | null = null) {
  const sha256 = createHash('sha256').update(title).digest('hex');
  const { data, error } = await member.client.from('documents').insert({
    account_id: member.accountId, title, file_path: `${member.accountId}/${randomUUID()}/f.pdf`,
    file_name: 'f.pdf', file_size: 10, mime_type: 'application/pdf', sha256,
  }).select('id').single();
  if (error) throw new Error(error.message);
  // The text is extraction's to write (the service role's, as the job).
  if (text !== null) {
    const written = await serviceClient(backend).from('documents').update({ text }).eq('id', data.id);
    if (written.error) throw new Error(written.error.message);
  }
}

async function answerFor(member: Member, title: string, body: string, tags: string[] = []) {
  const { error } = await member.client.from('rfp_answers').insert({ title, body, tags });
  if (error) throw new Error(error.message);
}

async function rfpFor(member: Member, title: string, company: string) {
  const { error } = await member.client.from('rfps').insert({
    account_id: member.accountId, title, company, contact_email: 'bids@search.test', value: 100, deadline: '2030-01-01', proposal: 'P',
  });
  if (error) throw new Error(error.message);
}

beforeAll(async () => {
  backend = await startBackend();
  const admin = await signUpFreshAdmin(backend, 'search-admin');
  as.admin = admin;
  for (const role of ROLES.filter((r) => r !== 'admin')) as[role] = await addMember(backend, admin, role, `search-${role}`);
  other = await signUpFreshAdmin(backend, 'search-other');
  // The client's own contact (and the invoice addressed to it), and others' of the same account.
  await invoiceFor(admin, 'Searchable Client', as.client.email);
  // A draft to the client, never sent: staff find it, the client does not.
  await invoiceFor(admin, 'Searchable Client Unsent', as.client.email, true);
  await invoiceFor(admin, 'Searchable Stranger', 'stranger@search.test');
  await invoiceFor(admin, 'Percent 100% Co', 'percent@search.test');
  await admin.client.from('contacts').insert({ account_id: admin.accountId, name: 'Under_Score', email: 'under@search.test', company: 'Searchable Ltd' });
  await documentFor(admin, 'Searchable Client contract');
  await documentFor(admin, 'Scan 0042', 'Invoice from a searchable stranger, total 100% due');
  await documentFor(admin, 'Rates 100% final');
  await rfpFor(admin, 'Searchable Client tender', 'Harbour Board');
  await rfpFor(admin, 'Harbour cranes', 'Searchable Stranger Ltd');
  await rfpFor(admin, 'Rates 100% final', 'Port Co');
  // The same words in another account.
  await rfpFor(other, 'Searchable elsewhere', 'Other Co');
  await invoiceFor(other, 'Searchable Client', 'elsewhere@search.test');
  await documentFor(other, 'Searchable elsewhere');
  await answerFor(admin, 'Searchable Client contract', 'We deliver.', ['client']);
  await answerFor(admin, 'Scan 0042', 'Invoice from a searchable stranger, total 100% due');
  await answerFor(admin, 'Rates 100% final', 'Fixed.');
  await answerFor(other, 'Searchable elsewhere', 'Elsewhere.');
});

afterAll(async () => {
  await backend?.stop();
});

for (const fn of Object.keys(SEARCHES) as SearchName[]) {
  describe(fn, () => {
    it('finds for every role what the filter found under the policy, and only in the caller\'s account', async () => {
      for (const role of ROLES) {
        for (const text of ['searchable', 'SEARCH.TEST', 'client', 'inv', 'searchable stranger', '0042', 'nothing like it']) {
          expect(await search(as[role], fn, text), `${role} '${text}'`).toEqual(await filtered(as[role], fn, text));
        }
      }
      const { table } = SEARCHES[fn];
      const theirs = (await serviceClient(backend).from(table).select('id').eq('account_id', other.accountId)).data!.map((row) => row.id);
      expect((await search(as.admin, fn, 'searchable')).some((id) => theirs.includes(id))).toBe(false);
      expect(await search(other, fn, 'searchable')).toHaveLength(1);
    });

    it('gives staff every match, a client only its own, a supplier nothing', async () => {
      expect((await search(as.admin, fn, 'searchable')).length).toBeGreaterThan(1);
      expect(await search(as.auditor, fn, 'searchable')).toEqual(await search(as.admin, fn, 'searchable'));
      expect(await search(as.client, fn, 'searchable')).toHaveLength(SEARCHES[fn].clientFinds);
      expect(await search(as.client, fn, 'stranger')).toEqual([]);
      expect(await search(as.supplier, fn, 'searchable')).toEqual([]);
    });

    it.runIf(fn === 'search_invoices')('does not give a client an invoice of theirs that was never sent', async () => {
      expect(await search(as.admin, fn, 'unsent')).toHaveLength(1);
      expect(await search(as.client, fn, 'unsent')).toEqual([]);
      expect(await search(as.client, fn, as.client.email)).toHaveLength(1);
    });

    it('treats LIKE wildcards as plain characters', async () => {
      // Only the one whose name holds a percent sign, not every row.
      expect(await search(as.admin, fn, '%')).toHaveLength(1);
      // To full-text search an underscore separates words, so a document search reads 'searchabl_' as the start of a word.
      if (fn === 'search_documents' || fn === 'search_rfp_answers') expect(await search(as.admin, fn, 'searchabl_')).toEqual(await search(as.admin, fn, 'searchabl'));
      else expect(await search(as.admin, fn, 'searchabl_')).toEqual([]);
    });

    it('finds nothing for a deactivated member, and is not callable without a session', async () => {
      const gone = await addMember(backend, as.admin, 'member', `search-gone-${fn}`);
      expect(await search(gone, fn, 'searchable')).not.toEqual([]);
      const { error } = await serviceClient(backend).from('users').update({ is_active: false }).eq('id', gone.userId);
      expect(error).toBeNull();
      expect(await search(gone, fn, 'searchable')).toEqual([]);
      const anon = await anonClient(backend).rpc(fn, { p_query: 'searchable' }, { get: true });
      expect(anon.error?.code).toBe('42501');
    });
  });
}
