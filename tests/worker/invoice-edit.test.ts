// A draft invoice's edit page through the built Worker, as a browser without
// JavaScript uses it: /invoices/:id/edit (lines added, removed and moved by
// Conform's list intents posted as plain forms, then saved), bad input, an
// invoice that left draft, each role, and other accounts' ids.
import { beforeAll, describe, expect, it } from 'vitest';
import { pageText, Visitor } from './support/app';
import { serviceClient } from './support/backend';
import { readable } from './support/module-screens';
import { freshTeam } from './support/settings';

type Team = Awaited<ReturnType<typeof freshTeam>>;
let team: Team;
let other: Team;

beforeAll(async () => {
  [team, other] = await Promise.all([freshTeam(), freshTeam()]);
}, 120_000);

const day = (offset = 0) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A draft of the account with one line (1 × €10.00). */
async function draft(accountId: string, status = 'draft') {
  const db = serviceClient();
  const { data: invoice, error } = await db
    .from('invoices')
    .insert({ account_id: accountId, client_name: 'Ivy Client', client_email: 'ivy@invoice-edit.test', currency: 'EUR', due_date: day(30), status })
    .select('id, invoice_number')
    .single();
  if (error) throw error;
  const item = await db.from('invoice_items').insert({ invoice_id: invoice.id, description: 'Starter line', qty: 1, unit_price: 1000, total: 0 });
  if (item.error) throw item.error;
  return { id: invoice.id as string, number: invoice.invoice_number as string };
}

async function stored(id: string) {
  const { data } = await serviceClient()
    .from('invoices')
    .select('status, due_date, notes, tax_rate, discount, subtotal, discount_amount, tax, total')
    .eq('id', id)
    .single();
  return data as Record<string, unknown>;
}

async function lines(id: string) {
  const { data } = await serviceClient().from('invoice_items').select('description, qty, unit_price, total').eq('invoice_id', id).order('position');
  return data as { description: string; qty: number; unit_price: number; total: number }[];
}

const STARTER = [{ description: 'Starter line', qty: 1, unit_price: 1000, total: 1000 }];

/** The edit form as its page renders it, with these lines (description, qty, price). */
function editForm(items: [string, string, string][], changes: Record<string, string> = {}): URLSearchParams {
  const form = new URLSearchParams({ due_date: day(14), notes: 'Net 14', tax_rate: '20', discount: '10' });
  items.forEach(([description, quantity, price], i) => {
    form.set(`items[${i}].description`, description);
    form.set(`items[${i}].quantity`, quantity);
    form.set(`items[${i}].unit_price`, price);
  });
  for (const [name, value] of Object.entries(changes)) form.set(name, value);
  return form;
}

/** A list intent button as Conform renders it (name __intent__, its JSON as the value). */
const intent = (value: unknown) => ['__intent__', JSON.stringify(value)] as const;

const post = (visitor: Visitor, path: string, form: URLSearchParams) => visitor.post(path, Object.fromEntries(form) as Record<string, string>);

/** The value of an input, as the page renders it. */
function inputValue(html: string, name: string): string | undefined {
  const tag = new RegExp(`<(?:input|textarea)[^>]*name="${name.replace(/[[\].]/g, '\\$&')}"[^>]*>([^<]*)`).exec(html);
  if (!tag) return undefined;
  const value = /value="([^"]*)"/.exec(tag[0]);
  return value ? value[1] : tag[1];
}

