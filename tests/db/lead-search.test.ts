// search_leads (the /leads text search) runs with its owner's rights so that it
// can use the account-first trigram indexes, which row-level security would
// keep it from using. So the function itself must give each caller what the
// leads policy gives them: staff their own account's leads, anyone else
// nothing. These tests hold it to that, and to the filter it replaced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let a: Member;
let b: Member;

interface Found {
  id: string;
  account_id: string;
  name: string;
}

async function search(member: Member, text: string): Promise<Found[]> {
  const { data, error } = await member.client.rpc('search_leads', { p_query: text }, { get: true }).order('created_at');
  if (error) throw new Error(`search_leads: ${error.message}`);
  return data as Found[];
}

async function addLead(member: Member, name: string, email: string, company: string) {
  const { error } = await member.client
    .from('leads')
    .insert({ account_id: member.accountId, name, email, company, source: 'website', interest: ['cpq'], status: 'new' });
  if (error) throw error;
}

beforeAll(async () => {
  backend = await startBackend();
  [a, b] = await Promise.all([signUpFreshAdmin(backend, 'lead-search-a'), signUpFreshAdmin(backend, 'lead-search-b')]);
  // In order: the tests read A's leads oldest first.
  await addLead(a, 'Ada Shared', 'ada@zebra.test', 'Shared Word Co');
  await addLead(a, 'Grace Hopper', 'grace@navy.test', 'Compilers 100% Ltd');
  await addLead(a, 'Alan Turing', 'alan@bletchley.test', 'Enigma_Works');
  await addLead(b, 'Bea Shared', 'bea@b.test', 'Shared Word Co');
});

afterAll(async () => {
  await backend?.stop();
});

describe('search_leads', () => {
  it('matches name, email or company, whatever the case', async () => {
    expect((await search(a, 'HOPPER')).map((lead) => lead.name)).toEqual(['Grace Hopper']);
    expect((await search(a, 'zebra.test')).map((lead) => lead.name)).toEqual(['Ada Shared']);
    expect((await search(a, 'enigma')).map((lead) => lead.name)).toEqual(['Alan Turing']);
    expect(await search(a, 'nobody at all')).toEqual([]);
  });

  it("finds only the caller's account's leads, even for a word both accounts use", async () => {
    expect((await search(a, 'shared word')).map((lead) => lead.account_id)).toEqual([a.accountId]);
    expect((await search(b, 'SHARED')).map((lead) => lead.account_id)).toEqual([b.accountId]);
    expect(await search(b, 'hopper')).toEqual([]);
  });

  it('finds what the list filter it replaced found (ilike on the three columns, under row-level security)', async () => {
    for (const text of ['a', 'shared', 'test', '.test', 'co']) {
      const pattern = `*${text}*`;
      const { data, error } = await a.client
        .from('leads')
        .select('id')
        .or(`name.ilike."${pattern}",email.ilike."${pattern}",company.ilike."${pattern}"`)
        .order('created_at');
      expect(error).toBeNull();
      expect((await search(a, text)).map((lead) => lead.id)).toEqual((data ?? []).map((lead) => lead.id));
    }
  });

  it('gives staff the results, and a client or a supplier nothing, as the leads policy does', async () => {
    const member = await addMember(backend, a, 'member', 'lead-search-member');
    const auditor = await addMember(backend, a, 'auditor', 'lead-search-auditor');
    const client = await addMember(backend, a, 'client', 'lead-search-client');
    const supplier = await addMember(backend, a, 'supplier', 'lead-search-supplier');
    for (const staff of [member, auditor]) expect((await search(staff, 'hopper')).map((lead) => lead.name)).toEqual(['Grace Hopper']);
    for (const outsider of [client, supplier]) {
      expect(await search(outsider, 'hopper')).toEqual([]);
      // The table itself shows them nothing either.
      expect((await outsider.client.from('leads').select('id')).data).toEqual([]);
    }
  });

  it('finds nothing for a deactivated member', async () => {
    const deactivated = await addMember(backend, a, 'member', 'lead-search-gone');
    const { error } = await serviceClient(backend).from('users').update({ is_active: false }).eq('id', deactivated.userId);
    expect(error).toBeNull();
    expect(await search(deactivated, 'hopper')).toEqual([]);
  });

  it('treats LIKE wildcards as plain characters', async () => {
    // Only the lead whose company holds a percent sign, not every lead.
    expect((await search(a, '%')).map((lead) => lead.name)).toEqual(['Grace Hopper']);
    expect((await search(a, '100%')).map((lead) => lead.name)).toEqual(['Grace Hopper']);
    expect((await search(a, 'enigma_works')).map((lead) => lead.name)).toEqual(['Alan Turing']);
    expect(await search(a, 'hop_er')).toEqual([]);
    expect(await search(a, 'g%hopper')).toEqual([]);
  });

  it('is not callable without a session', async () => {
    const { error } = await anonClient(backend).rpc('search_leads', { p_query: 'hopper' }, { get: true });
    expect(error?.code).toBe('42501');
  });
});
