// The role findings of issue 15, each reproduced as its attacker would try it
// (their own token, straight to /rest/v1 and the RPCs) and seen refused:
// outsiders reading the pipeline, secrets or quotes not addressed to them,
// or creating quotes; an auditor creating leads or quotes; a member changing
// billing, templates or integrations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, quoteArgs, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';
import { ROLES } from '../support/accounts.ts';

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;
const as: Record<string, Member> = {};
let addressedQuoteId: string;
/** A draft addressed to the client: never sent, so not the client's to see. */
let draftQuoteId: string;
let moduleId: string;

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'attack-admin');
  for (const role of ROLES.filter((r) => r !== 'admin')) as[role] = await addMember(backend, admin, role, `attack-${role}`);
  const addressed = await admin.client.rpc('create_quote', quoteArgs(4200, 1, 'USD', { p_contact_email: as.client.email, p_notes: 'For you' }))
    .single<{ id: string }>();
  addressedQuoteId = addressed.data!.id;
  // Sent: a client sees a quote only once it was sent to it. A draft addressed to it stays unseen.
  await service.rpc('change_quote_status', { p_quote_id: addressedQuoteId, p_status: 'sent' });
  const contactId = (await service.from('quotes').select('contact_id').eq('id', addressedQuoteId).single()).data!.contact_id;
  draftQuoteId = (await admin.client.from('quotes').insert({ account_id: admin.accountId, contact_id: contactId, currency: 'USD', notes: 'Draft for you' })
    .select('id').single()).data!.id;
  await admin.client.rpc('create_quote', quoteArgs(999_900, 3, 'USD', { p_notes: 'Someone else' }));
  await admin.client.from('leads').insert({ account_id: admin.accountId, name: 'Lee', email: 'lee@lead.test', company: 'Lead Co' });
  await admin.client.from('integrations').insert({
    account_id: admin.accountId, name: 'Stripe', type: 'payment', config: { api_key: 'sk_live_secret', webhook_secret: 'whsec_x' },
  });
  await admin.client.from('templates').insert({ account_id: admin.accountId, name: 'Welcome', content: 'Hello' });
  moduleId = (await service.from('modules').select('id').eq('key', 'cpq').single()).data!.id;
  await admin.client.from('account_modules').insert({ account_id: admin.accountId, module_id: moduleId, status: 'active' });
});
afterAll(async () => backend?.stop());

const rowsOf = async (member: Member, table: string) => (await member.client.from(table).select('*')).data ?? [];

for (const role of ['client', 'supplier']) {
  describe(`a ${role} (outside the company)`, () => {
    it("reads none of the account's integrations (secrets), leads, templates, modules, pipeline figures or account", async () => {
      for (const table of ['integrations', 'leads', 'templates', 'account_modules', 'quote_stats', 'accounts', 'audit_logs', 'user_invitations']) {
        expect(await rowsOf(as[role], table), table).toEqual([]);
      }
    });

    it('cannot create a quote, by the RPC or by REST', async () => {
      const before = (await service.from('quotes').select('id', { count: 'exact', head: true }).eq('account_id', admin.accountId)).count;
      const byRpc = await as[role].client.rpc('create_quote', quoteArgs(100, 1));
      expect(byRpc.error?.message).toMatch(/row-level security/);
      const byRest = await as[role].client.from('quotes').insert({ account_id: admin.accountId, notes: 'Mine now' }).select();
      expect(byRest.error?.message).toMatch(/row-level security/);
      expect((await service.from('quotes').select('id', { count: 'exact', head: true }).eq('account_id', admin.accountId)).count).toBe(before);
    });

    it('gets no pipeline figures from the summaries', async () => {
      expect((await as[role].client.rpc('quote_summary').single()).data).toEqual({ total_count: 0, sent_count: 0, signed_count: 0, by_currency: [] });
      expect((await as[role].client.rpc('lead_summary').single()).data).toMatchObject({ total_count: 0, qualified_count: 0 });
      const overview = (await as[role].client.rpc('dashboard_overview')).data;
      expect(overview).toMatchObject({ active_leads: 0, quote_pipeline: [], monthly_revenue: 0, quote_count: 0, modules: [], recent_leads: [], account_status: null });
    });

    it('cannot read the audit log through its RPCs', async () => {
      expect((await as[role].client.rpc('list_audit_logs', {})).error?.message).toBe('Only administrators can view audit logs');
    });
  });
}

