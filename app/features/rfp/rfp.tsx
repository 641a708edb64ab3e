// The /rfp screen (docs/product-guide.md, RFP; issue 38): the account's bids in the record table, searched
// and filtered by status, sorted by deadline; the cards from rfp_totals (per currency, never added across
// currencies); days left counted from today (red under 7; a past deadline says so); the New RFP Response
// dialog at ?new, validated on the server and working without JavaScript.
import { Calendar, DollarSign, Radar, Target, Timer } from '~/components/icons';
import type { Route } from './+types/rfp';
import { ListScreen } from '~/components/list-screen';
import { createdColumn } from '~/components/records/columns';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readListQuery } from '~/lib/list-query';
import { centsToInput, formatMoney, formatMoneySums } from '~/lib/money';
import { pageTitle } from '~/lib/page-title';
import { createRecord, isUuid } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { deadlineNote, todayIso } from './deadline';
import { DaysLeft } from './days-left';
import { insertRfp, loadRfps, type RfpRow, type RfpTotal } from './queries.server';
import { loadOpportunity } from './radar.server';
import { NewRfpResponseForm, type PursuedFrom } from './rfp-forms';
import { RfpTabs } from './rfp-tabs';
import { newRfpResponseSchema, RFP_CURRENCIES, RFP_DECISION_LABELS, RFP_STATUS_OPTIONS, RFP_STATUSES, type RfpDecision } from './schema';
import { RFP_TEXTS as TEXTS } from './texts';

const LIST = '/rfp';
/** Sorted by deadline (index rfps_account_id_deadline_idx) or newest first. */
const SORTS = ['deadline', 'created_at'] as const;

const columns = (today: string): RecordColumn<RfpRow>[] => [
  { id: 'title', header: 'RFP', cell: (rfp) => rfp.title, className: 'md:max-w-72' },
  { id: 'company', header: 'Company', cell: (rfp) => rfp.company, className: 'max-w-48 truncate' },
  { id: 'value', header: 'Value', cell: (rfp) => formatMoney(Number(rfp.value), rfp.currency), className: 'whitespace-nowrap text-right' },
  {
    id: 'deadline', header: 'Deadline', sort: { key: 'deadline' }, className: 'whitespace-nowrap',
    cell: (rfp) => (
      <span className="flex items-center gap-1">
        <Calendar className="size-3.5" aria-hidden="true" />
        <time dateTime={rfp.deadline}>{formatShortDate(rfp.deadline)}</time>
      </span>
    ),
  },
  { id: 'days', header: 'Days left', cell: (rfp) => <DaysLeft deadline={rfp.deadline} today={today} />, className: 'whitespace-nowrap' },
  { id: 'decision', header: 'Go / no-go', cell: (rfp) => (rfp.decision ? RFP_DECISION_LABELS[rfp.decision as RfpDecision] : 'Undecided') },
  { id: 'status', header: 'Status', cell: (rfp) => <StatusBadge status={rfp.status} />, phone: true },
  createdColumn('Created'),
];

/** The dialog's values from a notice: its title, buyer, deadline, and value when the bid can keep its currency. */
function pursuedFrom(o: NonNullable<Awaited<ReturnType<typeof loadOpportunity>>>): PursuedFrom {
  const currency = (RFP_CURRENCIES as readonly string[]).includes(o.currency ?? '') ? o.currency! : 'USD';
  const sameCurrency = o.value !== null && o.currency === currency;
  return {
    id: o.id,
    currency,
    defaultValue: {
      title: o.title.slice(0, 200),
      company: o.buyer?.slice(0, 200) ?? '',
      value: sameCurrency ? centsToInput(Number(o.value), currency) : '',
      deadline: o.deadline ? o.deadline.slice(0, 10) : '',
      additional_notes: o.url ? `Notice: ${o.url}`.slice(0, 5000) : '',
    },
  };
}

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, RFP_STATUSES, SORTS);
  const today = todayIso();
  // Pursue on the radar opens the dialog here, filled in from the opportunity (read alongside the list).
  const opportunityId = url.searchParams.get('opportunity');
  const [{ profile }, [found, opportunity]] = await requireUserWith(request, context, (supabase) =>
    Promise.all([loadRfps(supabase, query, today), isUuid(opportunityId) ? loadOpportunity(supabase, opportunityId) : null]));
  return { ...found, today, canWrite: canWriteBusiness(profile?.role), pursued: opportunity ? pursuedFrom(opportunity) : null };
}

export function action(args: Route.ActionArgs) {
  return createRecord(args, { schema: newRfpResponseSchema, listPath: LIST, texts: TEXTS, noun: 'rfp', write: insertRfp });
}

/** Open bids' value, one figure per currency: '$500,000.00 · €12,000.00'. */
const pipeline = (totals: RfpTotal[]) =>
  formatMoneySums(totals.filter((t) => t.openValue > 0).map((t) => ({ currency: t.currency, count: 0, value: t.openValue, average: 0 })), { whole: true });

export default function Rfp({ loaderData, actionData }: Route.ComponentProps) {
  const { totals, totalsFailed, list, today, canWrite, pursued } = loaderData;
  const open = totals.reduce((n, t) => n + t.openCount, 0);
  const due = totals.reduce((n, t) => n + t.dueThisWeek, 0);
  const won = totals.reduce((n, t) => n + t.won, 0);
  const decided = won + totals.reduce((n, t) => n + t.lost, 0);
  const figure = (value: string) => (totalsFailed ? '—' : value);
  return (
    <ListScreen
      pathname={LIST}
      texts={TEXTS}
      list={list}
      canWrite={canWrite}
      statuses={RFP_STATUS_OPTIONS}
      summary={
        <>
        <RfpTabs current="/rfp" />
        <StatGrid label="RFP summary">
          <StatCard label="Active RFPs" value={figure(open.toLocaleString('en-US'))} note="Active, submitted or under review" icon={Radar} />
          <StatCard label="Pipeline Value" value={figure(pipeline(totals))} note="Open responses, per currency" icon={DollarSign} />
          <StatCard
            label="Win Rate"
            value={figure(decided === 0 ? '—' : `${Math.round((won / decided) * 100)}%`)}
            note={`Won of won and lost, last 12 months (${decided.toLocaleString('en-US')})`}
            icon={Target}
          />
          <StatCard label="Due This Week" value={figure(due.toLocaleString('en-US'))} note="Open responses due in 7 days" icon={Timer} />
        </StatGrid>
        </>
      }
      form={<NewRfpResponseForm pursued={pursued} lastResult={actionData && 'result' in actionData ? actionData.result : undefined} />}
    >
      <RecordTable
        caption={TEXTS.listHeading}
        pathname={LIST}
        query={list.query}
        rows={list.rows}
        columns={columns(today)}
        rowKey={(rfp) => rfp.id}
        href={(rfp) => `${LIST}/${rfp.id}`}
        phoneLine={(rfp) => `${rfp.company} · ${deadlineNote(rfp.deadline, today).text}`}
      />
    </ListScreen>
  );
}
