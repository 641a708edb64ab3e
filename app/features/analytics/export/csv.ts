// A report as CSV (RFC 4180, CRLF): the title and period, the summary lines
// and chart figures when asked for, then each table under its title.
import { neutralised, type Cell, type Report } from './report';

export function csvCell(value: Cell): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? String(value) : neutralised(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function reportCsv(report: Report): string {
  const lines: Cell[][] = [[report.title], ['Period', report.period]];
  if (report.summary) {
    lines.push([], ['Summary']);
    for (const line of report.summary) lines.push([line]);
  }
  for (const chart of report.charts ?? []) {
    lines.push([], [chart.title], ['Label', 'Value']);
    for (const point of chart.points) lines.push([point.label, point.value]);
  }
  for (const table of report.tables) {
    lines.push([], [table.title], table.columns, ...table.rows);
  }
  return lines.map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
