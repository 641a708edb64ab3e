// Where a PDF page's text layer draws its text, in the pixels of the page
// drawn at `scale` (pdf.js's viewport: y down, the page's own turn applied),
// for logo-name.ts to tell the layer's words from a logo's. Shared by the
// browser (unpdf's pdf.js) and the bench.
import type { OcrBox } from './layout-text.ts';

/** The parts of pdf.js's page used here. */
export interface TextPage {
  getViewport(options: { scale: number }): { height: number; convertToViewportRectangle(rect: number[]): number[] };
  getTextContent(): Promise<{ items: readonly object[] }>;
}

/** The page's text items as boxes in the pixels of the page drawn at `scale`, the drawn page's height, and the layer's text. */
export async function layerBoxes(page: TextPage, scale: number): Promise<{ boxes: OcrBox[]; height: number; text: string }> {
  const viewport = page.getViewport({ scale });
  const boxes: OcrBox[] = [];
  const strings: string[] = [];
  for (const item of (await page.getTextContent()).items) {
    if (!('str' in item) || !('transform' in item) || typeof item.str !== 'string' || !item.str.trim()) continue;
    const [, , c, d, x, y] = item.transform as number[];
    const size = Math.hypot(c, d);
    const width = 'width' in item && typeof item.width === 'number' ? item.width : item.str.length * size * 0.5;
    // From a little under the baseline (descenders) to the font's size above it.
    const [x0, y0, x1, y1] = viewport.convertToViewportRectangle([x, y - size * 0.25, x + width, y + size]);
    strings.push(item.str);
    boxes.push({ x0: Math.min(x0, x1), y0: Math.min(y0, y1), x1: Math.max(x0, x1), y1: Math.max(y0, y1) });
  }
  return { boxes, height: viewport.height, text: strings.join('\n') };
}
