// Export Report (spec §3, issue 40): the dialog's post answers with the file
// itself (Content-Disposition: attachment), so the browser downloads it with
// or without JavaScript (the form is submitted as a document). The figures
// come from analytics_page and the records from their tables, both as the
// signed-in user: an auditor exports what they may read, nobody else anything.
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router';
import { requireUser } from '~/lib/auth.server';
import { isStaff } from '~/lib/roles';
import { readFormData } from '~/lib/forms.server';
import { refuseSubmission } from '~/lib/records.server';
import { fieldErrorResult } from '~/lib/simulated-upload.server';
import { dataWithError } from '~/lib/toast.server';
import { loadAnalytics } from '../queries.server';
import type { AnalyticsRange } from '../range';
import { exportReportSchema, type ExportReport } from '../schema';
import { reportCsv } from './csv';
import { reportPdf } from './pdf';
import { buildReport, DIRECT_ROWS, fileName } from './report';
import { loadReportTables } from './rows.server';
import { reportXlsx } from './xlsx';

export const EXPORT_FAILED = 'Failed to export report';
export const TOO_LARGE = `This report has more than ${DIRECT_ROWS.toLocaleString('en-US')} rows: choose a shorter date range`;

/**
 * The dialog always sends its three selects. Every field has a default, so a
 * form without them (made by hand, or unreadable: a wrong content type, too
 * big) would otherwise pass as a valid export: it is refused instead.
 */
const ALWAYS_SENT = [
  ['report_type', 'Choose a report type'],
  ['format', 'Choose a format'],
  ['date_range', 'Choose a date range'],
] as const;

function rangeOf(value: ExportReport): AnalyticsRange {
  return value.date_range === 'custom' ? { range: 'custom', from: value.start_date!, to: value.end_date! } : { range: value.date_range };
}

const TYPES = {
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  excel: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' },
  pdf: { contentType: 'application/pdf', extension: 'pdf' },
} as const;

/**
 * The dialog's post: checked here, so a mistake comes back in the dialog;
 * a valid export is sent on to GET /analytics/export?… (303), which answers
 * with the file. The form is submitted as a document, so the browser
 * downloads it and stays on the page, with or without JavaScript.
 */
export async function exportReportAction(args: ActionFunctionArgs) {
  await requireUser(args.request, args.context);
  const formData = await readFormData(args.request);
  const missing = ALWAYS_SENT.find(([name]) => !formData.has(name));
  if (missing) return dataWithError(args, { result: fieldErrorResult(missing[0], missing[1]) }, EXPORT_FAILED, { status: 400 });
  const submission = parseWithZod(formData, { schema: exportReportSchema });
  if (submission.status !== 'success') return refuseSubmission(args, submission);
  return new Response(null, { status: 303, headers: { Location: `/analytics/export?${exportQuery(submission.value)}` } });
}

export function exportQuery(value: ExportReport): string {
  const params = new URLSearchParams({ report_type: value.report_type, format: value.format, date_range: value.date_range });
  if (value.date_range === 'custom') {
    params.set('start_date', value.start_date!);
    params.set('end_date', value.end_date!);
  }
  if (value.include_charts) params.set('include_charts', 'on');
  if (value.include_summary) params.set('include_summary', 'on');
  return params.toString();
}

const textHeaders = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'private, no-store' };

/** GET /analytics/export?…: the file (a resource route; the same checks as the dialog). */
export async function exportReportFile(args: LoaderFunctionArgs) {
  const { supabase, profile } = await requireUser(args.request, args.context);
  if (!isStaff(profile?.role)) return new Response('Reports are for the account\'s team.', { status: 403, headers: textHeaders });
  const submission = parseWithZod(new URL(args.request.url).searchParams, { schema: exportReportSchema });
  if (submission.status !== 'success') {
    const first = Object.values(submission.error ?? {}).flat()[0] ?? 'Choose the report again';
    return new Response(first, { status: 400, headers: textHeaders });
  }
  const value = submission.value;
  let figures;
  let tables;
  try {
    figures = (await loadAnalytics(supabase, rangeOf(value))).current;
    tables = await loadReportTables(supabase, value.report_type, figures);
  } catch (error) {
    console.error(`report export failed: ${error instanceof Error ? error.message : String(error)}`);
    return new Response(EXPORT_FAILED, { status: 500, headers: textHeaders });
  }
  if ('tooLarge' in tables) return new Response(TOO_LARGE, { status: 413, headers: textHeaders });
  const report = buildReport(value.report_type, figures, tables, { includeSummary: value.include_summary, includeCharts: value.include_charts });
  const type = TYPES[value.format];
  const body =
    value.format === 'csv' ? reportCsv(report) : value.format === 'excel' ? reportXlsx(report) : await reportPdf(report, new Date());
  return new Response(body, {
    headers: {
      'Content-Type': type.contentType,
      'Content-Disposition': `attachment; filename="${fileName(value.report_type, figures, type.extension)}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
