// Upload a document (docs/product-guide.md): a file of an accepted type and a
// title are required; without a file: 'Please select a file to upload'.
import { z } from './zod';
import { oneOf, optionalText, requiredText, type Option } from './fields';

export const ACCEPTED_EXTENSIONS = ['.pdf', '.doc', '.docx', '.xls', '.xlsx', '.txt', '.jpg', '.jpeg', '.png'] as const;
/** For the file input's `accept` attribute. */
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(',');
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const MAX_UPLOAD_LABEL = '10 MB';

export const NO_FILE_MESSAGE = 'Please select a file to upload';
export const WRONG_TYPE_MESSAGE = `Choose a file of type ${ACCEPTED_EXTENSIONS.join(', ')}`;
export const TOO_LARGE_MESSAGE = `The file is too large: the limit is ${MAX_UPLOAD_LABEL}`;

export const DOCUMENT_TYPES = ['invoice', 'contract', 'report', 'presentation', 'legal', 'financial', 'other'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
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

export const DOCUMENT_STATUSES = ['Approved', 'Pending Review', 'Final'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export function hasAcceptedExtension(fileName: string): boolean {
  const name = fileName.toLowerCase();
  return ACCEPTED_EXTENSIONS.some((extension) => name.endsWith(extension));
}

export const uploadDocumentSchema = z.object({
  file: z
    .file({ error: NO_FILE_MESSAGE })
    .refine((file) => file.size > 0, NO_FILE_MESSAGE)
    .refine((file) => hasAcceptedExtension(file.name), WRONG_TYPE_MESSAGE)
    .refine((file) => file.size <= MAX_UPLOAD_BYTES, TOO_LARGE_MESSAGE),
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
