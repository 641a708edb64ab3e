// Pages and the vertical flow of content down them. A4 portrait, 50 pt
// margins; the bottom 60 pt hold the footer ("Page n of m").
import { type PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib';

export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;
export const MARGIN = 50;
export const LEFT = MARGIN;
export const RIGHT = PAGE_WIDTH - MARGIN;
export const CONTENT_WIDTH = RIGHT - LEFT;
const TOP = PAGE_HEIGHT - MARGIN;
const BOTTOM = 60;

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
  mono: PDFFont;
}

export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  const [regular, bold, italic, mono] = await Promise.all([
    doc.embedFont(StandardFonts.Helvetica),
    doc.embedFont(StandardFonts.HelveticaBold),
    doc.embedFont(StandardFonts.HelveticaOblique),
    doc.embedFont(StandardFonts.Courier),
  ]);
  return { regular, bold, italic, mono };
}

/**
 * Where the next thing goes: the current page and the baseline cursor `y`,
 * moving down. `room(h)` starts a new page when less than h points are left,
 * and then draws the running header (the table's column titles while a
 * table is being drawn).
 */
export class Flow {
  page: PDFPage;
  y = TOP;
  /** Drawn at the top of every page this flow starts, while set. */
  runningHeader: ((flow: Flow) => void) | null = null;

  readonly doc: PDFDocument;
  readonly fonts: Fonts;

  constructor(doc: PDFDocument, fonts: Fonts) {
    this.doc = doc;
    this.fonts = fonts;
    this.page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  }

  /** Space left above the footer. */
  get left(): number {
    return this.y - BOTTOM;
  }

  /** Height a fresh page offers, below its running header. */
  get fullPage(): number {
    return TOP - BOTTOM;
  }

  room(height: number): void {
    if (this.left < height) this.newPage();
  }

  newPage(): void {
    this.page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.y = TOP;
    this.runningHeader?.(this);
  }

  down(points: number): void {
    this.y -= points;
  }
}
