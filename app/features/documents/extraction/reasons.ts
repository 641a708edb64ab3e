// Why a document has no text, as its page says it (a light module: the page imports it, not the PDF reader).
export const TEXT_REASONS = {
  image: 'An image has no text layer: read its text with Read text from the image (JavaScript needed), or paste the text, to extract its fields.',
  binaryOffice: 'Old Word and Excel files (.doc, .xls) cannot be read here: paste the text, or upload it as .docx or .xlsx.',
  encrypted: 'The PDF is protected by a password, so its text cannot be read.',
  corrupt: 'The file is damaged or not what it claims to be, so its text cannot be read.',
  tooBig: 'The file unpacks to more than 20 MB, so it was not read.',
  tooComplex: 'The file is too complex to read: paste its text to extract its fields.',
  scanned: 'The PDF has no text layer (a scan): read its text with Read text from the scan (JavaScript needed), or paste the text, to extract its fields.',
} as const;
