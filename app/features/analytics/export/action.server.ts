// Export Report (spec §3, issue 40): the dialog's post answers with the file
// itself (Content-Disposition: attachment), so the browser downloads it with
// or without JavaScript (the form is submitted as a document). The figures
// come from analytics_page and the records from their tables, both as the
// signed-in user: an auditor exports what they may read, nobody else anything.
// A report of more rows than a direct download holds is queued as the export
// job (job.server.ts), which mails a link to the file.
import { parseWithZod } from '@conform-to/zod/v4';
import { env } from 'cloudflare:workers';
import { redirectWithSuccess } from 'remix-toast';
import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router';
import { requireUser, requireUserWith } from '~/lib/auth.server';
import { isStaff } from '~/lib/roles';
import { readFormData } from '~/lib/forms.server';
import { refuseSubmission } from '~/lib/records.server';
import { fieldErrorResult } from '~/lib/simulated-upload.server';
import { dataWithError } from '~/lib/toast.server';
import { loadAnalytics } from '../queries.server';
import type { AnalyticsRange } from '../range';
import { exportReportSchema, type ExportReport } from '../schema';
import { kickJobRunner } from '~/jobs/kick.server';
import { FILE_TYPES, reportFile } from './file';
import { buildReport, DIRECT_ROWS, fileName, PDF_MAX_ROWS, pdfTooLarge } from './report';
import { loadReportTables } from './rows.server';

export const EXPORT_FAILED = 'Failed to export report';
export const tooLarge = (limit: number) => `This report has more than ${limit.toLocaleString('en-US')} rows: choose a shorter date range`;
export const queuedText = (limit: number) =>
  `This report has more than ${limit.toLocaleString('en-US')} rows: it will be emailed to you as a download link when it is ready`;

/** The most rows a direct download holds: DIRECT_ROWS, or ANALYTICS_DIRECT_ROWS where set (tests lower it). */
export function directRows(): number {
  const value = Number((env as { ANALYTICS_DIRECT_ROWS?: string }).ANALYTICS_DIRECT_ROWS);
  return Number.isInteger(value) && value > 0 ? value : DIRECT_ROWS;
}

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

/**
 * The dialog's post: checked here, so a mistake comes back in the dialog;
 * a valid export is sent on to GET /analytics/export?… (303), which answers
 * with the file. The form is submitted as a document, so the browser
 * downloads it and stays on the page, with or without JavaScript. A report
 * of more rows is queued instead, and the page says it will be mailed.
 */
export async function exportReportAction(args: ActionFunctionArgs) {
  const formData = await readFormData(args.request);
  const missing = ALWAYS_SENT.find(([name]) => !formData.has(name));
  const submission = missing ? undefined : parseWithZod(formData, { schema: exportReportSchema });
  const value = submission?.status === 'success' ? submission.value : undefined;
  const limit = directRows();
  // One round trip: the row count (and, over the limit, the queued job) in one
  // call (analytics_export_request, 20261206300002), started alongside the
  // users row; a signed-out visitor is still sent to sign in first.
  const [{ profile }, answer] = await requireUserWith(args.request, args.context, async (supabase) =>
    value ? await supabase.rpc('analytics_export_request', exportRequestArgs(value, limit)) : undefined,
  );
  if (missing) return dataWithError(args, { result: fieldErrorResult(missing[0], missing[1]) }, EXPORT_FAILED, { status: 400 });
  if (!value) return refuseSubmission(args, submission!);
  if (!isStaff(profile?.role)) return dataWithError(args, { result: undefined }, 'Reports are for the account\'s team', { status: 403 });
  const { data, error } = answer!;
  if (error) {
    // The one refusal a person can act on: too many exports waiting.
    const message = error.code === '54000' ? error.message : EXPORT_FAILED;
    if (error.code !== '54000') console.error(`report export failed: ${error.message}`);
    return dataWithError(args, { result: undefined }, message, { status: error.code === '54000' ? 429 : 500 });
  }
  const { rows, queued_job_id: queued } = data as { rows: number; queued_job_id: string | null };
  if (value.format === 'pdf' && rows > PDF_MAX_ROWS) {
    const message = pdfTooLarge(rows);
    return dataWithError(args, { result: fieldErrorResult('format', message) }, message, { status: 400 });
  }
  if (!queued) {
    return new Response(null, { status: 303, headers: { Location: `/analytics/export?${exportQuery(value)}` } });
  }
  kickJobRunner(args.context);
  const range = value.date_range === 'custom' ? `range=custom&from=${value.start_date}&to=${value.end_date}` : `range=${value.date_range}`;
  return redirectWithSuccess(`/analytics?${range}`, queuedText(limit));
}

/** analytics_export_request's arguments: the checked form, and the most rows a direct download holds. */
function exportRequestArgs(value: ExportReport, limit: number) {
  return {
    p_report_type: value.report_type,
    p_format: value.format === 'excel' ? 'xlsx' : value.format,
    p_date_range: value.date_range,
    // Null for a preset (the function reads them for a custom range only).
    p_from: (value.date_range === 'custom' ? value.start_date! : null) as string,
    p_to: (value.date_range === 'custom' ? value.end_date! : null) as string,
    p_include_charts: value.include_charts,
    p_include_summary: value.include_summary,
    p_direct_rows: limit,
    // Over a PDF's most nothing is queued: the dialog says so under Format.
    ...(value.format === 'pdf' ? { p_max_rows: PDF_MAX_ROWS } : {}),
  };
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
  const limit = value.format === 'pdf' ? Math.min(directRows(), PDF_MAX_ROWS) : directRows();
  let figures;
  let tables;
  try {
    figures = (await loadAnalytics(supabase, rangeOf(value))).current;
    tables = await loadReportTables(supabase, value.report_type, figures, { limit });
  } catch (error) {
    console.error(`report export failed: ${error instanceof Error ? error.message : String(error)}`);
    return new Response(EXPORT_FAILED, { status: 500, headers: textHeaders });
  }
  if ('tooLarge' in tables) return new Response(value.format === 'pdf' ? pdfTooLarge(null) : tooLarge(limit), { status: 413, headers: textHeaders });
  const report = buildReport(value.report_type, figures, tables, { includeSummary: value.include_summary, includeCharts: value.include_charts });
  const type = FILE_TYPES[value.format];
  const body = await reportFile(value.format, report, new Date());
  return new Response(body, {
    headers: {
      'Content-Type': type.contentType,
      'Content-Disposition': `attachment; filename="${fileName(value.report_type, figures, type.extension)}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
