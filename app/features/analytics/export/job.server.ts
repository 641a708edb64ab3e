// The export job (decision 081, the contract with automations' generate_report):
// `analytics.export_report` builds a report too large for a direct download
// with the same code as the download (the figures as the recipient reads
// them, the rows of the job's account), stores it in the private `reports`
// bucket under <account_id>/<job id>/, and queues the recipient a mail with a
// signed link valid 7 days (the platform's mail.send job: the account's mail
// route). Retrying re-stores the same object and queues the mail once.
import { PermanentJobError, type JobHandler } from '~/jobs/job.server';
import type { AnalyticsPage } from '../figures';
import { isAnalyticsPreset } from '../range';
import { REPORT_TYPE_LABELS, REPORT_TYPES, type ReportFormat, type ReportType } from '../schema';
import { FILE_TYPES, reportFile } from './file';
import { buildReport, fileName, PDF_MAX_ROWS, rowCount } from './report';
import { loadReportTables } from './rows.server';
import { queueMail } from '~/jobs/mail-jobs.server';

export const EXPORT_JOB = 'analytics.export_report';
export const REPORTS_BUCKET = 'reports';
/** How long the mailed link works. */
export const LINK_SECONDS = 7 * 24 * 3600;
/** The most rows a queued report holds (the reports bucket takes 10 MB a file); ANALYTICS_JOB_MAX_ROWS overrides it. */
export const JOB_MAX_ROWS = 50_000;

/** The contract's formats; `excel` (the dialog's value) is read as xlsx. */
const FORMATS: Record<string, ReportFormat> = { csv: 'csv', xlsx: 'excel', excel: 'excel', pdf: 'pdf' };
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export interface ExportJob {
  reportType: ReportType;
  format: ReportFormat;
  range: string;
  from: string | null;
  to: string | null;
  includeCharts: boolean;
  includeSummary: boolean;
  recipient: string;
}

/** The payload, checked: a job queued wrong can never succeed, so it fails at once. */
export function readExportJob(payload: Record<string, unknown>): ExportJob {
  const { report_type: type, format, date_range: range, from, to, recipient_user_id: recipient } = payload;
  if (typeof type !== 'string' || !(REPORT_TYPES as readonly string[]).includes(type)) throw new PermanentJobError('The export job has no valid report_type');
  if (typeof format !== 'string' || !(format in FORMATS)) throw new PermanentJobError('The export job has no valid format');
  if (typeof recipient !== 'string' || recipient === '') throw new PermanentJobError('The export job has no recipient_user_id');
  if (range === 'custom') {
    if (typeof from !== 'string' || typeof to !== 'string' || !DAY.test(from) || !DAY.test(to) || to < from) {
      throw new PermanentJobError('The export job\'s custom range needs from and to dates');
    }
  } else if (typeof range !== 'string' || !isAnalyticsPreset(range)) {
    throw new PermanentJobError('The export job has no valid date_range');
  }
  return {
    reportType: type as ReportType,
    format: FORMATS[format],
    range,
    from: range === 'custom' ? (from as string) : null,
    to: range === 'custom' ? (to as string) : null,
    includeCharts: payload.include_charts === true,
    includeSummary: payload.include_summary === true,
    recipient,
  };
}

function maxRows(env: Env): number {
  const value = Number((env as { ANALYTICS_JOB_MAX_ROWS?: string }).ANALYTICS_JOB_MAX_ROWS);
  return Number.isInteger(value) && value > 0 ? value : JOB_MAX_ROWS;
}

export const ANALYTICS_JOB_TYPES: Record<string, JobHandler> = {
  [EXPORT_JOB]: async (payload, { admin, env, job }) => {
    const accountId = job.account_id;
    if (!accountId) throw new PermanentJobError('The export job has no account');
    const request = readExportJob(payload);
    const { data: user, error: userError } = await admin
      .from('users')
      .select('email, role, is_active')
      .eq('id', request.recipient)
      .eq('account_id', accountId)
      .maybeSingle();
    if (userError) throw new Error(`the report's recipient failed to load: ${userError.message}`);
    if (!user || !user.is_active || !['admin', 'member', 'auditor'].includes(user.role)) {
      throw new PermanentJobError('The report\'s recipient is not on the account\'s team');
    }
    const { data: page, error } = await admin.rpc('analytics_page_for_user', {
      p_account_id: accountId,
      p_user_id: request.recipient,
      p_range: request.range,
      ...(request.from && request.to ? { p_from: request.from, p_to: request.to } : {}),
    });
    if (error) throw new Error(`the report's figures failed to load: ${error.message}`);
    const figures = (page as unknown as AnalyticsPage).current;
    const limit = request.format === 'pdf' ? Math.min(maxRows(env), PDF_MAX_ROWS) : maxRows(env);
    const tables = await loadReportTables(admin, request.reportType, figures, { limit, accountId });
    const label = REPORT_TYPE_LABELS[request.reportType];
    const mailKey = `${EXPORT_JOB}:${job.id}:mail`;
    if ('tooLarge' in tables) {
      await queueMail(admin, accountId, mailKey, {
        to: user.email,
        subject: `${label} not exported: too many rows`,
        text: request.format === 'pdf'
          ? `Hello,\n\nThe ${label} for ${figures.from} to ${figures.to} has more than ${limit.toLocaleString('en-US')} rows, more than one PDF can hold. Export it as CSV or Excel, or a shorter date range.\n`
          : `Hello,\n\nThe ${label} for ${figures.from} to ${figures.to} has more than ${limit.toLocaleString('en-US')} rows, more than one file can hold. Export a shorter date range.\n`,
      });
      return;
    }
    const report = buildReport(request.reportType, figures, tables, { includeSummary: request.includeSummary, includeCharts: request.includeCharts });
    const type = FILE_TYPES[request.format];
    const body = await reportFile(request.format, report, new Date());
    const path = `${accountId}/${job.id}/${fileName(request.reportType, figures, type.extension)}`;
    // The bucket's allowed types are bare media types (no charset parameter).
    const mediaType = type.contentType.split(';')[0];
    const stored = await admin.storage.from(REPORTS_BUCKET).upload(path, new Blob([body], { type: mediaType }), { contentType: mediaType, upsert: true });
    if (stored.error) throw new Error(`the report could not be stored: ${stored.error.message}`);
    const signed = await admin.storage.from(REPORTS_BUCKET).createSignedUrl(path, LINK_SECONDS);
    if (signed.error || !signed.data) throw new Error(`the report's link could not be signed: ${signed.error?.message}`);
    await queueMail(admin, accountId, mailKey, {
      to: user.email,
      subject: `Your ${label} is ready`,
      text: [
        'Hello,',
        '',
        `The ${label} you asked for (${figures.from} to ${figures.to}, ${rowCount(tables).toLocaleString('en-US')} rows) is ready.`,
        `Download it within 7 days: ${signed.data.signedUrl}`,
        '',
      ].join('\n'),
    });
  },
};
