// The supplier's portal through the real Worker (issue 36, decision 077),
// without JavaScript (plain posts): a supplier invited to the account sees
// only the purchase orders addressed to their email, confirms one, ships it
// with the carrier's tracking number and corrects it; another supplier's
// order is a 404 by page and by post, nothing changed. Settings → Integrations
// shows the carrier hook's URLs on SITE_URL and rotates it, the secret once.
// Staff receiving the shipped order deliver the supplier's shipment; the
// order's PDF downloads for staff and its supplier, a 404 for another's.
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpFreshAdmin, type Visitor } from './support/app';
import { accountOf, serviceClient } from './support/backend';
import { page, readable } from './support/module-screens';
import { joinAs } from './support/settings';

let admin: Visitor;
let accountId: string;
let supplier: { visitor: Visitor; email: string };
let mine: { id: string; po_number: string };
let theirs: { id: string; po_number: string };

async function sentOrder(email: string, name: string) {
  const created = await admin.post('/purchase-orders?new', {
    supplier_name: name,
    supplier_email: email,
    currency: 'USD',
    expected_on: '',
    notes: '',
    'items[0].description': 'Copper wire',
    'items[0].quantity': '10',
    'items[0].unit_price': '3.00',
  });
  expect(created.status).toBe(302);
  const { data } = await serviceClient().from('purchase_orders').select('id, po_number').eq('supplier_name', name).single();
  expect((await admin.post(`/purchase-orders/${data!.id}`, { intent: 'send' })).status).toBe(302);
  return data as { id: string; po_number: string };
}

beforeAll(async () => {
  const signedUp = await signUpFreshAdmin();
  admin = signedUp.visitor;
  accountId = (await accountOf(signedUp.email)).accountId;
  supplier = await joinAs(accountId, 'supplier');
  const other = await joinAs(accountId, 'supplier');
  // The order's email matches the supplier's login whatever its case.
  mine = await sentOrder(supplier.email.toUpperCase(), `Wireworks ${Date.now()}`);
  theirs = await sentOrder(other.email, `Cableco ${Date.now()}`);
}, 120_000);

