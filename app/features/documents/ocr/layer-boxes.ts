// Where a PDF page's text layer draws its text, in the pixels of the page
// drawn at `scale` (pdf.js's viewport: y down, the page's own turn and the
// offset of its box applied), for logo-name.ts to tell the layer's words from
// a logo's. Shared by the browser (unpdf's pdf.js) and the bench.
import { Budget } from '../extraction/budget.ts';
import { pageLines, textItems } from '../extraction/pdf-lines.ts';
import type { OcrBox } from './layout-text.ts';
import type { PageLayer } from './logo-name.ts';

/** The parts of pdf.js's page used here. */
export interface TextPage {
  getViewport(options: { scale: number }): { width: number; height: number; convertToViewportPoint(x: number, y: number): number[] };
  getTextContent(): Promise<{ items: readonly object[] }>;
}

/**
 * An item's box: from a little under its baseline (descenders) to its font's
 * size above it, along its own direction. Text turned on the page (a
 * landscape page stored upright and drawn turned, `/Rotate 90`) has its
 * transform's axes turned too, so the four corners are each carried into the
 * drawn page and the box is their bounds.
 */
function itemBox(transform: readonly number[], width: number, viewport: ReturnType<TextPage['getViewport']>): OcrBox {
  const [a, b, c, d, x, y] = transform;
  const length = Math.hypot(a, b) || 1;
  const along = [(a / length) * width, (b / length) * width];
  const corners = [
    [x - c * 0.25, y - d * 0.25],
    [x - c * 0.25 + along[0], y - d * 0.25 + along[1]],
    [x + c, y + d],
    [x + c + along[0], y + d + along[1]],
  ].map(([px, py]) => viewport.convertToViewportPoint(px, py));
  const xs = corners.map(([px]) => px);
  const ys = corners.map(([, py]) => py);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** The page's text items as boxes in the pixels of the page drawn at `scale`, the drawn page's height, and the layer's lines (as the extraction lays them out). */
export async function layerBoxes(page: TextPage, scale: number): Promise<PageLayer> {
  const viewport = page.getViewport({ scale });
  const items = textItems((await page.getTextContent()).items).filter((item) => item.str.trim());
  const boxes = items.map((item) => itemBox(item.transform, item.width > 0 ? item.width : item.str.length * item.fontSize * 0.5, viewport));
  return { boxes, height: viewport.height, text: pageLines(items, new Budget()) };
}
