// Where a PDF page's text layer draws its text, in the pixels of the page
// drawn at `scale` (pdf.js's viewport: y down, the page's own turn and the
// offset of its box applied), for logo-name.ts to tell the layer's words from
// a logo's. Shared by the browser (unpdf's pdf.js) and the bench.
import { Budget, LIMITS } from '../extraction/budget.ts';
import { pageLines, type Item } from '../extraction/pdf-lines.ts';
import type { OcrBox } from './layout-text.ts';
import type { PageLayer } from './logo-name.ts';

/** The parts of pdf.js's page used here. */
export interface TextPage {
  getViewport(options: { scale: number }): { width: number; height: number; convertToViewportPoint(x: number, y: number): number[] };
  getTextContent(): Promise<{ items: readonly object[] }>;
}

/** A page's items read at most, as the extraction reads them (text.ts). */
const MAX_ITEMS = LIMITS.itemsPerPage * 4;

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
  const boxes: OcrBox[] = [];
  const items: Item[] = [];
  for (const item of (await page.getTextContent()).items.slice(0, MAX_ITEMS)) {
    if (!('str' in item) || !('transform' in item) || typeof item.str !== 'string' || !item.str.trim() || !Array.isArray(item.transform)) continue;
    const transform = item.transform as number[];
    const size = Math.hypot(transform[2], transform[3]);
    const width = 'width' in item && typeof item.width === 'number' && item.width > 0 ? item.width : item.str.length * size * 0.5;
    items.push({ str: item.str, x: transform[4], y: transform[5], width, fontSize: size });
    boxes.push(itemBox(transform, width, viewport));
  }
  return { boxes, height: viewport.height, text: pageLines(items, new Budget()) };
}