describe('a client', () => {
  it('reads only the quotes addressed to it, their items and its own contact row', async () => {
    expect((await rowsOf(as.client, 'quotes')).map((q) => q.id)).toEqual([addressedQuoteId]);
    expect((await rowsOf(as.client, 'quote_list')).map((q) => q.notes)).toEqual(['For you']);
    expect((await rowsOf(as.client, 'quote_items')).map((i) => i.quote_id)).toEqual([addressedQuoteId]);
    expect((await rowsOf(as.client, 'contacts')).map((c) => c.email)).toEqual([as.client.email]);
    expect((await rowsOf(as.client, 'users')).map((u) => u.id)).toEqual([as.client.userId]);
  });

  it("finds only its own quotes with the quote search (a security definer function), not the account's", async () => {
    const everything = await as.client.client.rpc('search_quotes', { p_query: 'o' });
    expect(everything.error).toBeNull();
    expect((everything.data as { id: string }[]).map((q) => q.id)).toEqual([addressedQuoteId]);
    expect((await as.client.client.rpc('search_quotes', { p_query: 'Someone else' })).data).toEqual([]);
    // The supplier, with no quotes addressed to it, finds nothing.
    expect((await as.supplier.client.rpc('search_quotes', { p_query: 'o' })).data).toEqual([]);
    // Nor the draft addressed to it.
    expect((await as.client.client.rpc('search_quotes', { p_query: 'Draft for you' })).data).toEqual([]);
    // Staff still find them all.
    expect((await as.member.client.rpc('search_quotes', { p_query: 'o' })).data).toHaveLength(3);
  });

  it("gets the PDF's document of the quote sent to it, not of the draft addressed to it", async () => {
    expect((await as.client.client.rpc('quote_document', { p_quote_id: addressedQuoteId })).data).toMatchObject({ notes: 'For you' });
    const draft = await as.client.client.rpc('quote_document', { p_quote_id: draftQuoteId });
    expect(draft.error).toBeNull();
    expect(draft.data).toBeNull();
    expect((await as.member.client.rpc('quote_document', { p_quote_id: draftQuoteId })).data).toMatchObject({ notes: 'Draft for you' });
  });

  it('cannot change the quote addressed to it', async () => {
    const changed = await as.client.client.from('quotes').update({ notes: 'Accepted by me' }).eq('id', addressedQuoteId).select();
    expect(changed.data ?? []).toEqual([]);
    expect((await service.from('quotes').select('notes').eq('id', addressedQuoteId).single()).data?.notes).toBe('For you');
  });
});

describe('an auditor', () => {
  it('reads what an admin reads, integrations and audit log included', async () => {
    for (const table of ['integrations', 'leads', 'templates', 'account_modules', 'quotes', 'contacts', 'audit_logs']) {
      expect((await rowsOf(as.auditor, table)).length, table).toBe((await rowsOf(admin, table)).length);
    }
    expect((await as.auditor.client.rpc('list_audit_logs', {})).error).toBeNull();
  });

  it('cannot create a lead or a quote', async () => {
    const lead = await as.auditor.client.from('leads').insert({ account_id: admin.accountId, name: 'Audit', email: 'a@x.test', company: 'A' }).select();
    expect(lead.error?.message).toMatch(/row-level security/);
    const quote = await as.auditor.client.rpc('create_quote', quoteArgs(100, 1));
    expect(quote.error?.message).toMatch(/row-level security/);
  });
});

describe('a member (staff)', () => {
  it('works with leads and quotes', async () => {
    expect((await as.member.client.rpc('create_quote', quoteArgs(100, 1))).error).toBeNull();
    const lead = await as.member.client.from('leads').insert({ account_id: admin.accountId, name: 'Mo', email: 'mo@x.test', company: 'M' }).select();
    expect(lead.error).toBeNull();
  });

  it('cannot read integrations or templates, nor activate, pause or add modules', async () => {
    expect(await rowsOf(as.member, 'integrations')).toEqual([]);
    expect(await rowsOf(as.member, 'templates')).toEqual([]);
    const paused = await as.member.client.from('account_modules').update({ status: 'paused' }).eq('module_id', moduleId).select();
    expect(paused.data ?? []).toEqual([]);
    const helpdesk = (await service.from('modules').select('id').eq('key', 'helpdesk').single()).data!.id;
    const added = await as.member.client.from('account_modules').insert({ account_id: admin.accountId, module_id: helpdesk, status: 'active' }).select();
    expect(added.error?.message).toMatch(/row-level security/);
    const modules = (await service.from('account_modules').select('status').eq('account_id', admin.accountId)).data;
    expect(modules).toEqual([{ status: 'active' }]);
  });

  it('cannot create, edit or delete templates and integrations', async () => {
    const template = await as.member.client.from('templates').insert({ account_id: admin.accountId, name: 'Mine', content: 'x' }).select();
    expect(template.error?.message).toMatch(/row-level security/);
    const integration = await as.member.client.from('integrations').insert({ account_id: admin.accountId, name: 'Mine', type: 'crm', config: {} }).select();
    expect(integration.error?.message).toMatch(/row-level security/);
    for (const table of ['templates', 'integrations']) {
      const before = (await service.from(table).select('*').eq('account_id', admin.accountId)).data;
      await as.member.client.from(table).update({ name: 'Changed' }).eq('account_id', admin.accountId);
      await as.member.client.from(table).delete().eq('account_id', admin.accountId);
      expect((await service.from(table).select('*').eq('account_id', admin.accountId)).data, table).toEqual(before);
    }
  });

  it('cannot change the account settings', async () => {
    const renamed = await as.member.client.from('accounts').update({ name: 'Taken' }).eq('id', admin.accountId).select();
    expect(renamed.data ?? []).toEqual([]);
  });
});
