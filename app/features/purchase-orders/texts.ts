// What the Purchase orders screens say (issue 36).
export const PO_TEXTS = {
  title: 'Purchase Orders',
  description: 'Order from suppliers, send the order, and record what arrives.',
  newButton: 'New Purchase Order',
  dialogTitle: 'Create Purchase Order',
  dialogDescription: 'The supplier, what you order from them and at what price.',
  listHeading: 'Purchase Orders',
  searchLabel: 'Search purchase orders',
  noun: 'purchase orders',
  created: 'Purchase order created',
  createFailed: 'Failed to create the purchase order',
  loadFailed: 'Failed to fetch purchase orders',
  empty: 'No purchase orders yet. Create your first one to order from a supplier.',
  noMatch: 'No purchase orders match your search.',
} as const;

export const PO_DETAIL_TEXTS = {
  back: 'Back to purchase orders',
  notFound: 'Purchase order not found',
  sent: 'Purchase order marked sent',
  confirmed: 'Purchase order confirmed',
  cancelled: 'Purchase order cancelled',
  received: 'Receipt recorded',
  failed: 'The purchase order could not be changed',
} as const;

// The supplier portal's words (decision 077): short and plain, as the client portal's.
export const SUPPLIER_TEXTS = {
  title: 'Your purchase orders',
  description: 'Orders sent to you. Confirm them, and add the tracking number when you ship.',
  empty: 'No purchase orders have been sent to you yet',
  loadFailed: 'Failed to fetch purchase orders',
  back: 'Back to your purchase orders',
  notFound: 'Purchase order not found',
  confirmed: 'Purchase order confirmed',
  shipped: 'Shipment added',
  trackingSaved: 'Tracking number saved',
  failed: 'The purchase order could not be changed',
} as const;
