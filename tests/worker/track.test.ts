// The public tracking page /track/:tracking_number through the Worker (issue
// 36): without a session it shows the status, the timeline and the seller's
// name, cached for a minute at the edge, and nothing else of the account; an
// unknown or malformed number is a 404 that says the same for every account.
import { describe, expect, it } from 'vitest';
import { DEMO_NORTHWIND_ADMIN } from '../support/accounts';
import { Visitor } from './support/app';
import { accountOf, serviceClient } from './support/backend';
import { readable } from './support/module-screens';

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
});
