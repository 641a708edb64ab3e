// What the Bills screens say (decision 048): the list and a bill's page.
export const BILL_TEXTS = {
  title: 'Bills',
  description: 'Supplier invoices to pay, recorded from documents.',
  newButton: '',
  dialogTitle: '',
  dialogDescription: '',
  listHeading: 'Bills',
  searchLabel: 'Search bills',
  noun: 'bills',
  loadFailed: 'Failed to fetch bills',
  empty: 'No bills yet. Record one from a supplier invoice on the Documents page.',
  noMatch: 'No bills match your search.',
} as const;

export const BILL_DETAIL_TEXTS = {
  back: 'Back to bills',
  notFound: 'Bill not found',
  paid: 'Bill marked paid',
  saved: 'Bill saved',
  deleted: 'Bill deleted',
  saveFailed: 'Failed to save bill',
  payFailed: 'Failed to mark bill paid',
  deleteFailed: 'Failed to delete bill',
  editTitle: 'Edit bill',
  editDescription: 'Correct what the document said.',
  deleteTitle: 'Delete bill',
  paidIsHistory: 'A paid bill is kept as it was paid.',
  exists: 'A bill from this supplier with this number is already recorded',
} as const;