describe('/invoices/:id/edit without JavaScript', () => {
  it('is linked from a draft\'s page; adds, moves and removes lines by list intents, keeping what was typed, then saves', async () => {
    const invoice = await draft(team.accountId);
    const path = `/invoices/${invoice.id}/edit`;
    expect(await pageText(await team.admin.visitor.get(`/invoices/${invoice.id}`))).toContain(`href="${path}"`);
    const page = await pageText(await team.admin.visitor.get(path));
    expect(readable(page)).toContain(`Edit ${invoice.number}`);
    expect(inputValue(page, 'items[0].description')).toBe('Starter line');
    expect(inputValue(page, 'items[0].unit_price')).toBe('10.00');
    expect(inputValue(page, 'due_date')).toBe(day(30));
    expect(page).toContain('name="__intent__"');

    // Add a line: the page comes back with a second (empty) line, the first as typed; nothing saved.
    const typed = editForm([['Design work', '2', '50.00']]);
    typed.append(...intent({ type: 'insert', payload: { name: 'items', defaultValue: { description: '', quantity: '1', unit_price: '' } } }));
    const added = await post(team.admin.visitor, path, typed);
    expect(added.status).toBe(200);
    const addedHtml = await pageText(added);
    expect(inputValue(addedHtml, 'items[0].description')).toBe('Design work');
    expect(inputValue(addedHtml, 'items[1].quantity')).toBe('1');
    expect(inputValue(addedHtml, 'notes')).toBe('Net 14');
    expect(addedHtml).toContain('Line 2');
    expect(await lines(invoice.id)).toEqual(STARTER);

    // Three lines, the third moved up to first, then the (now) last removed.
    const three = editForm([['Design work', '2', '50.00'], ['Throwaway', '1', '1'], ['Hosting', '12', '9.99']]);
    three.append(...intent({ type: 'reorder', payload: { name: 'items', from: 2, to: 0 } }));
    const moved = await pageText(await post(team.admin.visitor, path, three));
    expect([0, 1, 2].map((i) => inputValue(moved, `items[${i}].description`))).toEqual(['Hosting', 'Design work', 'Throwaway']);
    const removing = editForm([['Hosting', '12', '9.99'], ['Design work', '2', '50.00'], ['Throwaway', '1', '1']]);
    removing.append(...intent({ type: 'remove', payload: { name: 'items', index: 2 } }));
    const removed = await pageText(await post(team.admin.visitor, path, removing));
    expect(inputValue(removed, 'items[2].description')).toBeUndefined();
    expect(inputValue(removed, 'items[1].description')).toBe('Design work');

    // Save, with a crafted total that is not read.
    const save = editForm([['Hosting', '12', '9.99'], ['Design work', '2', '50.00']], { total: '1', 'items[0].total': '1', subtotal: '5' });
    const saved = await post(team.admin.visitor, path, save);
    expect(saved.status).toBe(302);
    expect(saved.headers.get('Location')).toBe(`/invoices/${invoice.id}`);
    const detail = readable(await pageText(await team.admin.visitor.follow(saved)));
    expect(detail).toContain('Invoice saved');
    expect(await lines(invoice.id)).toEqual([
      { description: 'Hosting', qty: 12, unit_price: 999, total: 11988 },
      { description: 'Design work', qty: 2, unit_price: 5000, total: 10000 },
    ]);
    // 21988 − 10% (2198.8 → 2199) = 19789; + 20% = 3957.8 → 3958; total 23747.
    expect(await stored(invoice.id)).toMatchObject({ due_date: day(14), notes: 'Net 14', subtotal: 21988, discount_amount: 2199, tax: 3958, total: 23747 });
    expect(detail).toContain('€237.47');
    expect(detail).toContain('Discount (10%)');
    // The history names the edit, field by field, the lines included.
    expect(detail).toContain('Updated by');
    expect(detail).toContain(`Due date: ${day(30)} → ${day(14)}`);
    expect(detail).toContain('Line items: 1 × Starter line → 12 × Hosting, 2 × Design work');
  });

  it('refuses bad input with errors under the fields, keeping what was typed and saving nothing', async () => {
    const invoice = await draft(team.accountId);
    const path = `/invoices/${invoice.id}/edit`;
    const cases: [URLSearchParams, string, string | null][] = [
      [editForm([['Priced below zero', '1', '-5']]), 'Unit price must be an amount of at least 0 with up to 2 decimals', 'items[0].unit_price'],
      [editForm([['Too dear', '1', '1000000000.01']]), 'Unit price is too large', 'items[0].unit_price'],
      [editForm([['Too taxed', '1', '5']], { tax_rate: '100.001' }), 'Tax rate must be a percentage from 0 to 100 with up to 2 decimals', 'tax_rate'],
      [editForm([['Over discounted', '1', '5']], { discount: '150' }), 'Discount must be a percentage from 0 to 100 with up to 2 decimals', 'discount'],
      [editForm([['No quantity', '0', '5']]), 'Quantity must be at least 1', 'items[0].quantity'],
      [editForm([['', '1', '5']]), 'Description is required', 'items[0].description'],
      [editForm([['No due date', '1', '5']], { due_date: '' }), 'Due date is required', 'due_date'],
      [editForm([['Bad due date', '1', '5']], { due_date: '2026-02-30' }), 'Due date must be a date', 'due_date'],
      [editForm([]), 'Add at least one line item', null],
      [editForm(Array.from({ length: 101 }, (_, i) => [`Line ${i}`, '1', '1'] as [string, string, string])), 'An invoice has at most 100 line items', null],
    ];
    for (const [form, message, field] of cases) {
      const response = await post(team.admin.visitor, path, form);
      expect(response.status, message).toBe(400);
      const html = await pageText(response);
      expect(readable(html), message).toContain(message);
      if (field) expect(html, message).toMatch(new RegExp(`name="${field.replace(/[[\].]/g, '\\$&')}"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="${field.replace(/[[\].]/g, '\\$&')}"`));
      const first = form.get('items[0].description');
      if (first) expect(inputValue(html, 'items[0].description')).toBe(first);
    }
    // Lines each within bounds whose sum is past the invoice's: the database's refusal, the form kept.
    const huge = editForm(Array.from({ length: 11 }, (_, i) => [`Huge ${i}`, '1000000', '1000000000.00'] as [string, string, string]));
    const refused = await post(team.admin.visitor, path, huge);
    expect(refused.status).toBe(400);
    const refusedHtml = await pageText(refused);
    expect(readable(refusedHtml)).toContain("The invoice's total is too large");
    expect(inputValue(refusedHtml, 'items[0].description')).toBe('Huge 0');
    expect(await lines(invoice.id)).toEqual(STARTER);
    // A list intent that is not one.
    const broken = editForm([['A', '1', '1']]);
    broken.set('__intent__', '{not json');
    expect((await post(team.admin.visitor, path, broken)).status).toBe(400);
  });

  it('sends back an invoice that left draft, saying why; no Edit link on its page; a save is refused', async () => {
    const invoice = await draft(team.accountId);
    const sent = await team.admin.visitor.post(`/invoices/${invoice.id}`, { intent: 'send' });
    expect(sent.status).toBe(302);
    const detail = await pageText(await team.admin.visitor.get(`/invoices/${invoice.id}`));
    expect(detail).not.toContain(`href="/invoices/${invoice.id}/edit"`);
    const edit = await team.admin.visitor.get(`/invoices/${invoice.id}/edit`);
    expect(edit.status).toBe(302);
    expect(edit.headers.get('Location')).toBe(`/invoices/${invoice.id}`);
    expect(readable(await pageText(await team.admin.visitor.follow(edit)))).toContain('Only a draft invoice can be edited.');
    const save = await post(team.admin.visitor, `/invoices/${invoice.id}/edit`, editForm([['Sneaky', '1', '1']]));
    expect(save.status).toBe(302);
    expect(save.headers.get('Location')).toBe(`/invoices/${invoice.id}`);
    expect(readable(await pageText(await team.admin.visitor.follow(save)))).toContain('Only a draft invoice can be edited.');
    expect(await lines(invoice.id)).toEqual(STARTER);
  });
});

