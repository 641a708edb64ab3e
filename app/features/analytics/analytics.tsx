import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Download, FileText, Percent, Target, Users } from '~/components/icons';
import { Form, Link, useSearchParams } from 'react-router';
import type { Route } from './+types/analytics';
import { PageHeader } from '~/components/page-header';
import {
  CheckboxField,
  DialogActions,
  SelectField,
  TextField,
  useSchemaForm,
} from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { StatCard, StatGrid } from '~/components/stat-card';
import { buttonClasses } from '~/components/ui/button';
import { UrlDialog } from '~/components/url-dialog';
import { change, conversionRate, isEmpty, quoteCount } from './figures';
import { exportReportAction } from './export/action.server';
import { loadAnalytics } from './queries.server';
import { readRange, rangeQuery, type AnalyticsRange } from './range';
import { RangeForm } from './range-form';
import { CashSection, ClientsAndHelpdeskSection, ComplianceSection, LeadsSection, LogisticsSection, SalesSection } from './sections';
import { GoalsSection } from './goals-section';
import { requireUserWith } from '~/lib/auth.server';
import {
  DATE_RANGE_OPTIONS,
  exportReportSchema,
  REPORT_DEFAULTS,
  REPORT_FORMAT_OPTIONS,
  REPORT_TYPE_OPTIONS,
} from './schema';
import { useHydrated } from '~/lib/use-hydrated';
import { pageTitle } from '~/lib/page-title';

const LIST_PATH = '/analytics';
const DIALOG_PARAM = 'export';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Analytics') }];

// The export answers with the file itself (export/action.server.ts).
export async function action(args: Route.ActionArgs) {
  return exportReportAction(args);
}

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const range = readRange(url);
  const [{ profile }, figures] = await requireUserWith(request, context, (supabase) => loadAnalytics(supabase, range));
  return { range, figures, isAdmin: profile?.role === 'admin' };
}

const dateFormat = new Intl.DateTimeFormat('en-US', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const day = (iso: string) => dateFormat.format(new Date(`${iso}T00:00:00Z`));

export default function Analytics({ loaderData, actionData }: Route.ComponentProps) {
  const { range, figures, isAdmin } = loaderData;
  const { current, previous } = figures;
  const [searchParams] = useSearchParams();
  const query = rangeQuery(range);
  const rate = conversionRate(current.sales);
  const previousRate = conversionRate(previous.sales);
  return (
    <>
      <PageHeader
        title="Analytics"
        description="How sales, cash, leads and the helpdesk are doing over the period you choose."
        actions={
          <Link to={`?${query}&${DIALOG_PARAM}`} preventScrollReset className={buttonClasses()}>
            <Download className="size-4" aria-hidden="true" />
            Export Report
          </Link>
        }
      />
      <RangeForm range={range} error={range.error} />
      <p className="mb-4 text-sm text-muted-foreground" data-range="">
        {day(current.from)} – {day(current.to)} ({current.timezone}), compared with {day(previous.from)} – {day(previous.to)}.
      </p>
      <StatGrid label="Key figures">
        <StatCard label="Quotes" value={String(quoteCount(current.sales))} note={change(quoteCount(current.sales), quoteCount(previous.sales))} icon={FileText} />
        <StatCard
          label="Conversion Rate"
          value={rate === null ? '—' : `${rate}%`}
          note={previousRate === null ? 'No quotes sent in the previous period' : `${previousRate}% in the previous period`}
          icon={Percent}
        />
        <StatCard label="New Leads" value={String(current.leads.total)} note={change(current.leads.total, previous.leads.total)} icon={Target} />
        <StatCard label="New Clients" value={String(current.clients.new_clients)} note={change(current.clients.new_clients, previous.clients.new_clients)} icon={Users} />
      </StatGrid>
      {isEmpty(current) ? (
        <p className="mb-6 rounded-md border border-dashed border-border p-4 text-sm" data-empty="">
          Nothing was recorded in this period yet. Figures appear here as quotes, invoices, leads, clients and conversations come in.
        </p>
      ) : null}
      <div className="mb-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <SalesSection current={current} previous={previous} />
        <CashSection current={current} previous={previous} />
        <LeadsSection current={current} previous={previous} />
        <ClientsAndHelpdeskSection current={current} previous={previous} />
        <GoalsSection goals={figures.goals} isAdmin={isAdmin} />
        <LogisticsSection current={current} previous={previous} />
        <ComplianceSection current={current} />
      </div>

      <UrlDialog
        open={searchParams.has(DIALOG_PARAM)}
        closeTo={`${LIST_PATH}?${query}`}
        title="Export Report"
        description="Choose the report, its format and the period it covers."
      >
        <ExportReportForm lastResult={actionData?.result} range={range} closeTo={`${LIST_PATH}?${query}`} />
      </UrlDialog>
    </>
  );
}

function ExportReportForm({ lastResult, range, closeTo }: { lastResult?: SubmissionResult<string[]>; range: AnalyticsRange; closeTo: string }) {
  const [form, fields] = useSchemaForm(exportReportSchema, {
    id: 'export-report',
    lastResult,
    defaultValue: {
      report_type: REPORT_DEFAULTS.report_type,
      format: REPORT_DEFAULTS.format,
      date_range: range.range,
      start_date: range.from,
      end_date: range.to,
      include_charts: 'on',
      include_summary: 'on',
    },
  });
  const hydrated = useHydrated();
  // Without JavaScript the dates are always there (a custom range needs them);
  // with it, they appear when the custom range is chosen.
  const showDates = !hydrated || fields.date_range.value === 'custom';
  return (
    // A document submission: the answer is the file, which the browser downloads with or without JavaScript.
    <Form method="post" reloadDocument className="grid gap-4" {...getFormProps(form)}>
      <SelectField field={fields.report_type} label="Report type" options={REPORT_TYPE_OPTIONS} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField field={fields.format} label="Format" options={REPORT_FORMAT_OPTIONS} />
        <SelectField field={fields.date_range} label="Date range" options={DATE_RANGE_OPTIONS} />
      </div>
      {showDates ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.start_date} label="Start date" type="date" hint="Required for a custom range." />
          <TextField field={fields.end_date} label="End date" type="date" hint="Required for a custom range." />
        </div>
      ) : null}
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Include</legend>
        <CheckboxField field={fields.include_charts} label="Charts" />
        <CheckboxField field={fields.include_summary} label="Summary" />
      </fieldset>
      <p className="text-sm text-muted-foreground" data-export-note="">
        Up to 10,000 rows download at once; a larger report is emailed to you as a download link when it is ready.
      </p>
      <DialogActions closeTo={closeTo}>
        <SubmitButton label="Export Report" busyLabel="Exporting..." />
      </DialogActions>
    </Form>
  );
}
