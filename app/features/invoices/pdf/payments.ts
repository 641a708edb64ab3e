// An invoice's payments: date, method, reference, amount.
import { day, label, money } from '../../../lib/pdf/format.ts';
import { type Flow, LEFT, RIGHT } from '../../../lib/pdf/layout.ts';
import { drawInBox, drawLeft, drawRight, MUTED, RULE } from '../../../lib/pdf/text.ts';
import type { PdfPayment } from '../../../lib/pdf/types.ts';

const LINE = 16;

export function drawPayments(flow: Flow, payments: readonly PdfPayment[], currency: string): void {
  const { fonts } = flow;
  const head = { font: fonts.bold, size: 8, color: MUTED };
  const body = { font: fonts.regular, size: 9.5 };
  flow.down(18);
  flow.room(14 + LINE * Math.min(payments.length, 3));
  drawLeft(flow.page, 'PAYMENTS', LEFT, flow.y - 8, head);
  flow.down(14);
  const columns = () => {
    drawLeft(flow.page, 'Date', LEFT, flow.y - 9, head);
    drawLeft(flow.page, 'Method', LEFT + 90, flow.y - 9, head);
    drawLeft(flow.page, 'Reference', LEFT + 200, flow.y - 9, head);
    drawRight(flow.page, 'Amount', RIGHT - 6, flow.y - 9, head);
    flow.down(14);
  };
  columns();
  flow.runningHeader = columns;
  for (const payment of payments) {
    flow.room(LINE);
    const baseline = flow.y - 11;
    drawInBox(flow.page, day(payment.paidOn), LEFT, baseline, 85, body);
    drawInBox(flow.page, label(payment.method), LEFT + 90, baseline, 105, body);
    drawInBox(flow.page, payment.reference ?? '', LEFT + 200, baseline, 135, body);
    drawInBox(flow.page, money(payment.amount, currency), RIGHT - 6 - 150, baseline, 150, body, 'right');
    flow.down(LINE);
    flow.page.drawLine({ start: { x: LEFT, y: flow.y }, end: { x: RIGHT, y: flow.y }, thickness: 0.5, color: RULE });
  }
  flow.runningHeader = null;
}
