// What the Shipments screens say (spec §3, issue 36).
export const SHIPMENT_TEXTS = {
  title: 'Shipments',
  description: 'Track purchase orders from shipment to delivery.',
  newButton: 'New Shipment',
  dialogTitle: 'Create New Shipment',
  dialogDescription: 'Book a shipment: where from, where to, the carrier and what goes in it.',
  listHeading: 'Recent Shipments',
  searchLabel: 'Search shipments',
  noun: 'shipments',
  created: 'Shipment created successfully!',
  createFailed: 'Failed to create shipment',
  loadFailed: 'Failed to fetch shipments',
  empty: 'No shipments yet. Create your first shipment to start tracking it.',
  noMatch: 'No shipments match your search.',
} as const;

export const SHIPMENT_DETAIL_TEXTS = {
  back: 'Back to shipments',
  notFound: 'Shipment not found',
  eventAdded: 'Tracking event added',
  eventFailed: 'Failed to add the tracking event',
  delivered: 'Shipment marked delivered',
  deliverFailed: 'Failed to mark the shipment delivered',
} as const;
