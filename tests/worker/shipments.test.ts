import { beforeAll, describe, expect, it } from 'vitest';
import { type Visitor } from './support/app';
import {
  demoAdmin,
  expectCreated,
  expectRefused,
  page,
  readable,
  selectedOption,
  without,
} from './support/module-screens';

let visitor: Visitor;
beforeAll(async () => {
  visitor = await demoAdmin();
});

const valid = {
  origin: 'Rotterdam, NL',
  destination: 'Oslo, NO',
  carrier: 'dhl',
  weight: '120.5',
  dimensions: '120 × 80 × 100 cm',
  description: 'Two pallets of spare parts',
  special_instructions: '',
};

describe('/shipments', () => {
  it('shows three sample shipments: tracking number, route, status, carrier, ETA and weight', async () => {
    const text = readable(await page(visitor, '/shipments'));
    expect(text).toContain('TRK-2025-001847 Sample In Transit Shanghai, CN → to Los Angeles, US Carrier DHL ETA Jan 22, 2025 Weight 1,250 kg');
    expect(text).toContain('TRK-2025-001848 Sample Delivered Hamburg, DE → to New York, US Carrier FedEx ETA Jan 12, 2025 Weight 540 kg');
    expect(text).toContain('TRK-2025-001849 Sample Processing Chicago, US → to Toronto, CA Carrier UPS ETA Jan 28, 2025 Weight 85.5 kg');
  });

  it('opens New Shipment at /shipments?new with the carrier list', async () => {
    const html = await page(visitor, '/shipments?new');
    expect(html).toContain('role="dialog"');
    expect(readable(html)).toContain('Create New Shipment');
    expect(selectedOption(html, 'carrier')).toBe('fedex');
    const carriers = [...html.matchAll(/<option[^>]*value="(fedex|ups|dhl|usps|other)"[^>]*>([^<]*)</g)].map(([, v, l]) => `${v}:${l}`);
    expect(carriers).toEqual(['fedex:FedEx', 'ups:UPS', 'dhl:DHL', 'usps:USPS', 'other:Other']);
  });

  it("creates a shipment and says 'Shipment created successfully!'", async () => {
    await expectCreated(visitor, '/shipments?new', valid, '/shipments', 'Shipment created successfully!');
  });

  it('answers each invalid field with a 400 and its error', async () => {
    const path = '/shipments?new';
    await expectRefused(visitor, path, without(valid, 'origin'), 'origin', 'Origin is required');
    await expectRefused(visitor, path, without(valid, 'destination'), 'destination', 'Destination is required');
    await expectRefused(visitor, path, without(valid, 'weight'), 'weight', 'Weight is required');
    await expectRefused(visitor, path, { ...valid, weight: '0' }, 'weight', 'Weight must be more than 0 kg');
    await expectRefused(visitor, path, without(valid, 'description'), 'description', 'Description is required');
    await expectRefused(visitor, path, { ...valid, carrier: 'pigeon' }, 'carrier', 'Choose a carrier');
  });
});
