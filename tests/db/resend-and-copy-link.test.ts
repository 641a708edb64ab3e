// Resend and Copy client link on a sent quote and a sent invoice (issue 31,
// decision 047): only admins and members; a resend queues the send job again
// once per request id and at most 5 times an hour; a new link voids the old
// one at once and is audited without the token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anHourLater, anonClient, quoteArgs, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

let backend: TestBackend;
let service: SupabaseClient;
let admin: Member;
let member: Member;
let auditor: Member;
let client: Member;
let supplier: Member;
let stranger: Member;

beforeAll(async () => {
  backend = await startBackend();
  service = serviceClient(backend);
  admin = await signUpFreshAdmin(backend, 'links');
  member = await addMember(backend, admin, 'member');
  auditor = await addMember(backend, admin, 'auditor');
  client = await addMember(backend, admin, 'client');
  supplier = await addMember(backend, admin, 'supplier');
  stranger = await signUpFreshAdmin(backend, 'links-stranger');
});
afterAll(async () => backend?.stop());

async function sentQuote(): Promise<string> {
  const { data, error } = await admin.client.rpc('create_quote', quoteArgs(1000, 2, 'USD', { p_contact_email: client.email })).single<{ id: string }>();
  if (error) throw error;
  const sent = await admin.client.rpc('send_quote', { p_quote_id: data!.id });
  if (sent.error) throw sent.error;
  return data!.id;
}

async function sentInvoice(): Promise<string> {
  const { data, error } = await admin.client
    .rpc('create_invoice', {
      p_client_name: 'Ivy Client', p_client_email: 'ivy@client.test', p_description: 'Consulting',
      p_unit_price: 12_500, p_quantity: 2, p_currency: 'USD',
      p_due_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), p_notes: null,
    })
    .single<{ id: string }>();
  if (error) throw error;
  const sent = await admin.client.rpc('send_invoice', { p_invoice_id: data!.id });
  if (sent.error) throw sent.error;
  return data!.id;
}

async function jobKeys(subject: string, kind: string): Promise<string[]> {
  const { data } = await service.from('jobs').select('idempotency_key').eq('subject_id', subject).eq('kind', kind).order('created_at');
  return (data as { idempotency_key: string }[]).map((row) => row.idempotency_key);
}

async function auditRows(id: string, action: string) {
  const { data } = await service.from('audit_logs').select('*').eq('resource_id', id).eq('action', action);
  return data as Record<string, unknown>[];
}

const kinds = [
  { name: 'quote', make: sentQuote, resend: 'resend_quote', renew: 'renew_quote_link', arg: 'p_quote_id', sendKind: 'quote_send', open: 'open_quote_link' },
  { name: 'invoice', make: sentInvoice, resend: 'resend_invoice', renew: 'renew_invoice_link', arg: 'p_invoice_id', sendKind: 'invoice_send', open: 'public_invoice' },
] as const;

