// /shipments (docs/product-guide.md): three sample shipments, one per status.
import type { Carrier, ShipmentStatus } from './schema';

export interface SampleShipment {
  id: string;
  trackingNumber: string;
  origin: string;
  destination: string;
  status: ShipmentStatus;
  carrier: Carrier;
  estimatedDelivery: string;
  /** Kilograms. */
  weightKg: number;
}

export const SAMPLE_SHIPMENTS: SampleShipment[] = [
  {
    id: 'shp-1',
    trackingNumber: 'TRK-2025-001847',
    origin: 'Shanghai, CN',
    destination: 'Los Angeles, US',
    status: 'In Transit',
    carrier: 'dhl',
    estimatedDelivery: '2025-01-22',
    weightKg: 1250,
  },
  {
    id: 'shp-2',
    trackingNumber: 'TRK-2025-001848',
    origin: 'Hamburg, DE',
    destination: 'New York, US',
    status: 'Delivered',
    carrier: 'fedex',
    estimatedDelivery: '2025-01-12',
    weightKg: 540,
  },
  {
    id: 'shp-3',
    trackingNumber: 'TRK-2025-001849',
    origin: 'Chicago, US',
    destination: 'Toronto, CA',
    status: 'Processing',
    carrier: 'ups',
    estimatedDelivery: '2025-01-28',
    weightKg: 85.5,
  },
];

export const SHIPMENT_SUMMARY = {
  active: 24,
  activeNote: '+3 since yesterday',
  inTransit: 12,
  inTransitNote: 'Across 4 carriers',
  deliveredThisMonth: 156,
  deliveredNote: '+18% from last month',
  onTimeRate: '96.5%',
  onTimeNote: 'Last 30 days',
};
