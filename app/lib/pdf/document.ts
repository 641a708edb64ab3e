// A PDF that is the same bytes for the same input. pdf-lib stamps a new
// document with the current time and its own producer unless told not to
// (`updateMetadata: false`); the dates here come from the input instead.
// pdf-lib writes no /ID into the trailer of a new document, and the names it
// gives resources come from a generator seeded with a constant, so nothing
// else in the file depends on when or where it was rendered.
import { PDFDocument } from 'pdf-lib';
import { embedTrueTypeFonts } from './embedded-fonts.ts';
import { CONTENT_WIDTH, embedFonts, Flow, LEFT, RIGHT } from './layout.ts';
import { drawLeft, drawRight, MUTED, truncated } from './text.ts';

export const PDF_CREATOR = 'ops hub';
export const PDF_PRODUCER = 'ops hub (pdf-lib)';

export interface DocumentInfo {
  title: string;
  author: string;
  subject: string;
  /** The document's date: its creation date. */
  created: Date;
  /** When it last changed (signed): its modification date. */
  modified: Date;
  /**
   * 'embedded': DejaVu Sans embedded (subset) instead of the standard fonts,
   * for a PDF/A file (the Factur-X invoice, decision 052). Other documents
   * keep the standard fonts: smaller, and a signed quote's bytes stay as signed.
   */
  fonts?: 'standard' | 'embedded';
}

export async function startDocument(info: DocumentInfo): Promise<Flow> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  // Metadata strings are stored as UTF-16, so they keep any script; still
  // one line each.
  doc.setTitle(info.title.replace(/\s+/g, ' '), { showInWindowTitleBar: true });
  doc.setAuthor(info.author.replace(/\s+/g, ' '));
  doc.setSubject(info.subject.replace(/\s+/g, ' '));
  doc.setCreator(PDF_CREATOR);
  doc.setProducer(PDF_PRODUCER);
  doc.setLanguage('en-US');
  doc.setCreationDate(info.created);
  doc.setModificationDate(info.modified);
  return new Flow(doc, info.fonts === 'embedded' ? embedTrueTypeFonts(doc) : await embedFonts(doc));
}

/**
 * Writes every page's footer, `footer` (e.g. 'Quote Q-2026-0007 · Acme') on
 * the left and "Page n of m" on the right, and returns the file.
 */
export async function finishDocument(flow: Flow, footer: string): Promise<Uint8Array<ArrayBuffer>> {
  const pages = flow.doc.getPages();
  const style = { font: flow.fonts.regular, size: 8, color: MUTED };
  const left = truncated(footer, CONTENT_WIDTH - 80, style);
  pages.forEach((page, index) => {
    drawLeft(page, left, LEFT, 32, style);
    drawRight(page, `Page ${index + 1} of ${pages.length}`, RIGHT, 32, style);
  });
  // pdf-lib writes into a fresh ArrayBuffer: typed so, the bytes go straight into a Response.
  return (await flow.doc.save()) as Uint8Array<ArrayBuffer>;
}

/** A Date from an instant or a 'YYYY-MM-DD' day (UTC); an unreadable value throws. */
export function toDate(value: Date | string): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a date: ${String(value)}`);
  return date;
}
