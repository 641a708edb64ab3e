// The public tracking page /track/:tracking_number through the Worker (issue
// 36): without a session it shows the status, the timeline and the seller's
// name, cached for a minute at the edge, and nothing else of the account; an
// unknown or malformed number is a 404 that says the same for every account.
// The seller's logo is served from our origin at /track/:number/logo: each
// number its own account's, none (404, no <img>) without one or for a wrong number.
// Tracking has its own per-IP limiter: using it up leaves the quote links'
// budget whole, and the other way round.
import { describe, expect, it } from 'vitest';
import { DEMO_NORTHWIND_ADMIN } from '../support/accounts';
import { logoJpeg, logoPng } from '../support/logo-samples';
import { pageText, signUpFreshAdmin, Visitor } from './support/app';
import { accountOf, serviceClient } from './support/backend';
import { readable } from './support/module-screens';

async function shipmentOf(accountId: string): Promise<string> {
  const { data, error } = await serviceClient()
    .from('shipments')
    .insert({ account_id: accountId, origin: 'Berlin', destination: 'Lyon', weight: 1, description: 'Parts' })
    .select('tracking_number')
    .single();
  if (error) throw error;
  return data.tracking_number as string;
}

/** A fresh account whose admin uploaded this logo on Settings → Account; its id. */
async function accountWithLogo(bytes: Uint8Array, name: string, type: string): Promise<string> {
  const admin = await signUpFreshAdmin();
  const form = new FormData();
  form.set('intent', 'upload-logo');
  form.set('logo', new File([bytes.slice()], name, { type }));
  expect((await admin.visitor.post('/settings/account', form)).status).toBe(302);
  return (await accountOf(admin.email)).accountId;
}

describe('/track/:tracking_number', () => {
  it('shows status, timeline and the seller name without a session, publicly cached; unknown is a 404', async () => {
    const { accountId } = await accountOf(DEMO_NORTHWIND_ADMIN.email);
    const db = serviceClient();
    const { data: shipment } = await db
      .from('shipments')
      .insert({ account_id: accountId, origin: 'Secret Origin Street 1', destination: 'Lyon', weight: 3, description: 'Private goods description', special_instructions: 'Private note' })
      .select('id, tracking_number')
      .single();
    await db.from('tracking_events').insert({
      account_id: accountId, shipment_id: shipment!.id, occurred_at: new Date().toISOString(), status: 'In Transit', location: 'Paris, FR',
      description: 'Arrived at sorting hub', source: 'manual',
    });
    const { data: account } = await db.from('accounts').select('name').eq('id', accountId).single();

    const anonymous = new Visitor();
    const response = await anonymous.get(`/track/${shipment!.tracking_number.toLowerCase()}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('public, s-maxage=60');
    const text = readable(await response.text());
    expect(text).toContain(shipment!.tracking_number);
    expect(text).toContain('Arrived at sorting hub');
    expect(text).toContain(`Shipped by ${account!.name}`);
    for (const secret of ['Secret Origin Street 1', 'Private goods description', 'Private note']) expect(text).not.toContain(secret);

    const unknown = await anonymous.get('/track/SHP-NOSUCHNUMBER9');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('Cache-Control')).toContain('no-store');
    expect(readable(await unknown.text())).toContain('No shipment with this tracking number.');
    expect((await anonymous.get('/track/%3Cscript%3E')).status).toBe(404);
  });

  it("serves each number's own seller's logo, shown on the page; none without a logo or for a wrong number", async () => {
    const [pngNumber, jpegNumber, bareNumber] = [
      await shipmentOf(await accountWithLogo(logoPng(), 'logo.png', 'image/png')),
      await shipmentOf(await accountWithLogo(logoJpeg(), 'logo.jpg', 'image/jpeg')),
      await shipmentOf((await accountOf(DEMO_NORTHWIND_ADMIN.email)).accountId),
    ];
    const anonymous = new Visitor();
    const png = await anonymous.get(`/track/${pngNumber}/logo`);
    expect(png.status).toBe(200);
    expect(png.headers.get('Content-Type')).toBe('image/png');
    expect(png.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(new Uint8Array(await png.arrayBuffer())).toEqual(logoPng());
    const jpeg = await anonymous.get(`/track/${jpegNumber.toLowerCase()}/logo`);
    expect(jpeg.headers.get('Content-Type')).toBe('image/jpeg');
    expect(new Uint8Array(await jpeg.arrayBuffer())).toEqual(logoJpeg());

    const page = await pageText(await anonymous.get(`/track/${pngNumber}`));
    expect(page).toContain(`<img src="/track/${pngNumber}/logo"`);
    expect(page).not.toContain('logo.png');

    for (const path of [`/track/${bareNumber}/logo`, '/track/SHP-NOSUCHNUMBER9/logo', '/track/%3Cscript%3E/logo']) {
      const refused = await anonymous.get(path);
      expect(refused.status, path).toBe(404);
      expect(refused.headers.get('Content-Type'), path).toBe('text/plain; charset=utf-8');
    }
    expect(await pageText(await anonymous.get(`/track/${bareNumber}`))).not.toContain('/logo"');
  });
});

describe('the per-IP limits of tracking and of quote links', () => {
  /** Calls `path` from `ip` until it answers 429 (the limiter's windows follow the clock's minutes). */
  async function exhaust(path: string, ip: string, most: number) {
    const visitor = new Visitor();
    let response = await visitor.get(path, { 'CF-Connecting-IP': ip });
    for (let n = 1; response.status !== 429 && n <= most; n++) {
      expect(response.status, path).toBe(404);
      response = await visitor.get(path, { 'CF-Connecting-IP': ip });
    }
    expect(response.status, path).toBe(429);
    return visitor;
  }

  // Malformed numbers and tokens: counted, then refused before any database call.
  it('a visitor who used up tracking still opens quote links from the same IP, and the other way round', async () => {
    const tracker = await exhaust('/track/x/logo', '203.0.113.61', 121);
    expect((await tracker.get('/track/x', { 'CF-Connecting-IP': '203.0.113.61' })).status).toBe(429);
    expect((await tracker.get('/q/short/logo', { 'CF-Connecting-IP': '203.0.113.61' })).status).toBe(404);

    const signer = await exhaust('/q/short/logo', '203.0.113.62', 61);
    expect((await signer.get('/track/x/logo', { 'CF-Connecting-IP': '203.0.113.62' })).status).toBe(404);
    expect((await signer.get('/track/x', { 'CF-Connecting-IP': '203.0.113.62' })).status).toBe(404);
  });
});
