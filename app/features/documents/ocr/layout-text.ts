// An OCR reading laid out as the PDF text is (pdf-lines.ts): words on one
// visual row make one line even when tesseract read them in different blocks
// (a party block beside another, a table's amounts beside its descriptions),
// and a wide gap between two words is a column, written as a tab. Without it
// 'Sprzedawca Nabywca' / 'Seller name Buyer name' ran two parties into one
// name, and a table's columns came out as separate paragraphs.

export interface OcrBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
export interface OcrWord {
  text: string;
  bbox: OcrBox;
  /** tesseract's confidence in the word, 0–100. */
  confidence?: number;
}
export interface OcrLine {
  words: OcrWord[];
  bbox: OcrBox;
}
/** tesseract.js's `data.blocks`: only the parts read here. */
export interface OcrBlock {
  paragraphs: { lines: OcrLine[] }[];
}

/** At most this many lines are laid out: a page of noise does not grow the work. */
const MAX_LINES = 2_000;

interface Row {
  /** The first line's top and bottom: a line joins a row whose middle band it reaches. */
  top: number;
  bottom: number;
  lines: OcrLine[];
}

/**
 * The page's text, row by row, top to bottom. Tesseract's lines are kept
 * whole; a line joins a row when its middle lies within the row's first line
 * and it overlaps none of the row's lines sideways (two lines of one column
 * are two rows, however tall the line beside them). Rows are few (a page
 * holds ~100), so finding a line's row by looking at each is linear in
 * practice; the line count is capped all the same.
 */
export function layoutText(blocks: readonly OcrBlock[] | null | undefined): string {
  return layoutRows(blocks)
    .map((row) => row.text)
    .join('\n');
}

/** The page's rows, top to bottom, each with its first line's top and bottom (layoutText). */
export function layoutRows(blocks: readonly OcrBlock[] | null | undefined): { top: number; bottom: number; text: string }[] {
  const lines = (blocks ?? []).flatMap((block) => block.paragraphs.flatMap((paragraph) => paragraph.lines)).slice(0, MAX_LINES);
  const rows: Row[] = [];
  for (const line of lines) {
    if (!line.words.some((word) => word.text.trim() !== '')) continue;
    const middle = (line.bbox.y0 + line.bbox.y1) / 2;
    const row = rows.find((r) => middle >= r.top && middle <= r.bottom && r.lines.every((other) => other.bbox.x1 <= line.bbox.x0 || other.bbox.x0 >= line.bbox.x1));
    if (row) row.lines.push(line);
    else rows.push({ top: line.bbox.y0, bottom: line.bbox.y1, lines: [line] });
  }
  rows.sort((a, b) => a.top - b.top);
  return rows.map((row) => ({ top: row.top, bottom: row.bottom, text: rowText(row) }));
}

/** A row's words left to right; a gap wider than the row's letter height is a column. */
function rowText(row: Row): string {
  const words = row.lines.sort((a, b) => a.bbox.x0 - b.bbox.x0).flatMap((line) => line.words.filter((word) => word.text.trim() !== ''));
  const heights = words.map((w) => w.bbox.y1 - w.bbox.y0).sort((a, b) => a - b);
  const height = Math.max(1, heights[Math.floor(heights.length / 2)]);
  let text = '';
  let end = Number.NEGATIVE_INFINITY;
  for (const word of words) {
    if (text) text += word.bbox.x0 - end > height * 1.2 ? '\t' : ' ';
    text += word.text.trim();
    end = Math.max(end, word.bbox.x1);
  }
  return text;
}

/** A page tesseract.js read with `{ blocks: true }`: its text laid out, and its mean confidence (the browser's and the bench's reader alike). */
export function pageReading(data: { blocks: readonly OcrBlock[] | null; text: string; confidence: number }): { text: string; confidence: number } {
  return { text: data.blocks ? layoutText(data.blocks) : data.text, confidence: data.confidence };
}