describe('who may edit', () => {
  it("is a 404 for a malformed id, an unknown one and another account's invoice, for the page and a save", async () => {
    const foreign = await draft(other.accountId);
    for (const id of ['not-a-uuid', crypto.randomUUID(), foreign.id]) {
      const path = `/invoices/${id}/edit`;
      expect((await team.admin.visitor.get(path)).status, path).toBe(404);
      expect((await post(team.admin.visitor, path, editForm([['Sneaky', '1', '1']]))).status, path).toBe(404);
    }
    expect(await lines(foreign.id)).toEqual(STARTER);
  });

  it('an auditor reads the draft without Edit; the edit page and a save are refused', async () => {
    const invoice = await draft(team.accountId);
    const html = await pageText(await team.auditor.visitor.get(`/invoices/${invoice.id}`));
    expect(html).toContain('Starter line');
    expect(html).not.toContain(`href="/invoices/${invoice.id}/edit"`);
    const edit = await team.auditor.visitor.get(`/invoices/${invoice.id}/edit`);
    expect(edit.status).toBe(302);
    expect(edit.headers.get('Location')).toBe(`/invoices/${invoice.id}`);
    // The refusal re-renders the edit page, whose loader sends a read-only role to the invoice's page.
    const save = await post(team.auditor.visitor, `/invoices/${invoice.id}/edit`, editForm([['A', '1', '1']]));
    expect(save.status).toBe(302);
    expect(save.headers.get('Location')).toBe(`/invoices/${invoice.id}`);
    expect(readable(await pageText(await team.auditor.visitor.follow(save)))).toContain('Your role can view these records but not change them');
    expect(await stored(invoice.id)).toMatchObject({ status: 'draft', subtotal: 1000 });
  });

  it('a client and a supplier get no edit page and save nothing; without a session, sign-in', async () => {
    const invoice = await draft(team.accountId);
    for (const [role, who] of [['client', team.client], ['supplier', team.supplier]] as const) {
      const response = await who.visitor.get(`/invoices/${invoice.id}/edit`);
      expect(response.status, role).not.toBe(200);
      expect(await pageText(response), role).not.toContain('name="__intent__"');
      const save = await post(who.visitor, `/invoices/${invoice.id}/edit`, editForm([['Sneaky', '1', '1']]));
      expect(save.status, role).not.toBe(200);
    }
    const anonymous = new Visitor();
    for (const response of [await anonymous.get(`/invoices/${invoice.id}/edit`), await post(anonymous, `/invoices/${invoice.id}/edit`, editForm([['A', '1', '1']]))]) {
      expect(response.status).toBe(302);
      expect(response.headers.get('Location')).toMatch(/^\/auth/);
    }
    expect(await lines(invoice.id)).toEqual(STARTER);
  });
});
