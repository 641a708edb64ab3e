// Export report (docs/product-guide.md): format pdf and range
// last_30_days by default; start and end dates required only for a custom
// range; include_charts and include_summary on by default.
import { z } from '~/lib/schemas/zod';
import { isRealDate, oneOf, type Option } from '~/lib/schemas/fields';

export const REPORT_TYPES = ['sales', 'financial', 'leads', 'clients', 'compliance', 'comprehensive'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const REPORT_TYPE_LABELS: Record<ReportType, string> = {
  sales: 'Sales Report',
  financial: 'Financial Report',
  leads: 'Leads Report',
  clients: 'Clients Report',
  compliance: 'Compliance Report',
  comprehensive: 'Comprehensive Report',
};

export const REPORT_FORMATS = ['pdf', 'excel', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const REPORT_FORMAT_LABELS: Record<ReportFormat, string> = { pdf: 'PDF', excel: 'Excel', csv: 'CSV' };

export const DATE_RANGES = ['last_7_days', 'last_30_days', 'last_quarter', 'last_year', 'custom'] as const;
export type DateRange = (typeof DATE_RANGES)[number];
export const DATE_RANGE_LABELS: Record<DateRange, string> = {
  last_7_days: 'Last 7 days',
  last_30_days: 'Last 30 days',
  last_quarter: 'Last quarter',
  last_year: 'Last year',
  custom: 'Custom range',
};

function options<T extends string>(values: readonly T[], labels: Record<T, string>): Option<T>[] {
  return values.map((value) => ({ value, label: labels[value] }));
}
export const REPORT_TYPE_OPTIONS = options(REPORT_TYPES, REPORT_TYPE_LABELS);
export const REPORT_FORMAT_OPTIONS = options(REPORT_FORMATS, REPORT_FORMAT_LABELS);
export const DATE_RANGE_OPTIONS = options(DATE_RANGES, DATE_RANGE_LABELS);

export const REPORT_DEFAULTS = {
  report_type: 'sales',
  format: 'pdf',
  date_range: 'last_30_days',
  include_charts: true,
  include_summary: true,
} as const;

const optionalDate = z
  .string()
  .trim()
  .refine((value) => isRealDate(value), 'Enter a valid date')
  .optional();

export const exportReportSchema = z
  .object({
    report_type: oneOf(REPORT_TYPES, 'Report type').default(REPORT_DEFAULTS.report_type),
    format: oneOf(REPORT_FORMATS, 'Format').default(REPORT_DEFAULTS.format),
    date_range: oneOf(DATE_RANGES, 'Date range').default(REPORT_DEFAULTS.date_range),
    start_date: optionalDate,
    end_date: optionalDate,
    // A checkbox sends 'on' when ticked and nothing when not: absent is false.
    // The "on by default" of the spec is the form's initial state.
    include_charts: z.boolean().default(false),
    include_summary: z.boolean().default(false),
  })
  .superRefine((value, ctx) => {
    if (value.date_range !== 'custom') return;
    if (!value.start_date) ctx.addIssue({ code: 'custom', path: ['start_date'], message: 'Start date is required for a custom range' });
    if (!value.end_date) ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'End date is required for a custom range' });
    if (value.start_date && value.end_date && value.end_date < value.start_date) {
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'End date must be on or after the start date' });
    }
  });

export type ExportReport = z.output<typeof exportReportSchema>;
