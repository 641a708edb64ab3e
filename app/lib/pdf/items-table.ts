// The line items: description (wrapped), quantity, unit price, amount. When
// the table runs past a page, the next page starts with its column titles
// again; a description too long for one page continues on the next.
import { money, quantity } from './format.ts';
import { type Flow, LEFT, RIGHT } from './layout.ts';
import { drawInBox, drawLeft, drawRight, RULE, SHADE, wrap } from './text.ts';
import type { PdfLineItem } from './types.ts';

const DESCRIPTION_WIDTH = 240;
/** Right-aligned columns: right edge and width. */
const QTY = { right: 355, width: 50 };
const UNIT = { right: 445, width: 80 };
const AMOUNT = { right: RIGHT, width: 88 };

const SIZE = 9.5;
const LINE = 12;
const PAD = 5;
const HEADER_HEIGHT = 20;

function drawHeader(flow: Flow): void {
  const { page, fonts } = flow;
  const style = { font: fonts.bold, size: 8.5 };
  page.drawRectangle({ x: LEFT, y: flow.y - HEADER_HEIGHT, width: RIGHT - LEFT, height: HEADER_HEIGHT, color: SHADE });
  const baseline = flow.y - 13.5;
  drawLeft(page, 'Description', LEFT + 6, baseline, style);
  drawRight(page, 'Qty', QTY.right, baseline, style);
  drawRight(page, 'Unit price', UNIT.right, baseline, style);
  drawRight(page, 'Amount', AMOUNT.right - 6, baseline, style);
  flow.down(HEADER_HEIGHT);
}

export function drawItemsTable(flow: Flow, items: readonly PdfLineItem[], currency: string): void {
  const regular = { font: flow.fonts.regular, size: SIZE };
  // The column titles and at least one line of the first row together.
  flow.room(HEADER_HEIGHT + LINE + 2 * PAD);
  drawHeader(flow);
  flow.runningHeader = drawHeader;

  for (const item of items) {
    const lines = wrap(item.description, DESCRIPTION_WIDTH, regular);
    const height = lines.length * LINE + 2 * PAD;
    // Keep a row on one page when a page can hold it; else let it run on.
    if (height <= flow.fullPage - HEADER_HEIGHT) flow.room(height);
    let first = true;
    let rest = lines;
    while (rest.length > 0) {
      flow.room(LINE + 2 * PAD);
      const fit = Math.max(1, Math.floor((flow.left - 2 * PAD) / LINE));
      const chunk = rest.slice(0, fit);
      rest = rest.slice(fit);
      const { page } = flow;
      let baseline = flow.y - PAD - 9;
      if (first) {
        drawInBox(page, quantity(item.quantity), QTY.right - QTY.width, baseline, QTY.width, regular, 'right');
        drawInBox(page, money(item.unitPrice, currency), UNIT.right - UNIT.width, baseline, UNIT.width, regular, 'right');
        drawInBox(page, money(item.lineTotal, currency), AMOUNT.right - 6 - AMOUNT.width, baseline, AMOUNT.width, regular, 'right');
        first = false;
      }
      for (const line of chunk) {
        drawLeft(page, line, LEFT + 6, baseline, regular);
        baseline -= LINE;
      }
      flow.down(chunk.length * LINE + 2 * PAD);
      page.drawLine({ start: { x: LEFT, y: flow.y }, end: { x: RIGHT, y: flow.y }, thickness: 0.5, color: RULE });
    }
  }
  flow.runningHeader = null;
}
