// Measuring, wrapping and drawing text. Everything drawn goes through here,
// so nothing reaches pdf-lib that its standard fonts cannot encode.
import { type PDFFont, type PDFPage, rgb } from 'pdf-lib';
import { safeLine, safeText } from './winansi.ts';

export const INK = rgb(0.11, 0.13, 0.16);
export const MUTED = rgb(0.4, 0.43, 0.48);
export const RULE = rgb(0.84, 0.86, 0.89);
export const SHADE = rgb(0.95, 0.96, 0.97);

export interface TextStyle {
  font: PDFFont;
  size: number;
  color?: ReturnType<typeof rgb>;
}

/** Width of one line of already safe text. */
export function widthOf(text: string, style: TextStyle): number {
  return style.font.widthOfTextAtSize(text, style.size);
}

/** Draws one line with its left edge at x (baseline y). */
export function drawLeft(page: PDFPage, text: string, x: number, y: number, style: TextStyle): void {
  const line = safeLine(text);
  if (line === '') return;
  page.drawText(line, { x, y, font: style.font, size: style.size, color: style.color ?? INK });
}

/** Draws one line with its right edge at `right`. */
export function drawRight(page: PDFPage, text: string, right: number, y: number, style: TextStyle): void {
  const line = safeLine(text);
  if (line === '') return;
  page.drawText(line, { x: right - widthOf(line, style), y, font: style.font, size: style.size, color: style.color ?? INK });
}

/**
 * The style's size, made smaller (down to 6 pt) until the line fits in
 * `width`: amounts up to 10^18 cents stay whole in a narrow column.
 */
export function fitted(text: string, width: number, style: TextStyle): TextStyle {
  const line = safeLine(text);
  let size = style.size;
  while (size > 6 && widthOf(line, { ...style, size }) > width) size -= 0.5;
  return { ...style, size };
}

/**
 * Text broken into lines no wider than `width`: at spaces where it can,
 * inside a word only when the word alone is too wide, and at every line
 * break the text has.
 */
export function wrap(text: string, width: number, style: TextStyle): string[] {
  const lines: string[] = [];
  for (const paragraph of safeText(text).split('\n')) {
    let line = '';
    for (const word of paragraph.split(/ +/)) {
      const candidate = line === '' ? word : `${line} ${word}`;
      if (widthOf(candidate, style) <= width) {
        line = candidate;
        continue;
      }
      if (line !== '') lines.push(line);
      line = word;
      // A word wider than the column is cut where it must be.
      while (line.length > 1 && widthOf(line, style) > width) {
        const cut = longestFit(line, width, style);
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    lines.push(line);
  }
  return lines;
}

/** How many leading characters of `text` fit in `width` (at least one). */
function longestFit(text: string, width: number, style: TextStyle): number {
  let low = 1;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (widthOf(text.slice(0, mid), style) <= width) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** One line cut to `width` with an ellipsis when it is wider. */
export function truncated(text: string, width: number, style: TextStyle): string {
  const line = safeLine(text);
  if (widthOf(line, style) <= width) return line;
  const room = width - widthOf('…', style);
  return `${line.slice(0, room > 0 ? longestFit(line, room, style) : 0).trimEnd()}…`;
}

/**
 * One line inside a box `width` wide starting at x: made smaller to fit (down
 * to 6 pt), then cut with an ellipsis if it still does not; right-aligned
 * to the box's right edge when asked.
 */
export function drawInBox(page: PDFPage, text: string, x: number, y: number, width: number, style: TextStyle, align: 'left' | 'right' = 'left'): void {
  const size = fitted(text, width, style);
  const line = truncated(text, width, size);
  if (align === 'left') drawLeft(page, line, x, y, size);
  else drawRight(page, line, x + width, y, size);
}
