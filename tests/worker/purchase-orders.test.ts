// /purchase-orders through the real Worker and backend (issue 36), without
// JavaScript (plain posts): create with line items (a line added by Conform's
// list intent answered by the server, nothing saved until Create), the list
// finds it by search and status; the record page sends, confirms, receives a
// part per line and then the rest (an inbound shipment each time), and cancels
// another; bad input is a 400 with its error; another account's order is a 404.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_NORTHWIND_ADMIN } from '../support/accounts';
import { signIn, type Visitor } from './support/app';
import { serviceClient } from './support/backend';
import { demoAdmin, page, readable } from './support/module-screens';

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

const unique = () => `${Date.now()}${Math.random().toString(36).slice(2, 6)}`;
const intent = (value: unknown) => JSON.stringify(value);

function valid(supplier = `Acme Parts ${unique()}`): Record<string, string> {
  return {
    supplier_name: supplier,
    supplier_email: 'orders@acme.example',
    currency: 'EUR',
    expected_on: '2099-01-31',
    notes: 'Deliver to dock 2',
    'items[0].description': 'Bolts M8',
    'items[0].quantity': '100',
    'items[0].unit_price': '0.25',
    'items[1].description': 'Brackets',
    'items[1].quantity': '4',
    'items[1].unit_price': '12.50',
  };
}

async function create(fields = valid()) {
  const response = await visitor.post('/purchase-orders?new', fields);
  expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(302);
  const { data } = await serviceClient()
    .from('purchase_orders')
    .select('*, items:purchase_order_items(id, description, qty, unit_price, total, received_qty, position)')
    .eq('supplier_name', fields.supplier_name)
    .single();
  return data as { id: string; po_number: string; status: string; total: number; items: { id: string; description: string; qty: number; received_qty: number; position: number }[] };
}

describe('/purchase-orders', () => {
  it('adds a line without JavaScript (nothing saved), creates the order with its lines, and the list finds it by search and status', async () => {
    const fields = valid();
    const adding = await visitor.post('/purchase-orders?new', {
      ...fields,
      __intent__: intent({ type: 'insert', payload: { name: 'items', defaultValue: { description: '', quantity: '1', unit_price: '' } } }),
    });
    expect(adding.status).toBe(200);
    const html = await adding.text();
    expect(html).toContain('name="items[2].description"');
    expect(html).toContain('>Bolts M8</textarea>');
    const { data: none } = await serviceClient().from('purchase_orders').select('id').eq('supplier_name', fields.supplier_name);
    expect(none).toEqual([]);

    const po = await create(fields);
    expect(po.po_number).toMatch(/^PO-\d{4}-\d{4,}$/);
    expect(po.status).toBe('draft');
    expect(po.total).toBe(100 * 25 + 4 * 1250);
    expect(po.items.sort((a, b) => a.position - b.position).map((i) => i.description)).toEqual(['Bolts M8', 'Brackets']);
    const q = encodeURIComponent(fields.supplier_name);
    expect(readable(await page(visitor, `/purchase-orders?q=${q}`))).toContain(po.po_number);
    expect(readable(await page(visitor, `/purchase-orders?q=${q}&status=draft`))).toContain(po.po_number);
    expect(readable(await page(visitor, `/purchase-orders?q=${q}&status=sent`))).not.toContain(po.po_number);
  });

  it('refuses bad input with a 400 and its error, nothing stored', async () => {
    const fields = valid();
    const noLines = Object.fromEntries(Object.entries(fields).filter(([key]) => !key.startsWith('items')));
    const refused = await visitor.post('/purchase-orders?new', noLines);
    expect(refused.status).toBe(400);
    expect(readable(await refused.text())).toContain('Add at least one line item');
    const badQty = await visitor.post('/purchase-orders?new', { ...fields, 'items[0].quantity': '0' });
    expect(badQty.status).toBe(400);
    expect(readable(await badQty.text())).toContain('Quantity must be at least 1');
    const { data } = await serviceClient().from('purchase_orders').select('id').eq('supplier_name', fields.supplier_name);
    expect(data).toEqual([]);
  });

  it("a purchase order's page: send, confirm, receive a part per line, then the rest; another is cancelled", async () => {
    const po = await create();
    const path = `/purchase-orders/${po.id}`;
    expect(readable(await page(visitor, path))).toContain(po.po_number);
    expect((await visitor.post(path, { intent: 'send' })).status).toBe(302);
    expect((await visitor.post(path, { intent: 'confirm' })).status).toBe(302);
    const [bolts, brackets] = po.items.sort((a, b) => a.position - b.position);
    // More than is outstanding: refused, nothing recorded.
    const over = await visitor.post(path, { intent: 'receive', [`received.${bolts.id}`]: '101' });
    expect(over.status).toBe(400);
    expect((await visitor.post(path, { intent: 'receive', [`received.${bolts.id}`]: '60', [`received.${brackets.id}`]: '0' })).status).toBe(302);
    const db = serviceClient();
    const after = async () => (await db.from('purchase_orders').select('status, items:purchase_order_items(id, received_qty)').eq('id', po.id).single()).data!;
    let state = await after();
    expect(state.status).toBe('confirmed');
    expect(state.items.find((i) => i.id === bolts.id)?.received_qty).toBe(60);
    expect((await visitor.post(path, { intent: 'receive-all' })).status).toBe(302);
    state = await after();
    expect(state.status).toBe('received');
    expect(state.items.every((i) => i.received_qty > 0)).toBe(true);
    const { data: shipments } = await db.from('shipments').select('direction, status').eq('purchase_order_id', po.id);
    expect(shipments).toHaveLength(2);
    expect(shipments!.every((s) => s.direction === 'inbound' && s.status === 'Delivered')).toBe(true);

    const other = await create();
    expect((await visitor.post(`/purchase-orders/${other.id}`, { intent: 'cancel' })).status).toBe(302);
    expect((await db.from('purchase_orders').select('status').eq('id', other.id).single()).data!.status).toBe('cancelled');
  });

  it("another account's purchase order is a 404, by page and by post", async () => {
    const po = await create();
    const northwind = await signIn(DEMO_NORTHWIND_ADMIN);
    expect((await northwind.get(`/purchase-orders/${po.id}`)).status).toBe(404);
    expect((await northwind.post(`/purchase-orders/${po.id}`, { intent: 'cancel' })).status).toBe(404);
    expect((await serviceClient().from('purchase_orders').select('status').eq('id', po.id).single()).data!.status).toBe('draft');
  });
});
