// /shipments through the real Worker and backend (issue 36): the New Shipment
// dialog of spec §3 creates one (no JavaScript: plain posts), the record table
// finds it by search and status, the cards count from SQL; a shipment's page
// shows its tracking timeline, takes an event by hand and Mark delivered; bad
// input is a 400 with its error; another account's shipment is a 404.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_AUDITOR, DEMO_NORTHWIND_ADMIN } from '../support/accounts';
import { signIn, type Visitor } from './support/app';
import { serviceClient } from './support/backend';
import { demoAdmin, expectRefused, page, readable, selectedOption, without } from './support/module-screens';

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

const unique = () => `${Date.now()}${Math.random().toString(36).slice(2, 6)}`;
const valid = () => ({
  origin: 'Rotterdam, NL',
  destination: `Oslo ${unique()}`,
  carrier: 'dhl',
  weight: '120.5',
  weight_unit: 'kg',
  dimensions: '120 × 80 × 100 cm',
  description: 'Two pallets of spare parts',
  special_instructions: '',
});

async function create(fields = valid()): Promise<{ id: string; tracking_number: string; destination: string }> {
  const response = await visitor.post('/shipments?new', fields);
  expect(response.status, (await response.clone().text()).slice(0, 300)).toBe(302);
  expect(response.headers.get('Location')).toBe('/shipments');
  const { data } = await serviceClient().from('shipments').select('id, tracking_number, destination, weight, weight_unit, length, dimension_unit')
    .eq('destination', fields.destination).single();
  return data as { id: string; tracking_number: string; destination: string };
}

describe('/shipments', () => {
  it('shows no sample rows: the account\'s own shipments, and opens New Shipment at ?new with the carriers', async () => {
    const text = readable(await page(visitor, '/shipments'));
    expect(text).not.toContain('TRK-2025-001847');
    expect(text).not.toContain('Sample');
    const html = await page(visitor, '/shipments?new');
    expect(html).toContain('role="dialog"');
    expect(readable(html)).toContain('Create New Shipment');
    expect(selectedOption(html, 'carrier')).toBe('fedex');
    expect(selectedOption(html, 'weight_unit')).toBe('kg');
  });

  it("creates a shipment that is kept, says 'Shipment created successfully!', and the list finds it by search and status", async () => {
    const fields = valid();
    const response = await visitor.post('/shipments?new', fields);
    expect(response.status).toBe(302);
    const list = readable(await (await visitor.follow(response)).text());
    expect(list).toContain('Shipment created successfully!');
    const { data } = await serviceClient().from('shipments').select('*').eq('destination', fields.destination).single();
    expect(data).toMatchObject({ origin: 'Rotterdam, NL', carrier: 'dhl', weight: 120.5, weight_unit: 'kg', length: 120, width: 80, height: 100, dimension_unit: 'cm', status: 'Processing' });
    const found = readable(await page(visitor, `/shipments?q=${encodeURIComponent(fields.destination)}`));
    expect(found).toContain(fields.destination);
    expect(readable(await page(visitor, `/shipments?q=${encodeURIComponent(fields.destination)}&status=Delivered`))).not.toContain(fields.destination);
    expect(readable(await page(visitor, `/shipments?q=${encodeURIComponent(fields.destination)}&status=Processing`))).toContain(fields.destination);
  });

  it('answers each invalid field with a 400 and its error, nothing stored', async () => {
    const path = '/shipments?new';
    const base = valid();
    await expectRefused(visitor, path, without(base, 'origin'), 'origin', 'Origin is required');
    await expectRefused(visitor, path, without(base, 'weight'), 'weight', 'Weight is required');
    await expectRefused(visitor, path, { ...base, weight: '0' }, 'weight', 'Weight must be more than 0');
    await expectRefused(visitor, path, { ...base, weight_unit: 'stone' }, 'weight_unit', 'Choose a weight unit');
    await expectRefused(visitor, path, { ...base, dimensions: '0 × 1 × 2 cm' }, 'dimensions',
      'Enter the dimensions as length × width × height and cm or in, e.g. 120 × 80 × 100 cm');
    await expectRefused(visitor, path, { ...base, carrier: 'pigeon' }, 'carrier', 'Choose a carrier');
    const { data } = await serviceClient().from('shipments').select('id').eq('destination', base.destination);
    expect(data).toEqual([]);
  });

  it("a shipment's page: the timeline, an event by hand (an older one does not move the status back), mark delivered", async () => {
    const shipment = await create();
    const path = `/shipments/${shipment.id}`;
    expect(readable(await page(visitor, path))).toContain('Shipment created');
    const ahead = new Date(Date.now() + 60_000).toISOString().slice(0, 16);
    const older = new Date(Date.now() - 3_600_000).toISOString().slice(0, 16);
    let response = await visitor.post(path, { intent: 'event', status: 'In Transit', occurred_at: ahead, location: 'Hamburg hub', description: 'Departed hub' });
    expect(response.status).toBe(302);
    response = await visitor.post(path, { intent: 'event', status: 'Exception', occurred_at: older, location: '', description: 'Late scan' });
    expect(response.status).toBe(302);
    const text = readable(await page(visitor, path));
    expect(text).toContain('Departed hub');
    expect(text).toContain('Late scan');
    const { data: row } = await serviceClient().from('shipments').select('status').eq('id', shipment.id).single();
    expect(row?.status).toBe('In Transit');
    const refused = await visitor.post(path, { intent: 'event', status: 'In Transit', occurred_at: 'yesterday', description: 'x' });
    expect(refused.status).toBe(400);
    response = await visitor.post(path, { intent: 'deliver' });
    expect(response.status).toBe(302);
    expect(readable(await (await visitor.follow(response)).text())).toContain('Shipment marked delivered');
    const { data: events } = await serviceClient().from('events').select('kind').eq('resource_id', shipment.id);
    expect(events?.map((e) => e.kind)).toEqual(['shipment_delivered']);
  });

  it("an auditor reads but is offered no writes; another account's shipment is a 404", async () => {
    const shipment = await create();
    const auditor = await signIn(DEMO_AUDITOR);
    const html = await page(auditor, `/shipments/${shipment.id}`);
    expect(html).not.toContain('Mark delivered');
    const other = await signIn(DEMO_NORTHWIND_ADMIN);
    expect((await other.get(`/shipments/${shipment.id}`)).status).toBe(404);
    expect((await other.post(`/shipments/${shipment.id}`, { intent: 'deliver' })).status).toBe(404);
    const { data } = await serviceClient().from('shipments').select('status').eq('id', shipment.id).single();
    expect(data?.status).toBe('Processing');
  });
});
