// The supplier portal's forms (decision 077): confirm an order, ship it with
// the carrier's tracking number, correct a shipment's tracking number.
import { z } from '~/lib/schemas/zod';
import { oneOf } from '~/lib/schemas/fields';
import { CARRIERS, WEIGHT_UNITS } from '~/features/shipments/schema';

const trackingNumber = z
  .string({ error: "Enter the carrier's tracking number" })
  .trim()
  .regex(/^[A-Za-z0-9-]{4,40}$/, "Enter the carrier's tracking number (4 to 40 letters, digits or hyphens)");

export const shipOrderSchema = z.object({
  intent: z.literal('ship'),
  tracking_number: trackingNumber,
  carrier: oneOf(CARRIERS, 'Carrier').default('fedex'),
  weight: z.number({ error: 'Weight is required' }).positive('Weight must be more than 0').max(100_000, 'Weight must be at most 100,000'),
  weight_unit: oneOf(WEIGHT_UNITS, 'Weight unit').default('kg'),
});

export const supplierActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('confirm') }),
  shipOrderSchema,
  z.object({
    intent: z.literal('tracking'),
    shipment_id: z.uuid({ error: 'Shipment not found' }),
    tracking_number: trackingNumber,
  }),
]);
