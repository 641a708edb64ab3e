// Leads and clients as records a user works on, as the database keeps them:
// converting a lead (convert_lead), a quote for an existing client
// (create_client_quote), a record's history by name (record_history), the
// directory's figures (client_directory_figures), audited edits and deletes,
// and a client with quotes kept. Each function against every role (the role
// matrix of docs/decisions/012-role-matrix.md) and another account, on PGlite
// and (with TEST_POSTGRES_URL) PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  addMember, quoteArgs, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend,
} from './support/backend.ts';
import { ROLES, type Role } from '../support/accounts.ts';

const WRITERS: Role[] = ['admin', 'member'];
const STAFF: Role[] = ['admin', 'member', 'auditor'];

const targets = [
  { name: 'PGlite', on: 'pglite' as const, skip: false },
  { name: 'PostgreSQL', on: 'postgres' as const, skip: !process.env.TEST_POSTGRES_URL },
];

for (const target of targets) {
  describe.skipIf(target.skip)(`records on ${target.name}`, () => {
    let backend: TestBackend;
    let service: SupabaseClient;
    const as = {} as Record<Role, Member>;
    let outsider: Member;

    beforeAll(async () => {
      backend = await startBackend({ on: target.on });
      service = serviceClient(backend);
      as.admin = await signUpFreshAdmin(backend, 'records-admin');
      for (const role of ROLES.filter((r) => r !== 'admin')) as[role] = await addMember(backend, as.admin, role, `records-${role}`);
      outsider = await signUpFreshAdmin(backend, 'records-outsider');
    });
    afterAll(async () => backend?.stop());

    async function newLead(name = 'Sarah Johnson'): Promise<string> {
      const { data, error } = await service
        .from('leads')
        .insert({ account_id: as.admin.accountId, name, email: `${name.split(' ')[0].toLowerCase()}@lead.test`, company: 'Lead Co', phone_whatsapp: '+1 555 0100' })
        .select('id')
        .single();
      if (error) throw error;
      return data.id;
    }

    async function newQuote(member: Member, changes: Record<string, unknown> = {}, currency = 'USD', cents = 1000): Promise<{ id: string; contact_id: string }> {
      const { data, error } = await member.client.rpc('create_quote', quoteArgs(cents, 1, currency, changes)).single<{ id: string; contact_id: string }>();
      if (error) throw error;
      return data;
    }

    describe('convert_lead', () => {
      it('lets admins and members make a client of a lead, once: the lead is qualified and linked', async () => {
        for (const role of WRITERS) {
          const leadId = await newLead(`Convert ${role}`);
          const { data: client, error } = await as[role].client.rpc('convert_lead', { p_lead_id: leadId }).single<{ id: string; name: string; phone: string }>();
          expect(error, role).toBeNull();
          expect(client).toMatchObject({ name: `Convert ${role}`, phone: '+1 555 0100' });
          const lead = (await service.from('leads').select('status, contact_id').eq('id', leadId).single()).data;
          expect(lead).toEqual({ status: 'qualified', contact_id: client!.id });
          const again = await as[role].client.rpc('convert_lead', { p_lead_id: leadId }).single<{ id: string }>();
          expect(again.data?.id, 'converting again returns the same client').toBe(client!.id);
          const { count } = await service.from('contacts').select('id', { count: 'exact', head: true }).eq('name', `Convert ${role}`);
          expect(count).toBe(1);
        }
      });

      it('refuses auditors, clients, suppliers and another account, changing nothing', async () => {
        const leadId = await newLead('Not Yours');
        for (const member of [as.auditor, as.client, as.supplier, outsider]) {
          const { error } = await member.client.rpc('convert_lead', { p_lead_id: leadId });
          expect(error, member.role).not.toBeNull();
        }
        const lead = (await service.from('leads').select('status, contact_id').eq('id', leadId).single()).data;
        expect(lead).toEqual({ status: 'new', contact_id: null });
        const { count } = await service.from('contacts').select('id', { count: 'exact', head: true }).eq('name', 'Not Yours');
        expect(count).toBe(0);
      });
    });

    describe('create_client_quote', () => {
      it('makes a draft quote with its item for an existing client of the account', async () => {
        const { contact_id } = await newQuote(as.admin, { p_contact_name: 'Existing Client' });
        const { data, error } = await as.member.client
          .rpc('create_client_quote', {
            p_contact_id: contact_id, p_description: 'Support', p_unit_price: 2500, p_quantity: 2, p_currency: 'EUR', p_expires_in_days: 14,
          })
          .single<{ id: string; contact_id: string; status: string; total: number; currency: string; quote_number: string }>();
        expect(error).toBeNull();
        expect(data).toMatchObject({ contact_id, status: 'draft', total: 5000, currency: 'EUR' });
        expect(data!.quote_number).toMatch(/^Q-\d{4}-\d{4}$/);
        const items = (await service.from('quote_items').select('description, qty, unit_price, total').eq('quote_id', data!.id)).data;
        expect(items).toEqual([{ description: 'Support', qty: 2, unit_price: 2500, total: 5000 }]);
      });

      it("refuses another account's client, auditors and outsiders", async () => {
        const { contact_id } = await newQuote(as.admin, { p_contact_name: 'Guarded Client' });
        const args = { p_contact_id: contact_id, p_description: 'X', p_unit_price: 1, p_quantity: 1 };
        const before = (await service.from('quotes').select('id', { count: 'exact', head: true }).eq('contact_id', contact_id)).count;
        expect((await outsider.client.rpc('create_client_quote', args)).error?.message).toBe('Client not found');
        for (const role of ['auditor', 'client', 'supplier'] as const) {
          expect((await as[role].client.rpc('create_client_quote', args)).error, role).not.toBeNull();
        }
        const after = (await service.from('quotes').select('id', { count: 'exact', head: true }).eq('contact_id', contact_id)).count;
        expect(after).toBe(before);
      });
    });

    describe('record_history', () => {
      it("gives the account's staff a lead's audit rows by the actor's name, and outsiders nothing", async () => {
        const { data: lead } = await as.member.client
          .from('leads').insert({ account_id: as.admin.accountId, name: 'History Lead', email: 'h@lead.test', company: 'H Co' }).select('id').single();
        await as.admin.client.from('leads').update({ status: 'contacted' }).eq('id', lead!.id);
        for (const role of STAFF) {
          const { data, error } = await as[role].client.rpc('record_history', { p_resource_type: 'lead', p_resource_id: lead!.id });
          expect(error, role).toBeNull();
          expect((data ?? []).map((row: { action: string; actor_name: string }) => [row.action, row.actor_name]), role).toEqual([
            ['lead_updated', 'records-admin Tester'],
            ['lead_created', 'records-member Member'],
          ]);
          expect(data![0]).toMatchObject({ old_values: { status: 'new' }, new_values: { status: 'contacted' } });
        }
        for (const member of [as.client, as.supplier, outsider]) {
          const { data } = await member.client.rpc('record_history', { p_resource_type: 'lead', p_resource_id: lead!.id });
          expect(data ?? [], member.role).toEqual([]);
        }
      });

      it("reads leads, contacts and quotes (a quote's page shows its history), not other audited records", async () => {
        const quote = await newQuote(as.admin);
        const { data: quoteRows } = await as.admin.client.rpc('record_history', { p_resource_type: 'quote', p_resource_id: quote.id });
        expect((quoteRows as { action: string }[]).map((row) => row.action)).toEqual(['quote_created']);
        const { data: template, error } = await as.admin.client
          .from('templates').insert({ account_id: as.admin.accountId, name: 'History probe', content: 'x' }).select('id').single();
        expect(error).toBeNull();
        const { data } = await as.admin.client.rpc('record_history', { p_resource_type: 'template', p_resource_id: template!.id });
        expect(data).toEqual([]);
      });
    });

    describe('edits and deletes', () => {
      it('audits a lead edit and delete; the history outlives the lead', async () => {
        const leadId = await newLead('Doomed Lead');
        await as.member.client.from('leads').update({ notes: 'Called' }).eq('id', leadId);
        const deleted = await as.member.client.from('leads').delete().eq('id', leadId).select('id');
        expect(deleted.data).toHaveLength(1);
        const rows = (await service.from('audit_logs').select('action').eq('resource_id', leadId).order('created_at')).data;
        expect(rows?.map((r) => r.action)).toEqual(['lead_created', 'lead_updated', 'lead_deleted']);
      });

      it('keeps a client that quotes name (a foreign key), and deletes one without quotes with an audit row', async () => {
        const { contact_id } = await newQuote(as.admin, { p_contact_name: 'Quoted Client' });
        const refused = await as.admin.client.from('contacts').delete().eq('id', contact_id).select('id');
        expect(refused.error?.code).toBe('23503');
        expect((await service.from('contacts').select('id').eq('id', contact_id)).data).toHaveLength(1);

        const { data: free } = await as.member.client
          .from('contacts').insert({ account_id: as.admin.accountId, name: 'Free Client', email: 'free@client.test' }).select('id').single();
        await as.member.client.from('contacts').update({ address: '1 Main St' }).eq('id', free!.id);
        expect((await as.member.client.from('contacts').delete().eq('id', free!.id).select('id')).data).toHaveLength(1);
        const rows = (await service.from('audit_logs').select('action').eq('resource_id', free!.id).order('created_at')).data;
        expect(rows?.map((r) => r.action)).toEqual(['contact_created', 'contact_updated', 'contact_deleted']);
      });

      it('still deletes a whole account whose clients have quotes', async () => {
        const doomed = await signUpFreshAdmin(backend, 'records-doomed');
        await newQuote(doomed, { p_contact_name: 'Cascade Client' });
        const { error } = await service.from('accounts').delete().eq('id', doomed.accountId);
        expect(error).toBeNull();
        expect((await service.from('contacts').select('id').eq('account_id', doomed.accountId)).data).toEqual([]);
      });
    });

    describe('client_directory_figures', () => {
      it('sums signed quotes per currency, never across currencies, with the last contact; for staff only', async () => {
        const first = await newQuote(as.admin, { p_contact_name: 'Revenue Client', p_contact_email: 'revenue@client.test' }, 'USD', 523800);
        const contactId = first.contact_id;
        const args = (currency: string, cents: number) => ({
          p_contact_id: contactId, p_description: 'More', p_unit_price: cents, p_quantity: 1, p_currency: currency,
        });
        const eur = (await as.admin.client.rpc('create_client_quote', args('EUR', 135000)).single<{ id: string }>()).data!;
        await as.admin.client.rpc('create_client_quote', args('USD', 99999)); // a draft: not revenue
        // Signing is the quote page's (server) path: the service role.
        for (const id of [first.id, eur.id]) expect((await service.from('quotes').update({ status: 'signed' }).eq('id', id)).error).toBeNull();

        for (const role of STAFF) {
          const { data, error } = await as[role].client.rpc('client_directory_figures', { p_contact_ids: [contactId] });
          expect(error, role).toBeNull();
          expect(data, role).toHaveLength(1);
          expect(data![0].revenue, role).toEqual({ USD: 523800, EUR: 135000 });
          const latest = (await service.from('audit_logs').select('created_at').eq('resource_id', eur.id).order('created_at', { ascending: false }).limit(1).single()).data!;
          expect(new Date(data![0].last_contact_at).getTime(), role).toBe(new Date(latest.created_at).getTime());
        }
        for (const member of [as.client, as.supplier, outsider]) {
          const { data } = await member.client.rpc('client_directory_figures', { p_contact_ids: [contactId] });
          expect(data ?? [], member.role).toEqual([]);
        }
      });
    });
  });
}
