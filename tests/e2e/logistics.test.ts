// Logistics end to end in Chromium, JavaScript on and off (issue 36, decision
// 077): the Northwind demo admin (whose mail goes through the platform's
// sender, so the local outbox holds it) creates a purchase order and sends it (the supplier is
// mailed the PDF); the supplier, invited to the account, confirms it in their
// portal and ships it with a tracking number; the admin rotates the carrier
// hook on Settings → Integrations; two carrier events posted by the test in
// EasyPost's and AfterShip's formats, signed with that secret, bring the
// shipment to Delivered; the admin receives the order (on that same shipment); the public tracking
// page shows it without a session.
import { createClient } from '@supabase/supabase-js';
import { describe, expect, inject, it } from 'vitest';
import { signCarrierBody, SIGNATURE_HEADER, type CarrierProvider } from '../../app/features/shipments/carriers/signatures.ts';
import { DEMO_NORTHWIND_ADMIN, uniqueEmail } from '../support/accounts.ts';
import { readOutbox } from '../support/confirmation-mail.ts';
import { browserForFile, newVisitor, waitForToast } from './support/browser.ts';
import { invitationLinkFor, signInThroughForm } from './support/people.ts';
import { runJobs, serviceRest } from './support/quotes.ts';

const browser = browserForFile();
const baseURL = inject('appUrl');

async function postCarrierEvent(path: string, provider: CarrierProvider, secret: string, body: unknown): Promise<number> {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  const response = await fetch(new URL(path, baseURL), {
    method: 'POST',
    body: bytes,
    headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER[provider]]: await signCarrierBody(provider, secret, bytes) },
  });
  return response.status;
}

/** Invites `email` as a supplier of Northwind through the real invite-user function; the link from the outbox. */
async function inviteSupplier(email: string): Promise<string> {
  const admin = createClient(inject('backendUrl'), inject('anonKey'), { auth: { persistSession: false, autoRefreshToken: false } });
  const { error: signInError } = await admin.auth.signInWithPassword(DEMO_NORTHWIND_ADMIN);
  if (signInError) throw signInError;
  const { error } = await admin.functions.invoke('invite-user', { body: { email, role: 'supplier', first_name: 'Sam', last_name: 'Supplier' } });
  if (error) throw error;
  return invitationLinkFor(inject('backendUrl'), email);
}

/** The mail to `email`, waited for: the action's kick of the jobs runner may still be sending it. */
async function mailTo(email: string): Promise<{ subject: string }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = (await readOutbox(inject('backendUrl'))).find((m) => m.to === email);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

