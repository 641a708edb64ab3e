// New shipment (docs/product-guide.md): origin, destination, weight and
// description required; carrier from the list; the rest optional.
import { z } from '~/lib/schemas/zod';
import { oneOf, optionalText, requiredText, type Option } from '~/lib/schemas/fields';

export const CARRIERS = ['fedex', 'ups', 'dhl', 'usps', 'other'] as const;
export type Carrier = (typeof CARRIERS)[number];
export const CARRIER_LABELS: Record<Carrier, string> = {
  fedex: 'FedEx',
  ups: 'UPS',
  dhl: 'DHL',
  usps: 'USPS',
  other: 'Other',
};
export const CARRIER_OPTIONS: Option<Carrier>[] = CARRIERS.map((value) => ({ value, label: CARRIER_LABELS[value] }));

export const SHIPMENT_STATUSES = ['Processing', 'In Transit', 'Delivered'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

export const newShipmentSchema = z.object({
  origin: requiredText('Origin'),
  destination: requiredText('Destination'),
  carrier: oneOf(CARRIERS, 'Carrier').default('fedex'),
  weight: z
    .number({ error: 'Weight is required' })
    .positive('Weight must be more than 0 kg')
    .max(100_000, 'Weight must be at most 100,000 kg'),
  dimensions: optionalText('Dimensions', 100),
  description: requiredText('Description', 2000),
  special_instructions: optionalText('Special instructions'),
});

export type NewShipment = z.output<typeof newShipmentSchema>;
