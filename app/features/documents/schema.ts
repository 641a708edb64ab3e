// The documents module's values and forms (docs/product-guide.md, Documents).
// The value lists are each the list the database's check constraint allows
// (tests/unit/database-enumerations.test.ts ties them). Upload: a file of an
// accepted type and a title are required; without a file: 'Please select a
// file to upload'. The file's bytes are judged on the server (file-check.ts).
import { z } from '~/lib/schemas/zod';
import { oneOf, optionalText, requiredText, type Option } from '~/lib/schemas/fields';
import { ACCEPTED_EXTENSIONS, DOCUMENT_STATUSES, DOCUMENT_TYPES, MAX_DOCUMENT_BYTES, MAX_PASTED_TEXT, NO_FILE_MESSAGE, TOO_LARGE_MESSAGE, WRONG_TYPE_MESSAGE, type DocumentType } from './values';
import { DOCUMENT_KINDS, FIELDS, isIsoDate, isValidIban, type FieldKey } from './extraction/fields';

export * from './values';

export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  invoice: 'Invoice',
  contract: 'Contract',
  report: 'Report',
  presentation: 'Presentation',
  legal: 'Legal',
  financial: 'Financial',
  other: 'Other',
};
export const DOCUMENT_TYPE_OPTIONS: Option<DocumentType>[] = DOCUMENT_TYPES.map((value) => ({
  value,
  label: DOCUMENT_TYPE_LABELS[value],
}));

export function hasAcceptedExtension(fileName: string): boolean {
  const name = fileName.toLowerCase();
  return ACCEPTED_EXTENSIONS.some((extension) => name.endsWith(extension));
}

export const uploadDocumentSchema = z.object({
  file: z
    .file({ error: NO_FILE_MESSAGE })
    .refine((file) => file.size > 0, NO_FILE_MESSAGE)
    .refine((file) => hasAcceptedExtension(file.name), WRONG_TYPE_MESSAGE)
    .refine((file) => file.size <= MAX_DOCUMENT_BYTES, TOO_LARGE_MESSAGE),
  title: requiredText('Title'),
  type: oneOf(DOCUMENT_TYPES, 'Document type').default('other'),
  description: optionalText('Description'),
});

export type UploadDocument = z.output<typeof uploadDocumentSchema>;

/** docs/product-guide.md lists the missing file as a toast too, with JavaScript and without. */
export function documentRefusalToast(errors: Record<string, string[] | null | undefined>): string | undefined {
  return errors.file?.includes(NO_FILE_MESSAGE) ? NO_FILE_MESSAGE : undefined;
}

/** 2_400_000 → '2.3 MB', as a person reads a file size. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

const MAX_FIELD_VALUE = 500;


/** A corrected field as its shape allows; empty means the document has none. */
function reviewedField(key: FieldKey) {
  const { label, shape } = FIELDS[key];
  const text = z.string().trim().max(MAX_FIELD_VALUE, `${label} must be at most ${MAX_FIELD_VALUE} characters`);
  switch (shape) {
    case 'kind':
      return oneOf(DOCUMENT_KINDS, label).optional();
    case 'date':
      return text.refine(isIsoDate, 'Enter a date as YYYY-MM-DD').optional();
    case 'amount':
      return text.regex(/^-?\d{1,12}(\.\d{1,2})?$/, 'Enter an amount such as 1250.00').optional();
    case 'currency':
      return text.toUpperCase().regex(/^[A-Z]{3}$/, 'Enter a three-letter currency code such as EUR').optional();
    case 'email':
      return z.email({ error: 'Enter a valid email address' }).max(254, 'Email is too long').optional();
    case 'iban':
      return text.refine(isValidIban, 'This IBAN is not valid: check its letters and digits').optional();
    default:
      return text.optional();
  }
}

/**
 * The review form: each extracted field as the person checking it typed it,
 * and whether they approve the document with it now.
 */
export const reviewSchema = z.object({
  intent: z.literal('review'),
  kind: reviewedField('kind'),
  invoice_number: reviewedField('invoice_number'),
  order_number: reviewedField('order_number'),
  quote_number: reviewedField('quote_number'),
  issue_date: reviewedField('issue_date'),
  due_date: reviewedField('due_date'),
  currency: reviewedField('currency'),
  subtotal: reviewedField('subtotal'),
  tax_amount: reviewedField('tax_amount'),
  total: reviewedField('total'),
  supplier_name: reviewedField('supplier_name'),
  customer_name: reviewedField('customer_name'),
  tax_id: reviewedField('tax_id'),
  email: reviewedField('email'),
  phone: reviewedField('phone'),
  iban: reviewedField('iban'),
  approve: z.literal('on').optional(),
});
export type Review = z.output<typeof reviewSchema>;

/** The text of a document that had none, pasted by a person. */
export const pastedTextSchema = z.object({ intent: z.literal('text'), text: requiredText('Text', MAX_PASTED_TEXT) });

/** What a document's page posts, told apart by intent. */
export const documentActionSchema = z.discriminatedUnion('intent', [
  reviewSchema,
  z.object({ intent: z.literal('status'), status: oneOf(DOCUMENT_STATUSES, 'Status') }),
  pastedTextSchema,
  // Extract again, after a failure (rerun_document_extraction).
  z.object({ intent: z.literal('rerun') }),
  z.object({ intent: z.literal('delete') }),
  // Create invoice / Create contact: from the fields as stored (records-from-fields.ts).
  // A document from a supplier is a bill (decision 048): Create invoice from it
  // only when the person says it is the account's own sale (own_sale=on).
  z.object({ intent: z.literal('create_invoice'), own_sale: z.literal('on').optional() }),
  z.object({ intent: z.literal('create_contact') }),
  z.object({ intent: z.literal('create_bill') }),
]);
export type DocumentAction = z.output<typeof documentActionSchema>;
