// The documents module's values, each the list the database's check
// constraint allows (tests/unit/database-enumerations.test.ts ties them), and
// the upload's limits. Plain values only: the Node tests and the Worker both load this.
export const DOCUMENT_TYPES = ['invoice', 'contract', 'report', 'presentation', 'legal', 'financial', 'other'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_STATUSES = ['Pending Review', 'Approved', 'Final'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
export const EXTRACTION_STATUSES = ['queued', 'done', 'failed', 'needs_text'] as const;
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number];

/** 10 MB, the documents bucket's limit too. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const MAX_UPLOAD_LABEL = '10 MB';

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
export const ACCEPTED_EXTENSIONS = Object.keys(ACCEPTED_TYPES).map((ext) => `.${ext}`);
/** For the file input's accept attribute. */
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(',');

export const NO_FILE_MESSAGE = 'Please select a file to upload';
export const WRONG_TYPE_MESSAGE = `Choose a file of type ${ACCEPTED_EXTENSIONS.join(', ')}`;
export const TOO_LARGE_MESSAGE = `The file is too large: the limit is ${MAX_UPLOAD_LABEL}`;

/** The most a pasted text may hold. */
export const MAX_PASTED_TEXT = 200_000;
/** What a document's page reads of a post: a pasted text (up to 4 bytes a character, percent-encoded larger still) and the rest. */
export const MAX_DOCUMENT_FORM_BYTES = MAX_PASTED_TEXT * 4 + 64 * 1024;
