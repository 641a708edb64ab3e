// One report, one file: the format's writer, its content type and extension.
// The direct download and the export job both build their file here.
import type { ReportFormat } from '../schema';
import { reportCsv } from './csv';
import { reportPdf } from './pdf';
import type { Report } from './report';
import { reportXlsx } from './xlsx';

export const FILE_TYPES = {
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  excel: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' },
  pdf: { contentType: 'application/pdf', extension: 'pdf' },
} as const;

export async function reportFile(format: ReportFormat, report: Report, now: Date): Promise<Uint8Array<ArrayBuffer>> {
  if (format === 'csv') return new TextEncoder().encode(reportCsv(report)) as Uint8Array<ArrayBuffer>;
  if (format === 'excel') return reportXlsx(report);
  return reportPdf(report, now);
}
