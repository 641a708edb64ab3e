// What the Invoices screens say (docs/product-guide.md's /invoices texts, and
// the invoice's page).
export const INVOICE_TEXTS = {
  title: 'Invoices',
  description: 'Create, send and track invoices and payments.',
  newButton: 'New Invoice',
  dialogTitle: 'Create New Invoice',
  dialogDescription: 'Bill a client for work done. All fields marked required must be filled in.',
  listHeading: 'Recent Invoices',
  searchLabel: 'Search invoices',
  noun: 'invoices',
  created: 'Invoice created successfully!',
  createFailed: 'Failed to create invoice',
  loadFailed: 'Failed to fetch invoices',
  empty: 'No invoices yet. Create your first invoice to get started!',
  noMatch: 'No invoices match your search.',
} as const;

export const INVOICE_DETAIL_TEXTS = {
  back: 'Back to invoices',
  notFound: 'Invoice not found',
  paymentRecorded: 'Payment recorded',
  voided: 'Invoice voided',
  sentTo: (email: string) => `Invoice sent to ${email}`,
  actionFailed: 'Failed to update invoice',
  voidTitle: 'Void invoice',
  noPayments: 'No payments yet.',
  creditOnVoid: 'Credited back (invoice voided)',
  saved: 'Invoice saved',
  saveFailed: 'Failed to save invoice',
  notDraft: 'Only a draft invoice can be edited.',
} as const;

/** 'Invoice INV-2026-0007 created' and its link, the toast after a create. */
export const invoiceCreatedToast = (invoice: { id: string; invoice_number: string | null }) => ({
  message: INVOICE_TEXTS.created,
  link: { href: `/invoices/${invoice.id}`, label: invoice.invoice_number ? `View ${invoice.invoice_number}` : 'View invoice' },
});