for (const javaScript of [true, false]) {
  describe(`logistics with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    it('purchase order → sent → confirmed by the supplier → shipped → carrier events → received → public tracking', async () => {
      const label = `${javaScript ? 'js' : 'nojs'}${Date.now().toString(36)}`;
      const supplierEmail = uniqueEmail('e2e-supplier');
      const supplierName = `Harbour Parts ${label}`;
      const admin = await newVisitor(browser(), { javaScript, baseURL });
      const { page } = admin;
      await signInThroughForm(page, DEMO_NORTHWIND_ADMIN);

      // Create with one line, without the line editor's extras.
      await page.goto('/purchase-orders?new');
      const dialog = page.getByRole('dialog', { name: 'Create Purchase Order' });
      await dialog.getByLabel('Supplier', { exact: true }).fill(supplierName);
      await dialog.getByLabel('Supplier email (optional)').fill(supplierEmail);
      await dialog.getByLabel('Description').first().fill('Brass fittings');
      await dialog.getByLabel('Quantity').first().fill('12');
      await dialog.getByLabel('Unit price').first().fill('4.50');
      await dialog.getByRole('button', { name: 'Create Purchase Order' }).click();
      await waitForToast(page, 'Purchase order created');
      const [po] = await serviceRest<{ id: string; po_number: string }[]>(`purchase_orders?select=id,po_number&supplier_name=eq.${encodeURIComponent(supplierName)}`);

      // Send: the supplier is mailed the order with its PDF (by the jobs runner).
      await page.goto(`/purchase-orders/${po.id}`);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await waitForToast(page, 'Purchase order marked sent');
      await runJobs();
      expect((await mailTo(supplierEmail)).subject).toContain(po.po_number);

      // The supplier joins, confirms and ships in their portal.
      const link = await inviteSupplier(supplierEmail);
      const supplier = await newVisitor(browser(), { javaScript, baseURL });
      await supplier.page.goto(new URL(link).pathname);
      await supplier.page.getByLabel('Password', { exact: true }).fill('supplier-pass');
      await supplier.page.getByLabel('Confirm password').fill('supplier-pass');
      await supplier.page.getByRole('button', { name: 'Create Account' }).click();
      await supplier.page.waitForURL('**/portal');
      await supplier.page.getByRole('link', { name: 'Purchase orders' }).click();
      await supplier.page.getByRole('link', { name: `Open ${po.po_number}` }).click();
      await supplier.page.getByRole('heading', { level: 1, name: po.po_number }).waitFor();
      await supplier.page.getByRole('button', { name: 'Confirm order' }).click();
      await waitForToast(supplier.page, 'Purchase order confirmed');
      const tracking = `1ZE2E${label.toUpperCase()}`.slice(0, 30);
      await supplier.page.getByLabel('Tracking number', { exact: true }).fill(tracking);
      await supplier.page.getByLabel('Carrier').selectOption('ups');
      await supplier.page.getByLabel('Weight').fill('4');
      await supplier.page.getByRole('button', { name: 'Add shipment' }).click();
      await waitForToast(supplier.page, 'Shipment added');
      await supplier.page.getByText(tracking, { exact: true }).waitFor();

      // The carrier hook: rotated by the admin, its secret shown once.
      await page.goto('/settings/integrations');
      await page.getByRole('button', { name: /^(Create carrier hook|Rotate token and secret)$/ }).click();
      const secret = (await page.getByTestId('carrier-hook-secret').textContent())!.trim();
      const hookUrl = (await page.getByText('/hooks/carriers/easypost/').textContent())!.trim();
      const token = hookUrl.split('/').at(-1)!;

      // Two carrier events in each provider's format, signed with the secret.
      const earlier = new Date(Date.now() - 60_000);
      expect(
        await postCarrierEvent(`/hooks/carriers/easypost/${token}`, 'easypost', secret, {
          id: `evt_${crypto.randomUUID()}`, object: 'Event', mode: 'test', description: 'tracker.updated', created_at: earlier.toISOString(),
          result: {
            id: 'trk_e2e', object: 'Tracker', tracking_code: tracking, status: 'in_transit', carrier: 'UPS',
            tracking_details: [{ object: 'TrackingDetail', message: 'Departed facility', status: 'in_transit', datetime: earlier.toISOString(), tracking_location: { city: 'Rotterdam', state: null, country: 'NL' } }],
          },
        }),
      ).toBe(200);
      const now = new Date();
      expect(
        await postCarrierEvent(`/hooks/carriers/aftership/${token}`, 'aftership', secret, {
          event: 'tracking_update', event_id: crypto.randomUUID(), is_tracking_first_tag: false, ts: Math.floor(now.getTime() / 1000),
          msg: {
            id: 'as-e2e', tracking_number: tracking, slug: 'ups', tag: 'Delivered', subtag: 'Delivered_001',
            checkpoints: [{ checkpoint_time: now.toISOString(), message: 'Delivered to the warehouse dock', location: 'Oslo, NOR', tag: 'Delivered' }],
          },
        }),
      ).toBe(200);

      // Received in full by the admin.
      await page.goto(`/purchase-orders/${po.id}`);
      await page.getByRole('button', { name: 'Receive all' }).click();
      await waitForToast(page, 'Receipt recorded');
      const [received] = await serviceRest<{ status: string }[]>(`purchase_orders?select=status&id=eq.${po.id}`);
      expect(received.status).toBe('received');
      // The supplier's shipment took the receipt: no second inbound shipment (decision 084).
      const ofOrder = await serviceRest<{ tracking_number: string; status: string }[]>(`shipments?select=tracking_number,status&purchase_order_id=eq.${po.id}`);
      expect(ofOrder).toEqual([{ tracking_number: tracking, status: 'Delivered' }]);

      // The public tracking page, without a session.
      const visitor = await newVisitor(browser(), { javaScript, baseURL });
      await visitor.page.goto(`/track/${tracking}`);
      await visitor.page.getByRole('heading', { level: 1, name: new RegExp(tracking) }).waitFor();
      const shown = await visitor.page.getByRole('main').textContent();
      expect(shown).toContain('Delivered');
      expect(shown).toContain('Delivered to the warehouse dock');
      expect(shown).toContain('Departed facility');
      expect(admin.errors.concat(supplier.errors, visitor.errors)).toEqual([]);
      await Promise.all([admin.context.close(), supplier.context.close(), visitor.context.close()]);
    });
  });
}
