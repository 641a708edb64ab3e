// New shipment (spec §3, issue 36): origin, destination, weight with its unit
// and description required; carrier from the list; dimensions 'L × W × H cm'
// (each positive, in cm or in) and the rest optional. A tracking event added
// by hand, and the shipment page's intents.
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

export const SHIPMENT_STATUSES = ['Processing', 'In Transit', 'Delivered', 'Exception'] as const;
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];
export const SHIPMENT_STATUS_OPTIONS: Option<ShipmentStatus>[] = SHIPMENT_STATUSES.map((value) => ({ value, label: value }));

export const WEIGHT_UNITS = ['kg', 'lb'] as const;
export const WEIGHT_UNIT_OPTIONS: Option<(typeof WEIGHT_UNITS)[number]>[] = WEIGHT_UNITS.map((value) => ({ value, label: value }));

const DIMENSIONS = /^(\d{1,6}(?:\.\d{1,2})?)\s*[x×*]\s*(\d{1,6}(?:\.\d{1,2})?)\s*[x×*]\s*(\d{1,6}(?:\.\d{1,2})?)\s*(cm|in)$/i;

/** '120 × 80 × 100 cm' → each side and the unit; each side more than 0. */
export function parseDimensions(text: string) {
  const match = DIMENSIONS.exec(text.trim());
  if (!match) return null;
  const [length, width, height] = [match[1], match[2], match[3]].map(Number);
  if (!(length > 0 && width > 0 && height > 0)) return null;
  return { length, width, height, unit: match[4].toLowerCase() as 'cm' | 'in' };
}

export const newShipmentSchema = z.object({
  origin: requiredText('Origin'),
  destination: requiredText('Destination'),
  carrier: oneOf(CARRIERS, 'Carrier').default('fedex'),
  weight: z
    .number({ error: 'Weight is required' })
    .positive('Weight must be more than 0')
    .max(100_000, 'Weight must be at most 100,000'),
  weight_unit: oneOf(WEIGHT_UNITS, 'Weight unit').default('kg'),
  dimensions: optionalText('Dimensions', 100).refine((value) => !value || parseDimensions(value) !== null, {
    message: 'Enter the dimensions as length × width × height and cm or in, e.g. 120 × 80 × 100 cm',
  }),
  description: requiredText('Description', 2000),
  special_instructions: optionalText('Special instructions'),
});

export type NewShipment = z.output<typeof newShipmentSchema>;

export const trackingEventSchema = z.object({
  intent: z.literal('event'),
  status: oneOf(SHIPMENT_STATUSES, 'Status'),
  occurred_at: z
    .string({ error: 'Enter when it happened' })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/, 'Enter when it happened'),
  location: optionalText('Location', 200),
  description: requiredText('Description', 1000),
});

export const shipmentActionSchema = z.discriminatedUnion('intent', [
  trackingEventSchema,
  z.object({ intent: z.literal('deliver') }),
]);
