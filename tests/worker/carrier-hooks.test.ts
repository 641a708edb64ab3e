// POST /hooks/carriers/<provider>/<token> through the Worker (issue 36,
// decision 061): bodies in EasyPost's (Event with a Tracker) and AfterShip's
// (tracking_update) documented formats, signed as each provider signs them,
// move the shipment; a replay is stored once; a wrong signature, a stale
// event, an over-1 MB body, an unknown token or tracking number are refused
// with nothing stored.
import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { signCarrierBody, SIGNATURE_HEADER, type CarrierProvider } from '../../app/features/shipments/carriers/signatures.ts';
import { DEMO_NORTHWIND_ADMIN } from '../support/accounts';
import { ORIGIN } from './support/app';
import { accountOf, serviceClient, userClient } from './support/backend';

let token: string;
let secret: string;
let accountId: string;

beforeAll(async () => {
  const admin = await userClient(DEMO_NORTHWIND_ADMIN.email, DEMO_NORTHWIND_ADMIN.password);
  const { data, error } = await admin.rpc('rotate_carrier_hook');
  if (error) throw error;
  ({ token, secret } = (data as { token: string; secret: string }[])[0]);
  ({ accountId } = await accountOf(DEMO_NORTHWIND_ADMIN.email));
});

async function newShipment(): Promise<{ id: string; tracking_number: string }> {
  const { data, error } = await serviceClient()
    .from('shipments')
    .insert({ account_id: accountId, origin: 'Hamburg', destination: 'Lyon', weight: 3, description: 'Hook test goods' })
    .select('id, tracking_number')
    .single();
  if (error) throw error;
  return data as { id: string; tracking_number: string };
}

async function post(provider: CarrierProvider, body: string, options: { secret?: string; token?: string; signature?: string } = {}) {
  const bytes = new TextEncoder().encode(body);
  const signature = options.signature ?? (await signCarrierBody(provider, options.secret ?? secret, bytes));
  return exports.default.fetch(
    new Request(`${ORIGIN}/hooks/carriers/${provider}/${options.token ?? token}`, {
      method: 'POST',
      body: bytes,
      headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER[provider]]: signature },
    }),
  );
}

/** EasyPost's Event wrapping a Tracker (https://docs.easypost.com/docs/webhooks, Tracker object). */
const easypost = (tracking: string, id: string, status: string, at = new Date()) =>
  JSON.stringify({
    id,
    object: 'Event',
    mode: 'test',
    description: 'tracker.updated',
    created_at: at.toISOString(),
    result: {
      id: 'trk_123',
      object: 'Tracker',
      tracking_code: tracking,
      status,
      carrier: 'USPS',
      est_delivery_date: '2099-01-02T00:00:00Z',
      tracking_details: [
        { object: 'TrackingDetail', message: 'Shipment picked up', status: 'pre_transit', datetime: new Date(at.getTime() - 3_600_000).toISOString(), tracking_location: { city: 'Hamburg', state: null, country: 'DE' } },
        { object: 'TrackingDetail', message: 'Arrived at facility', status, datetime: at.toISOString(), tracking_location: { city: 'Paris', state: null, country: 'FR' } },
      ],
    },
  });

/** AfterShip's tracking webhook (https://www.aftership.com/docs/tracking/webhook). */
const aftership = (tracking: string, eventId: string, tag: string, at = new Date()) =>
  JSON.stringify({
    event: 'tracking_update',
    event_id: eventId,
    is_tracking_first_tag: false,
    ts: Math.floor(at.getTime() / 1000),
    msg: {
      id: 'as-1',
      tracking_number: tracking,
      slug: 'dhl',
      tag,
      subtag: `${tag}_001`,
      expected_delivery: '2099-01-03',
      checkpoints: [{ checkpoint_time: at.toISOString(), message: tag === 'Delivered' ? 'Delivered to the receptionist' : 'In transit', location: 'Lyon, FRA', tag }],
    },
  });

const events = async (shipmentId: string) =>
  (await serviceClient().from('tracking_events').select('provider, provider_event_id, status').eq('shipment_id', shipmentId)).data ?? [];
const statusOf = async (shipmentId: string) => (await serviceClient().from('shipments').select('status').eq('id', shipmentId).single()).data!.status as string;

describe('POST /hooks/carriers/<provider>/<token>', () => {
  it('takes an EasyPost event then an AfterShip delivery, each once, and the shipment ends Delivered', async () => {
    const shipment = await newShipment();
    const first = await post('easypost', easypost(shipment.tracking_number, `evt_${crypto.randomUUID()}`, 'in_transit', new Date(Date.now() - 60_000)));
    expect(first.status, await first.clone().text()).toBe(200);
    expect(await first.json()).toMatchObject({ stored: true });
    expect(await statusOf(shipment.id)).toBe('In Transit');

    const delivered = aftership(shipment.tracking_number, crypto.randomUUID(), 'Delivered');
    expect((await post('aftership', delivered)).status).toBe(200);
    const replay = await post('aftership', delivered);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ stored: false, duplicate: true });
    expect(await statusOf(shipment.id)).toBe('Delivered');
    expect((await events(shipment.id)).map((e) => `${e.provider}:${e.status}`).sort()).toEqual(['aftership:Delivered', 'easypost:In Transit']);
  });

  it('refuses a wrong signature, a stale event, an over-1 MB body, an unknown token or tracking number, storing nothing', async () => {
    const shipment = await newShipment();
    const body = aftership(shipment.tracking_number, crypto.randomUUID(), 'InTransit');
    expect((await post('aftership', body, { secret: 'not-the-secret-0123456789abcdef0123' })).status).toBe(401);
    expect((await post('easypost', easypost(shipment.tracking_number, 'evt_x', 'in_transit'), { signature: 'hmac-sha256-hex=00' })).status).toBe(401);
    expect((await post('aftership', body, { token: 'a'.repeat(32) })).status).toBe(401);
    const stale = aftership(shipment.tracking_number, crypto.randomUUID(), 'InTransit', new Date(Date.now() - 3_600_000));
    expect((await post('aftership', stale)).status).toBe(401);
    const huge = JSON.stringify({ event: 'tracking_update', pad: 'x'.repeat(1024 * 1024) });
    expect((await post('aftership', huge)).status).toBe(413);
    expect((await post('aftership', aftership('SHP-NOSUCHNUMBER1', crypto.randomUUID(), 'InTransit'))).status).toBe(404);
    expect((await post('aftership', '{"event":"tracking_update"}')).status).toBe(400);
    expect((await post('fedex' as CarrierProvider, body)).status).toBe(404);
    expect(await events(shipment.id)).toEqual([]);
    expect(await statusOf(shipment.id)).toBe('Processing');
  });
});
