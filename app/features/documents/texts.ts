// The documents screen's words.
export const TEXTS = {
  noFile: 'Please select a file to upload',
  uploaded: 'Document uploaded successfully!',
  uploadFailed: 'Failed to upload document',
  duplicate: (title: string) => `This file was already uploaded as ${title}`,
  empty: 'The file is empty.',
  tooLarge: 'The file is larger than 10 MB.',
  unsupported: 'Choose a PDF, Word, Excel, text, CSV, JPEG or PNG file.',
  mismatch: "The file's content is not what its name says it is.",
} as const;
