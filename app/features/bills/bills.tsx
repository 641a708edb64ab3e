// The Bills screen (decision 048): the supplier invoices the account has to
// pay, searched, filtered and paged by URL, with what is to pay and what was
// paid per currency (never added across currencies). Bills are recorded from
// documents (a document's "Record bill"), so the list has no New dialog.
import { createdColumn, totalColumn } from '~/components/records/columns';
import { CheckCircle2, Clock } from '~/components/icons';
import { Link } from 'react-router';
import type { Route } from './+types/bills';
import { ListScreen } from '~/components/list-screen';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { buttonClasses } from '~/components/ui/button';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readListQuery } from '~/lib/list-query';
import { formatMoneySums } from '~/lib/money';
import { loadBills, type BillRow, type BillTotal } from './queries.server';
import { BILL_STATUS_LABELS, BILL_STATUS_OPTIONS, BILL_STATUSES, type BillStatus } from './schema';
import { BILL_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

const LIST = '/bills';
/** The columns the list sorts by: each has an account-first index (migration 20261202800001). */
const BILL_SORTS = ['supplier_name', 'total', 'due_date', 'created_at'] as const;

const statusOf = (bill: BillRow) => <StatusBadge status={bill.status} label={BILL_STATUS_LABELS[bill.status as BillStatus]} />;

const COLUMNS: RecordColumn<BillRow>[] = [
  { id: 'supplier', header: 'Supplier', cell: (bill) => bill.supplier_name, sort: { key: 'supplier_name' }, className: 'md:max-w-56' },
  { id: 'number', header: 'Number', cell: (bill) => bill.number ?? '—', className: 'max-w-40 truncate text-muted-foreground' },
  { id: 'status', header: 'Status', cell: statusOf, phone: true },
  {
    id: 'issued',
    header: 'Issued',
    cell: (bill) => (bill.issue_date ? formatShortDate(bill.issue_date) : '—'),
    className: 'whitespace-nowrap text-muted-foreground',
  },
  {
    id: 'due',
    header: 'Due',
    cell: (bill) => (bill.paid_on ? `Paid ${formatShortDate(bill.paid_on)}` : bill.due_date ? formatShortDate(bill.due_date) : '—'),
    sort: { key: 'due_date' },
    className: 'whitespace-nowrap text-muted-foreground',
  },
  createdColumn('Recorded'),
  totalColumn(),
];

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, BILL_STATUSES, BILL_SORTS);
  const [, found] = await requireUserWith(request, context, (supabase) => loadBills(supabase, query));
  return found;
}

/** One figure per currency: '€1,200.00 · $50.00'. */
const sums = (totals: BillTotal[], pick: 'toPay' | 'paid') =>
  formatMoneySums(totals.filter((t) => t[pick] > 0).map((t) => ({ currency: t.currency, count: 0, value: t[pick], average: 0 })));

export default function Bills({ loaderData }: Route.ComponentProps) {
  const { totals, totalsFailed, list } = loaderData;
  const toPayCount = totals.reduce((n, t) => n + t.toPayCount, 0);
  const paidCount = totals.reduce((n, t) => n + t.paidCount, 0);
  return (
    <ListScreen
      pathname={LIST}
      texts={TEXTS}
      list={list}
      canWrite={false}
      statuses={BILL_STATUS_OPTIONS}
      summary={
        <StatGrid label="Bill totals">
          <StatCard
            label="To pay"
            value={totalsFailed ? '—' : sums(totals, 'toPay')}
            note={`${toPayCount.toLocaleString('en-US')} ${toPayCount === 1 ? 'bill' : 'bills'} to pay, per currency`}
            icon={Clock}
          />
          <StatCard
            label="Paid"
            value={totalsFailed ? '—' : sums(totals, 'paid')}
            note={`${paidCount.toLocaleString('en-US')} ${paidCount === 1 ? 'bill' : 'bills'} paid, per currency`}
            icon={CheckCircle2}
          />
        </StatGrid>
      }
      form={null}
      emptyAction={
        <Link to="/documents" className={buttonClasses('outline')}>
          Go to Documents
        </Link>
      }
    >
      <RecordTable
        caption={TEXTS.title}
        pathname={LIST}
        query={list.query}
        rows={list.rows}
        columns={COLUMNS}
        rowKey={(bill) => bill.id}
        href={(bill) => `/bills/${bill.id}`}
        phoneLine={(bill) => [bill.number, bill.due_date && !bill.paid_on ? `Due ${formatShortDate(bill.due_date)}` : null].filter(Boolean).join(' · ')}
      />
    </ListScreen>
  );
}
