// The Compliance screen (docs/product-guide.md, Compliance; issue 37): the
// account's obligations in the record table, searched and filtered by status,
// category, risk level and owner, the cards from compliance_summary, a month
// calendar of the reviews due (?month=YYYY-MM, links only: works without
// JavaScript) and the New Assessment dialog at ?new.
import { AlertTriangle, CalendarClock, ClipboardList, ShieldCheck } from '~/components/icons';
import { Form, Link } from 'react-router';
import type { Route } from './+types/compliance';
import { ListScreen } from '~/components/list-screen';
import { SectionHeading } from '~/components/page-header';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { NativeSelect } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readListQuery, statusOptions, type ListQuery } from '~/lib/list-query';
import { pageTitle } from '~/lib/page-title';
import { createRecord } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { monthGrid, readMonth, type CalendarMonth } from './calendar';
import { NewAssessmentForm } from './compliance-form';
import { insertComplianceItem, loadCompliance, type CalendarRow, type ComplianceRow } from './queries.server';
import {
  COMPLIANCE_CATEGORY_LABELS, COMPLIANCE_CATEGORY_OPTIONS, COMPLIANCE_STATUSES, FREQUENCY_LABELS, newAssessmentSchema,
  readFilters, RISK_LEVEL_LABELS, RISK_LEVEL_OPTIONS, type ComplianceCategory, type ComplianceFilters, type Frequency, type RiskLevel,
} from './schema';
import { complianceCreatedToast, COMPLIANCE_TEXTS as TEXTS } from './texts';

const LIST = '/compliance';
const STATUS_OPTIONS = statusOptions(COMPLIANCE_STATUSES);
/** Sorted by the next review date (index compliance_items_account_next_review_idx) or newest first. */
const SORTS = ['next_review_date', 'created_at'] as const;

const COLUMNS: RecordColumn<ComplianceRow>[] = [
  { id: 'title', header: 'Requirement', cell: (item) => item.title, className: 'md:max-w-72' },
  { id: 'category', header: 'Category', cell: (item) => COMPLIANCE_CATEGORY_LABELS[item.category as ComplianceCategory] ?? item.category },
  { id: 'risk', header: 'Risk level', cell: (item) => RISK_LEVEL_LABELS[item.risk_level as RiskLevel] ?? item.risk_level },
  { id: 'team', header: 'Responsible team', cell: (item) => item.responsible_team, className: 'max-w-48 truncate' },
  { id: 'frequency', header: 'Frequency', cell: (item) => FREQUENCY_LABELS[item.frequency as Frequency] ?? item.frequency },
  {
    id: 'next', header: 'Next review', sort: { key: 'next_review_date' },
    cell: (item) => <time dateTime={item.next_review_date}>{formatShortDate(item.next_review_date)}</time>,
  },
  {
    id: 'status', header: 'Status', phone: true,
    // Said in words, not only by colour: the current version of one of its evidence files has expired.
    cell: (item) => (
      <span className="inline-flex flex-wrap items-center gap-1">
        <StatusBadge status={item.status} />
        {item.evidence_expired ? <span className="text-xs font-medium text-destructive">{TEXTS.evidenceExpired}</span> : null}
      </span>
    ),
  },
];

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, COMPLIANCE_STATUSES, SORTS);
  const filters = readFilters(url);
  const month = readMonth(url);
  const [{ profile }, page] = await requireUserWith(request, context, (supabase) => loadCompliance(supabase, query, filters, month));
  return { canWrite: canWriteBusiness(profile?.role), filters, month, ...page };
}

export async function action(args: Route.ActionArgs) {
  return createRecord(args, {
    schema: newAssessmentSchema, listPath: LIST, texts: TEXTS, noun: 'compliance item', write: insertComplianceItem,
    createdToast: complianceCreatedToast,
  });
}

