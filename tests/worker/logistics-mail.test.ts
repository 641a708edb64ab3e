// Logistics mail through the real Worker and jobs runner, read back from the
// local outbox (decision 077): Send mails the supplier the purchase order
// with its PDF (the seller's details as on quotes); a shipment's exception and
// its delivery each tell its owner once, however often the runner ticks.
import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { uniqueEmail } from '../support/accounts';
import { signUpFreshAdmin, type Visitor } from './support/app';
import { accountOf, outbox, serviceClient } from './support/backend';

const worker = exports.default as unknown as { scheduled(event: { cron: string; scheduledTime: number }): Promise<void> };
const runCron = () => worker.scheduled({ cron: '* * * * *', scheduledTime: Date.now() });

interface Mail {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; contentType: string; content: string }[];
}
const mailsTo = async (email: string) => ((await outbox()) as unknown as Mail[]).filter((m) => m.to.toLowerCase() === email.toLowerCase());

let visitor: Visitor;
let adminEmail: string;
let accountId: string;
beforeAll(async () => {
  const admin = await signUpFreshAdmin({ first_name: 'Pia', last_name: 'Buyer', company_name: 'Shipwell GmbH' });
  visitor = admin.visitor;
  adminEmail = admin.email;
  accountId = (await accountOf(admin.email)).accountId;
  const { error } = await serviceClient()
    .from('accounts')
    .update({ name: 'Shipwell GmbH', address_line1: 'Hafenstrasse 5', postal_code: '20457', city: 'Hamburg', country: 'DE', tax_id: 'DE123456789' })
    .eq('id', accountId);
  if (error) throw new Error(error.message);
}, 120_000);

async function pdfText(base64: string): Promise<string> {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return (await extractText(await getDocumentProxy(bytes), { mergePages: true })).text;
}

describe('logistics mail', () => {
  it('Send mails the supplier the purchase order with its PDF, once; Send again mails again', async () => {
    const supplier = uniqueEmail('supplier');
    const created = await visitor.post('/purchase-orders?new', {
      supplier_name: 'Bolt & Nut Co',
      supplier_email: supplier,
      currency: 'EUR',
      expected_on: '2099-03-31',
      notes: '',
      'items[0].description': 'Hex bolts M8',
      'items[0].quantity': '200',
      'items[0].unit_price': '0.40',
    });
    expect(created.status).toBe(302);
    const { data: po } = await serviceClient().from('purchase_orders').select('id, po_number').eq('supplier_email', supplier).single();
    const path = `/purchase-orders/${po!.id}`;
    // The request only queues: nothing is mailed until the runner runs.
    expect((await visitor.post(path, { intent: 'send' })).status).toBe(302);
    await runCron();
    await runCron();
    const mails = await mailsTo(supplier);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Purchase order ${po!.po_number} from Shipwell GmbH`);
    expect(mails[0].text).toContain('Hafenstrasse 5');
    const [pdf] = mails[0].attachments ?? [];
    expect(pdf).toMatchObject({ filename: `${po!.po_number}.pdf`, contentType: 'application/pdf' });
    const text = await pdfText(pdf.content);
    expect(text).toContain('Purchase Order');
    expect(text).toContain(po!.po_number);
    expect(text).toContain('Shipwell GmbH');
    expect(text).toContain('DE123456789');
    expect(text).toContain('Hex bolts M8');
    expect(text).toContain('€80.00');

    expect((await visitor.post(path, { intent: 'send' })).status).toBe(302);
    // Other files' runners share the queue meanwhile: a tick may find the job claimed, so tick until it went (a few at most).
    for (let tick = 0; tick < 10 && (await mailsTo(supplier)).length < 2; tick++) await runCron();
    expect(await mailsTo(supplier)).toHaveLength(2);
    await runCron();
    expect(await mailsTo(supplier)).toHaveLength(2);
  });

  it("a shipment's exception and its delivery each tell its owner once", async () => {
    const destination = `Bergen ${Date.now()}`;
    const created = await visitor.post('/shipments?new', {
      origin: 'Hamburg, DE', destination, carrier: 'dhl', weight: '12', weight_unit: 'kg', dimensions: '', description: 'Spare parts', special_instructions: '',
    });
    expect(created.status).toBe(302);
    const { data: shipment } = await serviceClient().from('shipments').select('id, tracking_number').eq('destination', destination).single();
    const path = `/shipments/${shipment!.id}`;
    const ahead = new Date(Date.now() + 60_000).toISOString().slice(0, 16);
    expect((await visitor.post(path, { intent: 'event', status: 'Exception', occurred_at: ahead, location: 'Kiel', description: 'Address not found' })).status).toBe(302);
    await runCron();
    await runCron();
    const about = async (word: string) => (await mailsTo(adminEmail)).filter((m) => m.subject.includes(shipment!.tracking_number) && m.subject.includes(word));
    const exception = await about('exception');
    expect(exception).toHaveLength(1);
    expect(exception[0].text).toContain('Address not found, Kiel');
    expect(exception[0].text).toContain(`http://ops-hub.test/track/${shipment!.tracking_number}`);

    expect((await visitor.post(path, { intent: 'deliver' })).status).toBe(302);
    await runCron();
    await runCron();
    expect(await about('delivered')).toHaveLength(1);
    // Delivered again by hand is refused; the mail is not sent twice.
    expect((await visitor.post(path, { intent: 'deliver' })).status).toBe(400);
    await runCron();
    expect(await about('delivered')).toHaveLength(1);
  });
});
