// A report as the exports see it (issue 40, spec §3): a title, the period,
// optional summary lines (include_summary), optional charts (include_charts:
// drawn in the PDF, a sheet of their figures in Excel and CSV) and tables of
// the records behind the figures. One model, three writers (csv.ts, xlsx.ts,
// pdf.ts), so the three formats say the same thing.
import { formatWholeMoney } from '~/lib/money';
import { conversionRate, LEAD_SOURCE_LABELS, share, type PeriodFigures } from '../figures';
import { REPORT_TYPE_LABELS, type ReportType } from '../schema';

export type Cell = string | number | null;

export interface ReportTable {
  title: string;
  columns: string[];
  rows: Cell[][];
}

export interface ReportChart {
  title: string;
  points: { label: string; value: number }[];
}

export interface Report {
  title: string;
  period: string;
  summary: string[] | null;
  charts: ReportChart[] | null;
  tables: ReportTable[];
}

/** The largest report sent as a direct download (issue 40). */
export const DIRECT_ROWS = 10_000;

/**
 * The most rows a PDF holds: as many as a direct download. Its rows are a few
 * bytes of text each in the page's content stream (
 * plain-text-layer.ts, decision 094): 10,000 rows took +78 MB of workerd's
 * memory on the first request (bench/analytics/export.ts; pdf-lib's drawing
 * objects took +179 MB), inside a Worker's 128 MB; more is not measured, so a
 * PDF is never queued. CSV and Excel hold the larger reports.
 */
export const PDF_MAX_ROWS = 10_000;

export const pdfTooLarge = (rows: number | null) =>
  `A PDF holds at most ${PDF_MAX_ROWS.toLocaleString('en-US')} rows${rows ? `; this report has ${rows.toLocaleString('en-US')}` : ''}: choose CSV or Excel, or a shorter date range`;

/** Which record tables each report type holds. */
export const REPORT_TABLES: Record<ReportType, readonly ('quotes' | 'invoices' | 'leads' | 'clients')[]> = {
  sales: ['quotes'],
  financial: ['invoices'],
  leads: ['leads'],
  clients: ['clients'],
  // Compliance is reported as today's coverage and overdue reviews (the summary); no table of items yet.
  compliance: [],
  comprehensive: ['quotes', 'invoices', 'leads', 'clients'],
};

function summaryLines(type: ReportType, figures: PeriodFigures): string[] {
  const lines: string[] = [];
  const sales = type === 'sales' || type === 'comprehensive';
  const cash = type === 'financial' || type === 'comprehensive';
  if (sales) {
    if (figures.sales.length === 0) lines.push('Quotes: none in this period');
    for (const row of figures.sales) {
      lines.push(
        `Quotes in ${row.currency}: ${row.quotes}, worth ${formatWholeMoney(row.value, row.currency)}; signed ${row.signed} (${formatWholeMoney(row.signed_value, row.currency)})`,
      );
    }
    const rate = conversionRate(figures.sales);
    lines.push(`Conversion rate (signed of sent): ${rate === null ? 'no quotes sent' : `${rate}%`}`);
  }
  if (cash) {
    if (figures.cash.length === 0) lines.push('Invoices: none in this period');
    for (const row of figures.cash) {
      lines.push(
        `${row.currency}: invoiced ${formatWholeMoney(row.invoiced, row.currency)}, collected ${formatWholeMoney(row.collected, row.currency)}, overdue now ${formatWholeMoney(row.overdue, row.currency)}`,
      );
    }
  }
  if (type === 'leads' || type === 'comprehensive') lines.push(`New leads: ${figures.leads.total}`);
  if (type === 'clients' || type === 'comprehensive') lines.push(`New clients: ${figures.clients.new_clients}`);
  if (type === 'comprehensive') {
    const h = figures.helpdesk;
    lines.push(`Helpdesk conversations: ${h.conversations}`);
    const due = (h.sla_met ?? 0) + (h.sla_missed ?? 0);
    lines.push(due === 0 ? 'SLA met: no target fell due' : `SLA met: ${h.sla_met ?? 0} of ${due} targets (${share(h.sla_met ?? 0, due)}%)`);
    lines.push(h.csat_average == null ? 'CSAT: no ratings' : `CSAT: ${h.csat_average.toFixed(1)} of 5 from ${h.csat_responses} responses`);
  }
  if (type === 'comprehensive' && figures.logistics) {
    const l = figures.logistics;
    lines.push(`Shipments delivered: ${l.delivered}; on time ${l.on_time} of ${l.with_estimate} with an estimated date`);
  }
  if (type === 'compliance' || type === 'comprehensive') {
    const c = figures.compliance;
    lines.push(
      !c || c.total === 0
        ? 'Compliance: no requirements are tracked yet.'
        : `Compliance today: ${c.compliant} of ${c.total} requirements compliant; ${c.overdue_reviews >= 1000 ? '1,000+' : c.overdue_reviews} reviews overdue`,
    );
  }
  return lines;
}

function charts(type: ReportType, figures: PeriodFigures): ReportChart[] {
  const result: ReportChart[] = [];
  if (type === 'leads' || type === 'comprehensive') {
    result.push({
      title: 'New leads by source',
      points: Object.keys(LEAD_SOURCE_LABELS).map((key) => ({ label: LEAD_SOURCE_LABELS[key], value: figures.leads.by_source[key] ?? 0 })),
    });
  }
  if (type === 'sales' || type === 'comprehensive') {
    result.push({ title: 'Quotes by currency', points: figures.sales.map((row) => ({ label: row.currency, value: row.quotes })) });
  }
  if (type === 'financial' || type === 'comprehensive') {
    result.push({ title: 'Invoices by currency', points: figures.cash.map((row) => ({ label: row.currency, value: row.invoices })) });
  }
  return result;
}

export function buildReport(
  type: ReportType,
  figures: PeriodFigures,
  tables: ReportTable[],
  options: { includeSummary: boolean; includeCharts: boolean },
): Report {
  return {
    title: REPORT_TYPE_LABELS[type],
    period: `${figures.from} to ${figures.to} (${figures.timezone})`,
    summary: options.includeSummary ? summaryLines(type, figures) : null,
    charts: options.includeCharts ? charts(type, figures) : null,
    tables,
  };
}

export function rowCount(tables: ReportTable[]): number {
  return tables.reduce((sum, table) => sum + table.rows.length, 0);
}

/**
 * A text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR at
 * its start) gets a leading apostrophe: shown as text, never evaluated.
 */
export function neutralised(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

export function fileName(type: ReportType, figures: PeriodFigures, extension: string): string {
  return `${type}-report-${figures.from}-to-${figures.to}.${extension}`;
}
