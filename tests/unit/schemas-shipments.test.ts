import { describe, expect, it } from 'vitest';
import { CARRIERS, newShipmentSchema } from '../../app/features/shipments/schema.ts';
import { errorsOf, valueOf } from './support/schemas.ts';

const valid = { origin: 'Hamburg', destination: 'Oslo', carrier: 'dhl', weight: '12.5', description: 'Parts' };

describe('new shipment form', () => {
  it('offers the carriers fedex, ups, dhl, usps and other', () => {
    expect(CARRIERS).toEqual(['fedex', 'ups', 'dhl', 'usps', 'other']);
  });

  it('accepts the required fields and keeps the optional ones optional', () => {
    expect(valueOf(newShipmentSchema, valid)).toEqual({ ...valid, weight: 12.5 });
  });

  it('requires origin, destination, weight and description', () => {
    const errors = errorsOf(newShipmentSchema, { carrier: 'ups' });
    expect(Object.keys(errors).sort()).toEqual(['description', 'destination', 'origin', 'weight']);
    expect(errors.weight).toEqual(['Weight is required']);
  });

  it('refuses a weight of zero and an unknown carrier', () => {
    const errors = errorsOf(newShipmentSchema, { ...valid, weight: '0', carrier: 'pigeon' });
    expect(errors.weight).toEqual(['Weight must be more than 0 kg']);
    expect(errors.carrier).toEqual(['Choose a carrier']);
  });
});
