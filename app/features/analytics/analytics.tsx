import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { CalendarRange, DollarSign, Download, Percent, Target, Users } from '~/components/icons';
import { Form, Link, useSearchParams } from 'react-router';
import type { Route } from './+types/analytics';
import { BarChart } from '~/features/analytics/charts/bar-chart';
import { LineChart } from '~/features/analytics/charts/line-chart';
import { InertButton } from '~/components/inert-button';
import { PreviewBanner } from '~/components/preview-banner';
import { PageHeader, SectionHeading } from '~/components/page-header';
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
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import {
  ANALYTICS_KPIS,
  LEAD_SOURCES,
  LEADS_BY_MONTH,
  MONTHLY_GOALS,
  REVENUE_BY_MONTH,
  TOP_SERVICES,
  type MonthlyGoal,
} from './samples';
import {
  DATE_RANGE_OPTIONS,
  exportReportSchema,
  REPORT_DEFAULTS,
  REPORT_FORMAT_OPTIONS,
  REPORT_TYPE_OPTIONS,
} from './schema';
import { SIMULATED_ACTIONS } from '~/lib/simulated';
import { readFormData } from '~/lib/forms.server';
import { simulatedCreate, type FormRead } from '~/lib/simulated.server';
import { fieldErrorResult } from '~/lib/simulated-upload.server';
import { useHydrated } from '~/lib/use-hydrated';
import { pageTitle } from '~/lib/page-title';

const LIST_PATH = '/analytics';
const DIALOG_PARAM = 'export';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Analytics') }];

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

async function readReportForm(request: Request): Promise<FormRead> {
  const formData = await readFormData(request);
  const missing = ALWAYS_SENT.find(([name]) => !formData.has(name));
  if (!missing) return { formData };
  return { rejected: fieldErrorResult(missing[0], missing[1]), status: 400 };
}

export async function action(args: Route.ActionArgs) {
  return simulatedCreate(args, { action: 'report', schema: exportReportSchema, listPath: LIST_PATH, readForm: readReportForm });
}

const KPI_ICONS = [DollarSign, Percent, Users, Target];
const wholeDollars = (value: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(value);

export default function Analytics({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  return (
    <>
      <PreviewBanner />
      <PageHeader
        title="Analytics"
        description="How sales, leads and services are doing, and progress against this month's goals."
        actions={
          <>
            <InertButton variant="outline">
              <CalendarRange className="size-4" aria-hidden="true" />
              Date Range
            </InertButton>
            <Link to={`?${DIALOG_PARAM}`} preventScrollReset className={buttonClasses()}>
              <Download className="size-4" aria-hidden="true" />
              Export Report
            </Link>
          </>
        }
      />
      <StatGrid label="Key figures">
        {ANALYTICS_KPIS.map((kpi, index) => (
          <StatCard key={kpi.label} label={kpi.label} value={kpi.value} note={kpi.note} icon={KPI_ICONS[index]} />
        ))}
      </StatGrid>

      <div className="mb-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <SectionHeading>Revenue Trend</SectionHeading>
          </CardHeader>
          <CardContent>
            <LineChart
              id="revenue-trend"
              caption="Monthly revenue over the last six months, in US dollars."
              valueLabel="Revenue"
              points={REVENUE_BY_MONTH}
              formatValue={wholeDollars}
            />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <SectionHeading>New Leads</SectionHeading>
          </CardHeader>
          <CardContent>
            <BarChart
              id="new-leads"
              caption="New leads per month over the last six months."
              valueLabel="New leads"
              points={LEADS_BY_MONTH}
            />
          </CardContent>
        </Card>
      </div>

      <div className="mb-6 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <SectionHeading>Top Performing Services</SectionHeading>
          </CardHeader>
          <CardContent>
            <table className="w-full text-sm">
              <thead>
                <tr className="border-b border-border text-left text-muted-foreground">
                  <th scope="col" className="pb-2 font-medium">Service</th>
                  <th scope="col" className="pb-2 text-right font-medium">Revenue</th>
                  <th scope="col" className="pb-2 text-right font-medium">Deals</th>
                  <th scope="col" className="pb-2 text-right font-medium">Growth</th>
                </tr>
              </thead>
              <tbody>
                {TOP_SERVICES.map((service) => (
                  <tr key={service.name} className="border-b border-border last:border-0">
                    <th scope="row" className="py-2 text-left font-medium">{service.name}</th>
                    <td className="py-2 text-right">{service.revenue}</td>
                    <td className="py-2 text-right">{service.deals}</td>
                    <td className="py-2 text-right text-green-800">{service.growth}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <SectionHeading>Lead Sources</SectionHeading>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-3">
              {LEAD_SOURCES.map((source) => (
                <li key={source.source} className="grid gap-1">
                  <div className="flex justify-between text-sm">
                    <span className="font-medium">{source.source}</span>
                    <span className="text-muted-foreground">
                      {source.leads} leads ({source.share}%)
                    </span>
                  </div>
                  <div className="h-2 rounded-full bg-muted" aria-hidden="true">
                    <div className="h-2 rounded-full bg-primary" style={{ width: `${source.share}%` }} />
                  </div>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <SectionHeading>Monthly Goals</SectionHeading>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4 sm:grid-cols-2">
            {MONTHLY_GOALS.map((goal) => (
              <GoalProgress key={goal.name} goal={goal} />
            ))}
          </ul>
        </CardContent>
      </Card>

      <UrlDialog
        open={searchParams.has(DIALOG_PARAM)}
        closeTo={LIST_PATH}
        title="Export Report"
        description="Choose the report, its format and the period it covers."
      >
        <ExportReportForm lastResult={actionData?.result} />
      </UrlDialog>
    </>
  );
}

function GoalProgress({ goal }: { goal: MonthlyGoal }) {
  const percent = Math.min(100, Math.round((goal.current / goal.target) * 100));
  const format = goal.format === 'money' ? wholeDollars : (value: number) => value.toLocaleString('en-US');
  const labelId = `goal-${goal.name.toLowerCase().replace(/\s+/g, '-')}`;
  const text = `${format(goal.current)} of ${format(goal.target)}`;
  return (
    <li className="grid gap-2">
      <div className="flex justify-between text-sm">
        <span id={labelId} className="font-medium">
          {goal.name}
        </span>
        <span className="text-muted-foreground">
          {text} ({percent}%)
        </span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${text}, ${percent}%`}
        className="h-2.5 rounded-full bg-muted"
      >
        <div className="h-2.5 rounded-full bg-primary" style={{ width: `${percent}%` }} />
      </div>
    </li>
  );
}

function ExportReportForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(exportReportSchema, {
    id: 'export-report',
    lastResult,
    defaultValue: {
      report_type: REPORT_DEFAULTS.report_type,
      format: REPORT_DEFAULTS.format,
      date_range: REPORT_DEFAULTS.date_range,
      include_charts: 'on',
      include_summary: 'on',
    },
  });
  const hydrated = useHydrated();
  // Without JavaScript the dates are always there (a custom range needs them);
  // with it, they appear when the custom range is chosen.
  const showDates = !hydrated || fields.date_range.value === 'custom';
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
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
      <DialogActions closeTo={LIST_PATH}>
        <SubmitButton label="Export Report" busyLabel={SIMULATED_ACTIONS.report.busyLabel} />
      </DialogActions>
    </Form>
  );
}
