// Editing a draft invoice in the database (save_invoice_draft, decision 029
// amended): the lines replaced whole and in order, amounts computed here,
// one audit row naming what changed; only an admin or member of the
// invoice's account, only a draft, bad input refused with nothing written.
// On PGlite, and on PostgreSQL with TEST_POSTGRES_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addMember, anonClient, serviceClient, signUpFreshAdmin, startBackend, type Member, type TestBackend } from './support/backend.ts';

const targets = [
  { name: 'PGlite', on: 'pglite' as const, skip: false },
  { name: 'PostgreSQL', on: 'postgres' as const, skip: !process.env.TEST_POSTGRES_URL },
];

const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A draft of 2 × $125.00 (the New Invoice dialog's one line). */
const invoiceArgs = () => ({
  p_client_name: 'Ivy Client', p_client_email: 'ivy@client.test', p_description: 'Consulting',
  p_unit_price: 12_500, p_quantity: 2, p_currency: 'USD', p_due_date: daysFromNow(30), p_notes: null,
});

interface Line {
  description: string;
  qty: number;
  unit_price: number;
}

function draftArgs(id: string, changes: Record<string, unknown> = {}) {
  return {
    p_invoice_id: id,
    p_due_date: daysFromNow(14),
    p_notes: 'Net 14',
    p_tax_rate: 20,
    p_discount: 10,
    p_items: [
      { description: 'Hosting', qty: 12, unit_price: 999 },
      { description: 'Design work', qty: 2, unit_price: 5_000, total: 1 },
    ] as unknown,
    ...changes,
  };
}

for (const target of targets) {
  describe.skipIf(target.skip)(`draft invoices edited on ${target.name}`, () => {
    let backend: TestBackend;
    let service: SupabaseClient;
    let admin: Member;
    let member: Member;
    let auditor: Member;
    let client: Member;
    let supplier: Member;
    let other: Member;

    const create = async (who: Member = admin) => {
      const { data, error } = await who.client.rpc('create_invoice', invoiceArgs()).single<{ id: string; invoice_number: string }>();
      if (error) throw new Error(error.message);
      return data;
    };
    const read = async (id: string) => (await service.from('invoices').select('*').eq('id', id).single()).data as Record<string, unknown>;
    const lines = async (id: string) =>
      (await service.from('invoice_items').select('description, qty, unit_price, total, position').eq('invoice_id', id).order('position')).data;
    const audit = async (id: string) =>
      (await service.from('audit_logs').select('action, old_values, new_values').eq('resource_id', id).order('created_at')).data ?? [];

    beforeAll(async () => {
      backend = await startBackend({ on: target.on });
      service = serviceClient(backend);
      admin = await signUpFreshAdmin(backend, 'drafts-admin');
      [member, auditor, client, supplier] = await Promise.all(
        (['member', 'auditor', 'client', 'supplier'] as const).map((role) => addMember(backend, admin, role, `drafts-${role}`)),
      );
      other = await signUpFreshAdmin(backend, 'drafts-other');
    });
    afterAll(async () => backend?.stop());

    it('saves the lines in order, due date, notes and rates; totals computed here; one audit row of what changed', async () => {
      const invoice = await create();
      const { data, error } = await admin.client.rpc('save_invoice_draft', draftArgs(invoice.id)).single<Record<string, unknown>>();
      expect(error).toBeNull();
      // 21988 − 10% (2198.8 → 2199) = 19789; + 20% = 3957.8 → 3958; total 23747.
      expect(data).toMatchObject({ status: 'draft', subtotal: 21_988, discount_amount: 2_199, tax: 3_958, total: 23_747, notes: 'Net 14', due_date: daysFromNow(14) });
      expect(await lines(invoice.id)).toEqual([
        { description: 'Hosting', qty: 12, unit_price: 999, total: 11_988, position: 0 },
        { description: 'Design work', qty: 2, unit_price: 5_000, total: 10_000, position: 1 },
      ]);
      expect(await read(invoice.id)).toMatchObject({ subtotal: 21_988, total: 23_747 });
      const rows = await audit(invoice.id);
      expect(rows.map((r) => r.action)).toEqual(['invoice_created', 'invoice_updated']);
      expect(rows[1].old_values).toMatchObject({ subtotal: 25_000, items: [{ description: 'Consulting', qty: 2, unit_price: 12_500 }] });
      expect(rows[1].new_values).toMatchObject({ subtotal: 21_988, total: 23_747, notes: 'Net 14', invoice_number: invoice.invoice_number });

      // Saved again unchanged: no second row. The cards follow the new total.
      expect((await admin.client.rpc('save_invoice_draft', draftArgs(invoice.id))).error).toBeNull();
      expect((await audit(invoice.id)).map((r) => r.action)).toEqual(['invoice_created', 'invoice_updated']);

      // Reordered and cut to one line: the rest go.
      const one = draftArgs(invoice.id, { p_items: [{ description: 'Design work', qty: 1, unit_price: 5_000 }], p_discount: 0, p_tax_rate: 0, p_notes: ' ' });
      const { data: saved } = await member.client.rpc('save_invoice_draft', one).single<Record<string, unknown>>();
      expect(saved).toMatchObject({ subtotal: 5_000, total: 5_000, notes: null });
      expect(await lines(invoice.id)).toEqual([{ description: 'Design work', qty: 1, unit_price: 5_000, total: 5_000, position: 0 }]);
    });

    it('lets an admin or member save; refuses an auditor, client, supplier and anonymous, writing nothing', async () => {
      const invoice = await create();
      expect((await member.client.rpc('save_invoice_draft', draftArgs(invoice.id))).error).toBeNull();
      const before = await read(invoice.id);
      for (const who of [auditor, client, supplier]) {
        const { error } = await who.client.rpc('save_invoice_draft', draftArgs(invoice.id, { p_notes: 'Sneaky' }));
        expect(error?.code, who.role).toBe('42501');
        expect(error?.message, who.role).toBe("Only the account's admins and members can change invoices");
      }
      const anonymous = await anonClient(backend).rpc('save_invoice_draft', draftArgs(invoice.id, { p_notes: 'Sneaky' }));
      expect(anonymous.error).not.toBeNull();
      expect(await read(invoice.id)).toEqual(before);
    });

    it("answers 'Invoice not found' for another account's invoice or none, writing nothing", async () => {
      const invoice = await create();
      const before = await lines(invoice.id);
      for (const id of [invoice.id, crypto.randomUUID()]) {
        const { error } = await other.client.rpc('save_invoice_draft', draftArgs(id));
        expect(error?.code).toBe('P0002');
        expect(error?.message).toBe('Invoice not found');
      }
      expect(await lines(invoice.id)).toEqual(before);
    });

    it('refuses anything but a draft: sent, paid, void', async () => {
      const sent = await create();
      await admin.client.rpc('send_invoice', { p_invoice_id: sent.id });
      const paid = await create();
      await admin.client.rpc('send_invoice', { p_invoice_id: paid.id });
      await admin.client.rpc('record_payment', { p_invoice_id: paid.id, p_amount: 25_000, p_paid_on: daysFromNow(0) });
      const voided = await create();
      await admin.client.rpc('void_invoice', { p_invoice_id: voided.id });
      for (const invoice of [sent, paid, voided]) {
        const { error } = await admin.client.rpc('save_invoice_draft', draftArgs(invoice.id));
        expect(error?.message).toBe('Only a draft invoice can be edited');
        expect(error?.code).toBe('22023');
        expect((await lines(invoice.id))?.map((l) => l.description)).toEqual(['Consulting']);
      }
      expect((await read(sent.id)).status).toBe('sent');
    });

    it('refuses bad input with a message, writing nothing', async () => {
      const invoice = await create();
      const item = (changes: Partial<Line> | Record<string, unknown>) => [{ description: 'Line', qty: 1, unit_price: 100, ...changes }];
      const cases: [Record<string, unknown>, string][] = [
        [{ p_due_date: null }, 'Due date is required'],
        [{ p_tax_rate: 100.5 }, 'Tax rate must be a percentage'],
        [{ p_tax_rate: 1.005 }, 'Tax rate must be a percentage'],
        [{ p_discount: -1 }, 'Discount must be a percentage'],
        [{ p_notes: 'x'.repeat(5001) }, 'Notes must be at most 5000 characters'],
        [{ p_items: [] }, 'An invoice needs at least one line item'],
        [{ p_items: null }, 'An invoice needs at least one line item'],
        [{ p_items: Array.from({ length: 101 }, () => item({})[0]) }, 'An invoice has at most 100 line items'],
        [{ p_items: ['Line'] }, 'Line item 1 is not an item'],
        [{ p_items: item({ description: '  ' }) }, 'Line item 1: description is required'],
        [{ p_items: item({ description: 'x'.repeat(2001) }) }, 'at most 2000 characters'],
        [{ p_items: item({ qty: 0 }) }, 'quantity must be a whole number'],
        [{ p_items: item({ qty: 1.5 }) }, 'quantity must be a whole number'],
        [{ p_items: item({ qty: '2' }) }, 'quantity must be a whole number'],
        [{ p_items: [...item({}), ...item({ unit_price: -1 })] }, 'Line item 2: unit price must be whole cents'],
        [{ p_items: item({ unit_price: 10.5 }) }, 'unit price must be whole cents'],
        [{ p_items: item({ unit_price: 100_000_000_001 }) }, 'unit price must be whole cents'],
        // Each line within bounds, the sum past the invoice's.
        [{ p_items: Array.from({ length: 11 }, () => item({ qty: 1_000_000, unit_price: 100_000_000_000 })[0]) }, "The invoice's total is too large"],
      ];
      const before = { invoice: await read(invoice.id), lines: await lines(invoice.id) };
      for (const [changes, message] of cases) {
        const { error } = await admin.client.rpc('save_invoice_draft', draftArgs(invoice.id, changes));
        expect(error?.message, JSON.stringify(changes).slice(0, 80)).toContain(message);
      }
      expect({ invoice: await read(invoice.id), lines: await lines(invoice.id) }).toEqual(before);
      expect((await audit(invoice.id)).map((r) => r.action)).toEqual(['invoice_created']);
    });

    it('the invoice functions keep their refusals on the shared gate', async () => {
      const invoice = await create();
      await admin.client.rpc('send_invoice', { p_invoice_id: invoice.id });
      await admin.client.rpc('record_payment', { p_invoice_id: invoice.id, p_amount: 25_000, p_paid_on: daysFromNow(0) });
      expect((await admin.client.rpc('void_invoice', { p_invoice_id: invoice.id })).error?.message).toBe('A paid invoice cannot be voided');
      expect((await admin.client.rpc('send_invoice', { p_invoice_id: invoice.id })).error?.message).toBe('A paid invoice cannot be sent');
      const voided = await create();
      expect((await admin.client.rpc('void_invoice', { p_invoice_id: voided.id })).error).toBeNull();
      const again = await admin.client.rpc('void_invoice', { p_invoice_id: voided.id });
      expect([again.error?.code, again.error?.message]).toEqual(['22023', 'This invoice is already void']);
      expect((await admin.client.rpc('send_invoice', { p_invoice_id: voided.id })).error?.message).toBe('A void invoice cannot be sent');
      expect((await auditor.client.rpc('void_invoice', { p_invoice_id: invoice.id })).error?.code).toBe('42501');
      expect((await other.client.rpc('send_invoice', { p_invoice_id: invoice.id })).error?.message).toBe('Invoice not found');
    });
  });
}
