// What the Documents screen and a document's page say (docs/product-guide.md, Documents).
import { NO_FILE_MESSAGE } from './values.ts';

export const TEXTS = {
  noFile: NO_FILE_MESSAGE,
  uploaded: 'Document uploaded successfully!',
  uploadFailed: 'Failed to upload document',
  duplicate: (title: string) => `This file was already uploaded as ${title}`,
  empty: 'The file is empty.',
  tooLarge: 'The file is larger than 10 MB.',
  unsupported: 'Choose a PDF, Word, Excel, text, CSV, JPEG or PNG file.',
  mismatch: "The file's content is not what its name says it is.",
} as const;

/** The list screen's texts (ListScreenTexts plus the create dialog's). */
export const DOCUMENT_LIST_TEXTS = {
  title: 'Documents',
  description: 'Upload documents and extract their data without templates.',
  newButton: 'Upload Document',
  dialogTitle: 'Upload Document',
  dialogDescription: 'Accepted types: .pdf, .doc, .docx, .xls, .xlsx, .txt, .csv, .jpg, .jpeg, .png. Up to 10 MB.',
  listHeading: 'Recent Documents',
  searchLabel: 'Search documents',
  noun: 'documents',
  created: TEXTS.uploaded,
  createFailed: TEXTS.uploadFailed,
  loadFailed: 'Failed to fetch documents',
  empty: 'No documents yet. Upload your first document to extract its data.',
  noMatch: 'No documents match your search.',
} as const;

export const DOCUMENT_DETAIL_TEXTS = {
  back: 'Back to documents',
  notFound: 'Document not found',
  download: 'Download',
  downloadFailed: 'The file could not be reached. Try again in a moment.',
  deleteTitle: 'Delete document',
  deleted: 'Document deleted',
  deleteFailed: 'Failed to delete document',
  statusUpdated: 'Document status updated',
  saveFailed: 'Failed to save document',
  reviewed: 'Fields saved',
  approved: 'Fields confirmed and document approved',
  finalLocked: 'This document is final: its fields can no longer change.',
  textQueued: 'Text received: its fields are being extracted',
  textNotNeeded: 'This document already has its text: correct its fields instead.',
  rerun: 'Extract again',
  rerunQueued: 'Extraction started again',
} as const;

/** How far extraction is, as a person reads it. */
export const EXTRACTION_LABELS = {
  queued: 'Extracting…',
  done: 'Extracted',
  failed: 'Extraction failed',
  needs_text: 'Needs text',
} as const;

/** 'Document uploaded successfully!' and a link to the new document. */
export const documentUploadedToast = (document: { id: string }) => ({
  message: TEXTS.uploaded,
  link: { href: `/documents/${document.id}`, label: 'View document' },
});

/** Who uploaded, by name (their email when they have none); null when that user is gone. */
export function uploaderName(uploader: { first_name: string | null; last_name: string | null; email: string } | null): string | null {
  if (!uploader) return null;
  return [uploader.first_name, uploader.last_name].filter(Boolean).join(' ').trim() || uploader.email;
}

/** Create invoice / Create contact on a document's page (decision 033). */
export const RECORDS_FROM_DOCUMENT_TEXTS = {
  heading: 'Create from this document',
  notFound: DOCUMENT_DETAIL_TEXTS.notFound,
  approveFirst: 'Approve the document to create an invoice or a contact from its fields.',
  createInvoice: 'Create invoice',
  createContact: 'Create contact',
  invoiceNote: "A draft invoice to the customer, with the document's currency, lines, total and dates.",
  contactNote: "A contact from the supplier's name, email and phone.",
  invoiceCreated: (number: string) => `Invoice ${number} created`.replace('  ', ' '),
  invoiceExists: (number: string) => `An invoice was already created from this document: ${number}`,
  invoiceLink: (number: string) => `View invoice ${number}`.trim(),
  invoiceFailed: 'Failed to create invoice',
  invoiceRefused: 'The invoice could not be created: correct the fields marked',
  contactCreated: (name: string) => `Contact ${name} created`,
  contactExists: (name: string) => `A contact with this email already exists: ${name}`,
  contactOnFile: (name: string) => `Contact ${name} has this email`,
  contactLink: (name: string) => `View contact ${name}`,
  contactFailed: 'Failed to create contact',
  contactRefused: 'The contact could not be created: correct the fields marked',
  problemsIntro: 'Correct these fields first:',
  // Bills (decision 048): a supplier's invoice is a bill to pay, not a sale.
  recordBill: 'Record bill',
  billNote: (supplier: string | null) =>
    supplier ? `A bill to pay to ${supplier}, with the document's number, dates, currency and amounts.` : "A bill to pay, with the document's supplier, number, dates and amounts.",
  billRecorded: 'Bill recorded',
  billExists: (name: string) => `This bill is already recorded: ${name}`,
  billLink: 'View bill',
  billFailed: 'Failed to record bill',
  billRefused: 'The bill could not be recorded: correct the fields marked',
  partyQuestion: 'Is this a bill from a supplier, or an invoice your account issued?',
  chooseBill: 'It is a bill to pay',
  chooseSale: 'It is our own sale',
  ownSaleNote: 'Create invoice only for a document your account issued: the invoice goes to its customer.',
  billNotSale: (supplier: string) =>
    `This document is an invoice from ${supplier}: record it as a bill, or choose "It is our own sale" first`,
} as const;