for (const kind of kinds) {
  describe(`a sent ${kind.name}`, () => {
    it('is sent again once per request, five times an hour at most, by admins and members', async () => {
      const id = await kind.make();
      const before = (await jobKeys(id, kind.sendKind)).length;
      const request = randomUUID();
      const first = await member.client.rpc(kind.resend, { [kind.arg]: id, p_request_id: request });
      expect(first.error).toBeNull();
      expect(first.data).toMatch(/@/);
      // The same request posted twice queues one mail.
      expect((await member.client.rpc(kind.resend, { [kind.arg]: id, p_request_id: request })).error).toBeNull();
      expect((await jobKeys(id, kind.sendKind)).length).toBe(before + 1);
      for (let i = 0; i < 4; i += 1) {
        expect((await admin.client.rpc(kind.resend, { [kind.arg]: id, p_request_id: randomUUID() })).error).toBeNull();
      }
      const sixth = await admin.client.rpc(kind.resend, { [kind.arg]: id, p_request_id: randomUUID() });
      expect(sixth.error?.code).toBe('54000');
      expect(sixth.error?.message).toContain('5 times in the last hour');
      expect((await jobKeys(id, kind.sendKind)).length).toBe(before + 5);
      const audited = await auditRows(id, `${kind.name}_resent`);
      expect(audited).toHaveLength(5);
      expect(audited.map((row) => row.user_id).sort()).toEqual([admin.userId, admin.userId, admin.userId, admin.userId, member.userId].sort());
      // Counted by private.hit_rate_limit in one-hour windows: the next hour it may be sent again.
      await anHourLater(backend, `${kind.name}_resend:${id}`);
      expect((await admin.client.rpc(kind.resend, { [kind.arg]: id, p_request_id: randomUUID() })).error).toBeNull();
    });

    it('refuses auditors, outsiders, other accounts and anon; changes nothing', async () => {
      const id = await kind.make();
      const before = (await jobKeys(id, kind.sendKind)).length;
      for (const who of [auditor, client, supplier, stranger]) {
        const resent = await who.client.rpc(kind.resend, { [kind.arg]: id, p_request_id: randomUUID() });
        expect(resent.error, `${who.role} resend`).not.toBeNull();
        expect(['42501', 'P0002']).toContain(resent.error!.code);
        const renewed = await who.client.rpc(kind.renew, { [kind.arg]: id });
        expect(renewed.error, `${who.role} renew`).not.toBeNull();
        expect(['42501', 'P0002']).toContain(renewed.error!.code);
      }
      const anon = anonClient(backend);
      expect((await anon.rpc(kind.resend, { [kind.arg]: id, p_request_id: randomUUID() })).error).not.toBeNull();
      expect((await anon.rpc(kind.renew, { [kind.arg]: id })).error).not.toBeNull();
      expect((await jobKeys(id, kind.sendKind)).length).toBe(before);
      expect(await auditRows(id, `${kind.name}_link_renewed`)).toHaveLength(0);
    });

    it('gets a new client link: the old one is void at once, the audit row names who and never the token', async () => {
      const id = await kind.make();
      const anon = anonClient(backend);
      const first = await member.client.rpc(kind.renew, { [kind.arg]: id });
      expect(first.error).toBeNull();
      const oldToken = first.data as string;
      expect(oldToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const opened = (await anon.rpc(kind.open, { p_token: oldToken })).data as Record<string, unknown> | null;
      if (kind.name === 'quote') expect(opened).toMatchObject({ state: 'open' });
      else expect(opened).toMatchObject({ status: 'sent' });

      const second = await admin.client.rpc(kind.renew, { [kind.arg]: id });
      expect(second.error).toBeNull();
      const newToken = second.data as string;
      expect(newToken).not.toBe(oldToken);
      const dead = (await anon.rpc(kind.open, { p_token: oldToken })).data as Record<string, unknown> | null;
      if (kind.name === 'quote') expect(dead).toMatchObject({ state: 'not_found' });
      else expect(dead).toBeNull();
      const live = (await anon.rpc(kind.open, { p_token: newToken })).data as Record<string, unknown> | null;
      expect(live).not.toBeNull();
      if (kind.name === 'quote') expect(live).toMatchObject({ state: 'open' });

      const audited = await auditRows(id, `${kind.name}_link_renewed`);
      expect(audited.map((row) => row.user_id).sort()).toEqual([admin.userId, member.userId].sort());
      expect(audited.every((row) => row.actor_kind === 'user')).toBe(true);
      const { data: all } = await service.from('audit_logs').select('*').eq('resource_id', id);
      const text = JSON.stringify(all);
      expect(text).not.toContain(oldToken);
      expect(text).not.toContain(newToken);
    });
  });
}

describe('what has no link', () => {
  it('a draft quote or invoice is refused, with a clear message', async () => {
    const { data: quote } = await admin.client.rpc('create_quote', quoteArgs(1000, 1)).single<{ id: string }>();
    const renewed = await admin.client.rpc('renew_quote_link', { p_quote_id: quote!.id });
    expect(renewed.error?.message).toBe('Only a sent quote has a client link');
    const resent = await admin.client.rpc('resend_quote', { p_quote_id: quote!.id, p_request_id: randomUUID() });
    expect(resent.error?.message).toBe('Only a sent quote can be sent again');
  });
});