export default function Compliance({ loaderData, actionData }: Route.ComponentProps) {
  const { summary, list, canWrite, filters, owners, month, calendar } = loaderData;
  return (
    <>
      <ListScreen
        pathname={LIST}
        texts={TEXTS}
        list={list}
        canWrite={canWrite}
        statuses={STATUS_OPTIONS}
        summary={
          <>
            <StatGrid label="Compliance summary">
              <StatCard label="Active Requirements" value={summary.total.toLocaleString('en-US')} icon={ClipboardList} note="Obligations of your account" />
              <StatCard label="Compliant" value={summary.compliant.toLocaleString('en-US')} icon={ShieldCheck} note="Last review found them compliant" />
              <StatCard label="Action Items" value={summary.actionRequired.toLocaleString('en-US')} icon={AlertTriangle} note="Due, or found non-compliant" />
              <StatCard
                label="Next Review"
                value={summary.nextDue ? formatShortDate(summary.nextDue) : '—'}
                icon={CalendarClock}
                note={`${summary.due30 >= 1000 ? '1,000+' : summary.due30.toLocaleString('en-US')} due within 30 days`}
              />
            </StatGrid>
            <FilterForm query={list.query} filters={filters} owners={owners} month={month.month} />
          </>
        }
        form={<NewAssessmentForm lastResult={actionData && 'result' in actionData ? actionData.result : undefined} owners={owners} />}
      >
        <RecordTable
          caption={TEXTS.title}
          pathname={LIST}
          query={list.query}
          rows={list.rows}
          columns={COLUMNS}
          rowKey={(item) => item.id}
          href={(item) => `/compliance/${item.id}`}
          phoneLine={(item) => `${item.responsible_team} · ${formatShortDate(item.next_review_date)}`}
        />
      </ListScreen>
      <MonthCalendar month={month} rows={calendar.rows} more={calendar.more} failed={calendar.failed} />
    </>
  );
}

/** Category, risk level and owner, by GET (the search and status stay). */
function FilterForm({ query, filters, owners, month }: { query: ListQuery; filters: ComplianceFilters; owners: { value: string; label: string }[]; month: string }) {
  const select = (name: string, label: string, value: string | null, options: readonly { value: string; label: string }[]) => (
    <div className="grid gap-1 sm:w-44">
      <Label htmlFor={`compliance-${name}`}>{label}</Label>
      <NativeSelect id={`compliance-${name}`} name={name} defaultValue={value ?? ''} key={value ?? ''}>
        <option value="">All</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>{o.label}</option>
        ))}
      </NativeSelect>
    </div>
  );
  return (
    <Form method="get" action={LIST} aria-label={TEXTS.filters} className="flex flex-col gap-2 sm:flex-row sm:items-end">
      {query.q ? <input type="hidden" name="q" value={query.q} /> : null}
      {query.status ? <input type="hidden" name="status" value={query.status} /> : null}
      <input type="hidden" name="month" value={month} />
      {select('category', 'Category', filters.category, COMPLIANCE_CATEGORY_OPTIONS)}
      {select('risk', 'Risk level', filters.risk, RISK_LEVEL_OPTIONS)}
      {select('owner', 'Owner', filters.owner, owners)}
      <Button type="submit" variant="outline">{TEXTS.applyFilters}</Button>
    </Form>
  );
}

/** The month's due reviews on a grid; previous and next month are plain links. */
function MonthCalendar({ month, rows, more, failed }: { month: CalendarMonth; rows: CalendarRow[]; more: boolean; failed: boolean }) {
  const byDay = new Map<string, CalendarRow[]>();
  for (const row of rows) byDay.set(row.due_on, [...(byDay.get(row.due_on) ?? []), row]);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <SectionHeading>
          {TEXTS.calendarHeading}: {month.label}
        </SectionHeading>
        <nav aria-label="Calendar months" className="flex flex-wrap gap-2">
          <Link className="text-sm underline" to={`${LIST}/catalogues`}>Control catalogues</Link>
          <Link className="text-sm underline" to={`${LIST}?month=${month.previous}`}>{TEXTS.previousMonth}</Link>
          <Link className="text-sm underline" to={`${LIST}?month=${month.next}`}>{TEXTS.nextMonth}</Link>
        </nav>
      </CardHeader>
      <CardContent>
        {failed ? <p role="alert" className="text-sm text-destructive">{TEXTS.loadFailed}</p> : null}
        <table className="w-full table-fixed border-collapse text-xs" aria-label={`${TEXTS.calendarHeading} ${month.label}`}>
          <thead>
            <tr>
              {['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((d) => (
                <th key={d} scope="col" className="p-1 text-left font-medium text-muted-foreground">{d}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {monthGrid(month).map((week) => (
              <tr key={week.find(Boolean) ?? 'empty'}>
                {week.map((day, i) => (
                  <td key={day ?? `blank-${i}`} className="h-20 border border-border p-1 align-top">
                    {day ? (
                      <>
                        <div className="text-muted-foreground">{Number(day.slice(8))}</div>
                        <ul className="grid gap-0.5">
                          {(byDay.get(day) ?? []).map((row) => (
                            <li key={row.id} className="truncate">
                              <Link to={`${LIST}/${row.item?.id}`} className={row.status === 'done' ? 'line-through text-muted-foreground' : 'underline'}>
                                {row.item?.title}
                              </Link>
                            </li>
                          ))}
                        </ul>
                      </>
                    ) : null}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {more ? <p className="mt-2 text-sm text-muted-foreground">More reviews are due this month than the calendar shows; filter the list by its next review.</p> : null}
      </CardContent>
    </Card>
  );
}
