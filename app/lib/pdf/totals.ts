// The figures under the items, right-aligned, kept together on one page:
// label on the left of the block, amount on the right, the last one bold.
import { CONTENT_WIDTH, type Flow, LEFT, RIGHT } from './layout.ts';
import { drawInBox, drawLeft, MUTED, RULE, wrap } from './text.ts';

export interface TotalLine {
  label: string;
  value: string;
  /** The figure that matters (Total, Balance due): bold, with a rule above. */
  strong?: boolean;
}

const BLOCK_LEFT = 300;
const LABEL_WIDTH = 110;
const LINE = 16;

export function drawTotals(flow: Flow, lines: readonly TotalLine[]): void {
  flow.down(8);
  flow.room(lines.length * LINE + 12);
  for (const line of lines) {
    const { page, fonts } = flow;
    if (line.strong) {
      flow.down(4);
      page.drawLine({ start: { x: BLOCK_LEFT, y: flow.y }, end: { x: RIGHT, y: flow.y }, thickness: 0.75, color: RULE });
    }
    const baseline = flow.y - 12;
    const style = { font: line.strong ? fonts.bold : fonts.regular, size: line.strong ? 11 : 9.5 };
    drawInBox(page, line.label, BLOCK_LEFT, baseline, LABEL_WIDTH, style);
    drawInBox(page, line.value, BLOCK_LEFT + LABEL_WIDTH + 6, baseline, RIGHT - 6 - (BLOCK_LEFT + LABEL_WIDTH + 6), style, 'right');
    flow.down(LINE);
  }
}

/** A titled block of wrapped text (the notes), running across pages as needed. */
export function drawParagraphs(flow: Flow, title: string, text: string): void {
  const { fonts } = flow;
  const style = { font: fonts.regular, size: 9.5 };
  flow.down(18);
  // The title never ends a page alone.
  flow.room(14 + 13);
  drawLeft(flow.page, title.toUpperCase(), LEFT, flow.y - 8, { font: fonts.bold, size: 8, color: MUTED });
  flow.down(14);
  for (const line of wrap(text, CONTENT_WIDTH, style)) {
    flow.room(13);
    drawLeft(flow.page, line, LEFT, flow.y - 10, style);
    flow.down(13);
  }
}
