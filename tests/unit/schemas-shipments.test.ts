import { describe, expect, it } from 'vitest';
import { CARRIERS, newShipmentSchema } from '../../app/features/shipments/schema.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

const valid = { origin: 'Hamburg', destination: 'Oslo', carrier: 'dhl', weight: '12.5', description: 'Parts' };

describe('new shipment form', () => {
  it('offers the carriers fedex, ups, dhl, usps and other', () => {
    expect(CARRIERS).toEqual(['fedex', 'ups', 'dhl', 'usps', 'other']);
  });

  it('accepts the required fields and keeps the optional ones optional', () => {
    expect(valueOf(newShipmentSchema, valid)).toEqual({ ...valid, weight: 12.5, weight_unit: 'kg' });
  });

  it('requires origin, destination, weight and description', () => {
    const errors = errorsOf(newShipmentSchema, { carrier: 'ups' });
    expect(Object.keys(errors).sort()).toEqual(['description', 'destination', 'origin', 'weight']);
    expect(errors.weight).toEqual(['Weight is required']);
  });

  it('refuses a weight of zero and an unknown carrier', () => {
    const errors = errorsOf(newShipmentSchema, { ...valid, weight: '0', carrier: 'pigeon' });
    expect(errors.weight).toEqual(['Weight must be more than 0']);
    expect(errors.carrier).toEqual(['Choose a carrier']);
  });
});

describe('shipment dimensions and units', () => {
  it('reads L × W × H with cm or in, each side positive', async () => {
    const { parseDimensions } = await import('../../app/features/shipments/schema.ts');
    expect(parseDimensions('120 × 80 × 100 cm')).toEqual({ length: 120, width: 80, height: 100, unit: 'cm' });
    expect(parseDimensions('10x5x2 IN')).toEqual({ length: 10, width: 5, height: 2, unit: 'in' });
    expect(parseDimensions('0 × 80 × 100 cm')).toBeNull();
    expect(parseDimensions('120 × 80 cm')).toBeNull();
    expect(parseDimensions('120 × 80 × 100')).toBeNull();
  });

  it('refuses dimensions without a unit and an unknown weight unit', () => {
    const errors = errorsOf(newShipmentSchema, { ...valid, dimensions: '1 × 2 × 3', weight_unit: 'stone' });
    expect(Object.keys(errors).sort()).toEqual(['dimensions', 'weight_unit']);
  });
});
