// A report as PDF with pdf-lib and the shared layout of quotes and invoices
// (app/lib/pdf, decision 026): the title and period, the summary lines, each
// chart drawn as bars with its figures written beside them, then each table
// (columns cut to fit the page width, the header repeated on every page).
import { rgb } from 'pdf-lib';
import { finishDocument, startDocument } from '~/lib/pdf/document';
import { CONTENT_WIDTH, LEFT, type Flow } from '~/lib/pdf/layout';
import { PlainTextLayer } from './plain-text-layer';
import { drawLeft, MUTED, RULE, truncated, wrap } from '~/lib/pdf/text';
import type { Report, ReportChart, ReportTable } from './report';

const BAR = rgb(0.15, 0.39, 0.92);

function heading(flow: Flow, text: string) {
  flow.room(40);
  flow.down(22);
  drawLeft(flow.page, text, LEFT, flow.y, { font: flow.fonts.bold, size: 12 });
  flow.down(6);
}

function paragraph(flow: Flow, text: string) {
  const style = { font: flow.fonts.regular, size: 10 };
  for (const line of wrap(text, CONTENT_WIDTH, style)) {
    flow.room(14);
    flow.down(14);
    drawLeft(flow.page, line, LEFT, flow.y, style);
  }
}

function chart(flow: Flow, chart: ReportChart) {
  heading(flow, chart.title);
  if (chart.points.length === 0) return paragraph(flow, 'Nothing in this period.');
  const max = Math.max(1, ...chart.points.map((point) => point.value));
  const style = { font: flow.fonts.regular, size: 9 };
  for (const point of chart.points) {
    flow.room(16);
    flow.down(16);
    drawLeft(flow.page, truncated(point.label, 110, style), LEFT, flow.y, style);
    const width = ((CONTENT_WIDTH - 180) * point.value) / max;
    if (width > 0) flow.page.drawRectangle({ x: LEFT + 120, y: flow.y - 2, width, height: 10, color: BAR });
    drawLeft(flow.page, String(point.value), LEFT + 126 + width, flow.y, style);
  }
}

function table(flow: Flow, table: ReportTable) {
  heading(flow, `${table.title} (${table.rows.length})`);
  if (table.rows.length === 0) return paragraph(flow, 'No records in this period.');
  const width = CONTENT_WIDTH / table.columns.length;
  const head = { font: flow.fonts.bold, size: 8 };
  const body = { font: flow.fonts.regular, size: 8 };
  // The rows go into each page's own text layer (a few bytes per cell), not pdf-lib's drawing objects.
  const layer = new PlainTextLayer(flow);
  const drawRow = (cells: (string | number | null)[], style: typeof body) => {
    cells.forEach((cell, i) => layer.draw(truncated(cell === null ? '' : String(cell), width - 4, style), LEFT + i * width, flow.y, style));
  };
  const header = () => {
    flow.down(14);
    drawRow(table.columns, head);
    flow.page.drawLine({ start: { x: LEFT, y: flow.y - 3 }, end: { x: LEFT + CONTENT_WIDTH, y: flow.y - 3 }, thickness: 0.5, color: RULE });
  };
  header();
  flow.runningHeader = header;
  for (const row of table.rows) {
    flow.room(12);
    flow.down(12);
    drawRow(row, body);
  }
  flow.runningHeader = null;
  layer.finish();
}

export async function reportPdf(report: Report, generatedAt: Date): Promise<Uint8Array<ArrayBuffer>> {
  const flow = await startDocument({ title: report.title, author: 'ops hub', subject: report.period, created: generatedAt, modified: generatedAt });
  flow.down(6);
  drawLeft(flow.page, report.title, LEFT, flow.y, { font: flow.fonts.bold, size: 18 });
  flow.down(18);
  drawLeft(flow.page, report.period, LEFT, flow.y, { font: flow.fonts.regular, size: 10, color: MUTED });
  if (report.summary) {
    heading(flow, 'Summary');
    for (const line of report.summary) paragraph(flow, line);
  }
  for (const item of report.charts ?? []) chart(flow, item);
  for (const item of report.tables) table(flow, item);
  return finishDocument(flow, `${report.title} · ${report.period}`);
}