describe('supplier portal', () => {
  it('lists only the orders addressed to the supplier; the staff screens stay closed', async () => {
    const list = readable(await page(supplier.visitor, '/portal/orders'));
    expect(list).toContain(mine.po_number);
    expect(list).not.toContain(theirs.po_number);
    expect(readable(await page(supplier.visitor, `/portal/orders/${mine.id}`))).toContain('Copper wire');
    expect((await supplier.visitor.get(`/portal/orders/${theirs.id}`)).status).toBe(404);
    expect((await supplier.visitor.get(`/purchase-orders/${mine.id}`)).status).not.toBe(200);
    // Staff do not use the supplier's page to confirm (they are sent to their dashboard, nothing changed).
    expect((await admin.post(`/portal/orders/${mine.id}`, { intent: 'confirm' })).headers.get('Location')).toBe('/dashboard');
    expect((await serviceClient().from('purchase_orders').select('status').eq('id', mine.id).single()).data!.status).toBe('sent');
  });

  it("confirms, ships with a tracking number and corrects it; another supplier's order is a 404", async () => {
    const path = `/portal/orders/${mine.id}`;
    expect((await supplier.visitor.post(path, { intent: 'confirm' })).status).toBe(302);
    const db = serviceClient();
    expect((await db.from('purchase_orders').select('status').eq('id', mine.id).single()).data!.status).toBe('confirmed');

    expect((await supplier.visitor.post(`/portal/orders/${theirs.id}`, { intent: 'confirm' })).status).toBe(404);
    expect((await db.from('purchase_orders').select('status').eq('id', theirs.id).single()).data!.status).toBe('sent');
    const refusedShip = await supplier.visitor.post(`/portal/orders/${theirs.id}`, { intent: 'ship', tracking_number: `X${Date.now()}`, carrier: 'ups', weight: '2', weight_unit: 'kg' });
    expect(refusedShip.status).toBe(404);

    const bad = await supplier.visitor.post(path, { intent: 'ship', tracking_number: 'no spaces!', carrier: 'ups', weight: '2', weight_unit: 'kg' });
    expect(bad.status).toBe(400);
    expect(readable(await bad.text())).toContain("Enter the carrier's tracking number");

    const number = `1Z${Date.now()}`;
    expect((await supplier.visitor.post(path, { intent: 'ship', tracking_number: number, carrier: 'ups', weight: '2.5', weight_unit: 'kg' })).status).toBe(302);
    const { data: shipment } = await db.from('shipments').select('id, tracking_number, carrier, direction, status, purchase_order_id').eq('tracking_number', number).single();
    expect(shipment).toMatchObject({ carrier: 'ups', direction: 'inbound', status: 'Processing', purchase_order_id: mine.id });
    expect(readable(await page(supplier.visitor, path))).toContain(number);

    const corrected = `1Z${Date.now()}B`;
    expect((await supplier.visitor.post(path, { intent: 'tracking', shipment_id: shipment!.id, tracking_number: corrected })).status).toBe(302);
    expect((await db.from('shipments').select('tracking_number').eq('id', shipment!.id).single()).data!.tracking_number).toBe(corrected.toUpperCase());
    // The public tracking page follows the new number.
    expect((await supplier.visitor.get(`/track/${corrected}`)).status).toBe(200);

    // Staff receive it: the supplier's shipment takes the receipt and is delivered, no second one (decision 084).
    expect((await admin.post(`/purchase-orders/${mine.id}`, { intent: 'receive-all' })).status).toBe(302);
    const { data: ofOrder } = await db.from('shipments').select('id, status').eq('purchase_order_id', mine.id);
    expect(ofOrder).toEqual([{ id: shipment!.id, status: 'Delivered' }]);
  });

  it("the order's PDF for staff and its supplier, the mail's renderer; another supplier's order is a 404", async () => {
    for (const who of [supplier.visitor, admin]) {
      const pdf = await who.get(`/purchase-orders/${mine.id}/pdf`);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('Content-Type')).toBe('application/pdf');
      expect(pdf.headers.get('Content-Disposition')).toContain(`${mine.po_number}.pdf`);
      expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
    }
    expect((await supplier.visitor.get(`/purchase-orders/${theirs.id}/pdf`)).status).toBe(404);
    expect((await supplier.visitor.get('/purchase-orders/not-an-id/pdf')).status).toBe(404);
    expect(readable(await page(supplier.visitor, `/portal/orders/${mine.id}`))).toContain('Download PDF');
  });

  it('the New Purchase Order form offers the account\'s supplier logins only and addresses the order to the one chosen', async () => {
    const db = serviceClient();
    const member = await joinAs(accountId, 'member');
    const dialog = readable(await page(admin, '/purchase-orders?new'));
    expect(dialog).toContain('Supplier login (optional)');
    expect(dialog).toContain(supplier.email);
    expect(dialog).not.toContain(member.email);
    const form = (name: string, login: string) => ({
      supplier_name: name, supplier_email: '', supplier_user_id: login, currency: 'USD', expected_on: '', notes: '',
      'items[0].description': 'Copper wire', 'items[0].quantity': '1', 'items[0].unit_price': '3.00',
    });
    const { data: users } = await db.from('users').select('id, email').in('email', [supplier.email, member.email]);
    const idOf = (email: string) => users!.find((u) => u.email === email)!.id;
    const refused = await admin.post('/purchase-orders?new', form(`Refused ${Date.now()}`, idOf(member.email)));
    expect(refused.status).toBe(400);
    expect(readable(await refused.text())).toContain("Choose one of the account's suppliers");
    expect((await admin.post('/purchase-orders?new', form(`Garbled ${Date.now()}`, 'not-an-id'))).status).toBe(400);
    const name = `Chosen ${Date.now()}`;
    expect((await admin.post('/purchase-orders?new', form(name, idOf(supplier.email)))).status).toBe(302);
    const { data: po } = await db.from('purchase_orders').select('supplier_user_id, supplier_email').eq('supplier_name', name).single();
    expect(po).toEqual({ supplier_user_id: idOf(supplier.email), supplier_email: supplier.email.toLowerCase() });
  });

  it("Integrations shows the carrier hook's URLs on the site's origin; rotating shows the secret once", async () => {
    let html = await page(admin, '/settings/integrations');
    expect(readable(html)).toContain('Carrier tracking hook');
    expect(readable(html)).toContain('No carrier hook yet');
    const rotated = await admin.post('/settings/integrations/carrier-hook', { intent: 'rotate' }, { 'X-Forwarded-Host': 'evil.example' });
    expect(rotated.status).toBe(200);
    const shown = await rotated.text();
    const secret = /data-testid="carrier-hook-secret"[^>]*>([^<]+)</.exec(shown)?.[1];
    expect(secret).toMatch(/^[a-z0-9]{64}$/);
    expect(shown).toMatch(/http:\/\/ops-hub\.test\/hooks\/carriers\/easypost\/[a-z0-9]{32}/);
    expect(shown).not.toContain('evil.example');
    html = await page(admin, '/settings/integrations');
    expect(html).toMatch(/http:\/\/ops-hub\.test\/hooks\/carriers\/aftership\/[a-z0-9]{32}/);
    expect(html).not.toContain(secret!);
    // Only admins rotate.
    const member = await joinAs(accountId, 'member');
    expect((await member.visitor.post('/settings/integrations/carrier-hook', { intent: 'rotate' })).status).toBe(403);
  });
});
