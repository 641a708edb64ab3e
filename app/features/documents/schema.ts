// The documents module's values, each the list the database's check
// constraint allows (tests/unit/database-enumerations.test.ts ties them).
export const DOCUMENT_TYPES = ['invoice', 'contract', 'report', 'presentation', 'legal', 'financial', 'other'] as const;
export const DOCUMENT_STATUSES = ['Pending Review', 'Approved', 'Final'] as const;
export const EXTRACTION_STATUSES = ['queued', 'done', 'failed', 'needs_text'] as const;

/** 10 MB, the documents bucket's limit too. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** The upload dialog's accepted types: extension and the MIME type stored, which the bytes must bear out. */
export const ACCEPTED_TYPES = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  txt: 'text/plain',
  csv: 'text/csv',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
} as const;

export type DocumentMimeType = (typeof ACCEPTED_TYPES)[keyof typeof ACCEPTED_TYPES];
export const DOCUMENT_MIME_TYPES = [...new Set(Object.values(ACCEPTED_TYPES))] as DocumentMimeType[];
/** For the file input's accept attribute. */
export const ACCEPT_ATTRIBUTE = Object.keys(ACCEPTED_TYPES).map((ext) => `.${ext}`).join(',');
