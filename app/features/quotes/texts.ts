// What the Quotes screen says (docs/product-guide.md, Quotes), to the staff
// and, on their 'My quotes' page, to a client.
export const QUOTE_TEXTS = {
  title: 'Quotes',
  description: 'Create, send and track quotes for your clients.',
  newButton: 'New Quote',
  dialogTitle: 'Create New Quote',
  dialogDescription: 'A draft quote with one line item for a new contact.',
  listHeading: 'Recent Quotes',
  searchLabel: 'Search quotes',
  noun: 'quotes',
  created: 'Quote created successfully!',
  createFailed: 'Failed to create quote',
  loadFailed: 'Failed to fetch quotes',
  empty: 'No quotes yet. Create your first quote to get started!',
  noMatch: 'No quotes match your search.',
} as const;

/** What a quote's page and its edit page say. */
export const QUOTE_DETAIL_TEXTS = {
  back: 'Back to quotes',
  notFound: 'Quote not found',
  draftNumber: 'Draft Quote',
  editTitle: 'Edit quote',
  saved: 'Quote saved',
  saveFailed: 'Failed to save quote',
  sendFailed: 'Failed to send quote',
  reviseFailed: 'Failed to revise quote',
  deleted: 'Quote deleted',
  deleteFailed: 'Failed to delete quote',
  deleteTitle: 'Delete quote',
  notDraft: 'Only a draft quote can be edited. Revise it to make changes.',
  sentTo: (email: string) => `Quote sent to ${email}`,
  revised: (number: string | null) => (number ? `Revision ${number} created` : 'Revision created'),
  supersededBy: 'Its newer version',
  deliveryFailed: (error: string) => `Delivery failed: ${error}`,
  convert: 'Convert to invoice',
  alreadyConverted: (number: string) => `Already converted to ${number}`,
  invoiceLink: (number: string) => `View invoice ${number}`.trim(),
} as const;
