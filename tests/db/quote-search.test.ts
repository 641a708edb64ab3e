// search_quotes (the /quotes text search) runs with its owner's rights so
// that it can use the account-first trigram indexes, which row-level security
// would keep it from using. So the function itself must keep every account to
// its own quotes: these tests hold it to what RLS gives quote_list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, anonClient, quoteArgs, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let a: Member;
let b: Member;
let aAuditor: Member;

interface Found {
  id: string;
  account_id: string;
  quote_number: string | null;
  notes: string | null;
  contact_name: string | null;
  contact_company: string | null;
}

async function search(member: Member, text: string): Promise<Found[]> {
  const { data, error } = await member.client.rpc('search_quotes', { p_query: text }, { get: true }).order('created_at');
  if (error) throw new Error(`search_quotes: ${error.message}`);
  return data as Found[];
}

async function createQuote(member: Member, company: string, notes: string | null) {
  const args = quoteArgs(1000, 1, 'USD', { p_contact_name: `${company} Buyer`, p_company: company, p_notes: notes });
  const { error } = await member.client.rpc('create_quote', args);
  if (error) throw error;
}

beforeAll(async () => {
  backend = await startBackend();
  [a, b] = await Promise.all([signUpFreshAdmin(backend, 'search-a'), signUpFreshAdmin(backend, 'search-b')]);
  aAuditor = await addMember(backend, a, 'auditor', 'search-a-auditor');
  // In order: the tests read A's quotes oldest first.
  await createQuote(a, 'Shared Word Co', 'zebra crossing survey');
  await createQuote(a, 'Other Co', null);
  await createQuote(b, 'Shared Word Co', null);
});

afterAll(async () => {
  await backend?.stop();
});

describe('search_quotes', () => {
  it("finds only the caller's account's quotes, even for a word both accounts use", async () => {
    const forA = await search(a, 'shared word');
    const forB = await search(b, 'SHARED WORD');
    expect(forA.map((q) => q.account_id)).toEqual([a.accountId]);
    expect(forB.map((q) => q.account_id)).toEqual([b.accountId]);
    expect(forA[0].contact_company).toBe('Shared Word Co');
  });

  it("never shows another account's notes, numbers or contacts", async () => {
    expect(await search(b, 'zebra')).toEqual([]);
    expect((await search(a, 'zebra')).map((q) => q.notes)).toEqual(['zebra crossing survey']);
    const [aQuote] = await search(a, 'shared word');
    // Quote numbers are per account (Q-2026-0001 in both); B still sees only B's.
    const byNumber = await search(b, aQuote.quote_number!);
    expect(byNumber.every((q) => q.account_id === b.accountId)).toBe(true);
    expect(await search(b, 'Other Co')).toEqual([]);
  });

  it('gives every member of the account the same results, whatever the role', async () => {
    expect((await search(aAuditor, 'zebra')).map((q) => q.account_id)).toEqual([a.accountId]);
  });

  it('finds nothing for a deactivated member', async () => {
    const deactivated = await addMember(backend, a, 'client', 'search-a-gone');
    const { error } = await serviceClient(backend).from('users').update({ is_active: false }).eq('id', deactivated.userId);
    expect(error).toBeNull();
    expect(await search(deactivated, 'zebra')).toEqual([]);
  });

  it('treats LIKE wildcards as plain characters', async () => {
    expect(await search(a, '%')).toEqual([]);
    expect(await search(a, 'zebra_crossing')).toEqual([]);
    expect((await search(a, 'zebra crossing')).length).toBe(1);
  });

  it('is not callable without a session', async () => {
    const { error } = await anonClient(backend).rpc('search_quotes', { p_query: 'zebra' }, { get: true });
    expect(error?.code).toBe('42501');
  });
});
