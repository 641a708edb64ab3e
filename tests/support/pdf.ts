// Reading a rendered PDF back: its structure with pdf-lib, its text with
// unpdf (pdf.js), as a person's viewer or a text extractor would see it.
import { PDFDocument } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';

/** The text of each page (pdf.js may detach the buffer it reads: it gets a copy). */
export async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocumentProxy(bytes.slice());
  const { text } = await extractText(pdf, { mergePages: false });
  return text;
}

export async function loadPdf(bytes: Uint8Array): Promise<PDFDocument> {
  return PDFDocument.load(bytes, { updateMetadata: false });
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes.slice());
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** How many times `needle` occurs in `text`. */
export function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
