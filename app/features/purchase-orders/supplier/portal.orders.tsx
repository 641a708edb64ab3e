// /portal/orders: the purchase orders addressed to the signed-in supplier
// (decision 077), newest first, each linking to its page.
import { Link } from 'react-router';
import type { Route } from './+types/portal.orders';
import { StatusBadge } from '~/components/status-badge';
import { buttonClasses } from '~/components/ui/button';
import { PortalList } from '~/features/portal/portal-parts';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { formatMoney } from '~/lib/money';
import { pageTitle } from '~/lib/page-title';
import { PO_STATUS_LABELS, type PoStatus } from '../schema';
import { SUPPLIER_TEXTS as T } from '../texts';
import { loadSupplierOrders } from './queries.server';

export const meta: Route.MetaFunction = () => [{ title: pageTitle(T.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const [, list] = await requireUserWith(request, context, (supabase) => loadSupplierOrders(supabase, url));
  return { list };
}

export default function SupplierOrders({ loaderData }: Route.ComponentProps) {
  const { list } = loaderData;
  return (
    <PortalList title={T.title} description={T.description} list={list} texts={{ empty: T.empty, loadFailed: T.loadFailed }} pathname="/portal/orders" noun="purchase orders">
      {list.rows.map((po) => (
        <li key={po.id} className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="grid min-w-0 gap-1">
            <p className="font-medium">{po.po_number}</p>
            <p className="text-xs text-muted-foreground">
              {po.sent_at ? `Sent ${formatShortDate(po.sent_at)}` : null}
              {po.expected_on ? ` · Expected ${formatShortDate(po.expected_on)}` : null}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <span className="font-semibold">{formatMoney(Number(po.total), po.currency)}</span>
            <StatusBadge status={PO_STATUS_LABELS[po.status as PoStatus] ?? po.status} />
            <Link to={`/portal/orders/${po.id}`} className={buttonClasses('outline', 'sm')} aria-label={`Open ${po.po_number}`}>
              Open
            </Link>
          </div>
        </li>
      ))}
    </PortalList>
  );
}
