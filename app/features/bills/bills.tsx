// The Bills screen (decision 048): the supplier invoices the account has to
// pay, searched, filtered and paged by URL, with what is to pay and what was
// paid per currency (never added across currencies). Bills are recorded from
// documents (a document's "Record bill"), so the list has no New dialog.
import { CheckCircle2, Clock } from '~/components/icons';
import { Link } from 'react-router';
import type { Route } from './+types/bills';
import { ListScreen } from '~/components/list-screen';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readListQuery } from '~/lib/list-query';
import { formatMoney, formatMoneySums } from '~/lib/money';
import { BRAND_NAME } from '~/lib/site';
import { loadBills, type BillRow, type BillTotal } from './queries.server';
import { BILL_STATUS_LABELS, BILL_STATUS_OPTIONS, BILL_STATUSES, type BillStatus } from './schema';
import { BILL_TEXTS as TEXTS } from './texts';

const LIST = '/bills';

export const meta: Route.MetaFunction = () => [{ title: `${TEXTS.title} — ${BRAND_NAME}` }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, BILL_STATUSES);
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
    >
      {list.rows.map((bill) => (
        <BillItem key={bill.id} bill={bill} />
      ))}
    </ListScreen>
  );
}

function BillItem({ bill }: { bill: BillRow }) {
  const name = [bill.supplier_name, bill.number].filter(Boolean).join(' ');
  const dates = [
    bill.issue_date ? `Issued ${formatShortDate(bill.issue_date)}` : null,
    bill.paid_on ? `Paid ${formatShortDate(bill.paid_on)}` : bill.due_date ? `Due ${formatShortDate(bill.due_date)}` : null,
  ].filter(Boolean);
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="grid min-w-0 gap-1">
        <p className="truncate font-medium" title={bill.supplier_name}>
          <Link to={`/bills/${bill.id}`} className="underline-offset-2 hover:underline" aria-label={`View bill ${name}`}>
            {bill.supplier_name}
          </Link>
        </p>
        {bill.number ? <p className="truncate text-sm text-muted-foreground">{bill.number}</p> : null}
        {dates.length > 0 ? <p className="text-xs text-muted-foreground">{dates.join(' · ')}</p> : null}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-semibold">{formatMoney(Number(bill.total), bill.currency)}</span>
        <StatusBadge status={bill.status} label={BILL_STATUS_LABELS[bill.status as BillStatus]} />
      </div>
    </li>
  );
}
