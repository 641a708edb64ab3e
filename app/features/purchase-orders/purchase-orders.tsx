// The Purchase orders screen (issue 36): the account's orders in the record
// table, searched by number or supplier and filtered by status in the URL, and
// the New Purchase Order dialog at ?new with its line items (create_purchase_order).
import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { ClipboardList } from '~/components/icons';
import type { Route } from './+types/purchase-orders';
import { ListScreen } from '~/components/list-screen';
import { createdColumn } from '~/components/records/columns';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { ALTERED_FORM_MESSAGE, readFormData } from '~/lib/forms.server';
import { readListQuery } from '~/lib/list-query';
import { formatMoney } from '~/lib/money';
import { pageTitle } from '~/lib/page-title';
import { createRecord } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { insertPurchaseOrder, loadPurchaseOrders, loadSupplierLogins, type PurchaseOrderRow } from './queries.server';
import { NewPurchaseOrderForm } from './purchase-order-form';
import { newPurchaseOrderSchema, PO_STATUS_LABELS, PO_STATUS_OPTIONS, PO_STATUSES, SUPPLIER_LOGIN_MESSAGE, type PoStatus } from './schema';
import { PO_TEXTS as TEXTS } from './texts';

const LIST = '/purchase-orders';
const SORTS = ['created_at'] as const;

const COLUMNS: RecordColumn<PurchaseOrderRow>[] = [
  { id: 'number', header: 'Number', cell: (p) => <span className="font-mono">{p.po_number}</span> },
  { id: 'supplier', header: 'Supplier', cell: (p) => p.supplier_name, className: 'max-w-64 truncate' },
  { id: 'status', header: 'Status', cell: (p) => <StatusBadge status={PO_STATUS_LABELS[p.status as PoStatus] ?? p.status} />, phone: true },
  { id: 'total', header: 'Total', cell: (p) => formatMoney(Number(p.total), p.currency), className: 'whitespace-nowrap text-right tabular-nums' },
  {
    id: 'expected',
    header: 'Expected',
    cell: (p) => (p.expected_on ? formatShortDate(p.expected_on) : '—'),
    className: 'whitespace-nowrap text-muted-foreground',
  },
  createdColumn(),
];

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, PO_STATUSES, SORTS);
  const [{ profile }, [list, supplierLogins]] = await requireUserWith(request, context, (supabase) =>
    Promise.all([loadPurchaseOrders(supabase, query), loadSupplierLogins(supabase)]),
  );
  return { canWrite: canWriteBusiness(profile?.role), list, supplierLogins };
}

export async function action(args: Route.ActionArgs) {
  // Add, remove or move a line without JavaScript (Conform's list buttons): the form comes back changed, nothing saved.
  const formData = await readFormData(args.request.clone() as typeof args.request);
  let submission;
  try {
    submission = parseWithZod(formData, { schema: newPurchaseOrderSchema });
  } catch {
    return dataWithError(args, { result: undefined }, ALTERED_FORM_MESSAGE, { status: 400 });
  }
  if (submission.status === undefined) return data({ result: submission.reply() });
  return createRecord(args, {
    schema: newPurchaseOrderSchema,
    listPath: LIST,
    texts: TEXTS,
    noun: 'purchase order',
    write: insertPurchaseOrder,
    fieldOfError: { [SUPPLIER_LOGIN_MESSAGE]: 'supplier_user_id' },
    createdToast: (po: { id: string; po_number: string }) => ({
      message: TEXTS.created,
      link: { href: `/purchase-orders/${po.id}`, label: `View ${po.po_number}` },
    }),
  });
}

export default function PurchaseOrders({ loaderData, actionData }: Route.ComponentProps) {
  const { list, canWrite, supplierLogins } = loaderData;
  return (
    <ListScreen
      pathname={LIST}
      texts={TEXTS}
      list={list}
      canWrite={canWrite}
      statuses={PO_STATUS_OPTIONS}
      summary={
        <StatGrid label="Purchase order summary">
          <StatCard label="Purchase orders" value={list.total === null ? '—' : list.total.toLocaleString('en-US')} note="In this view" icon={ClipboardList} />
        </StatGrid>
      }
      form={<NewPurchaseOrderForm closeTo={LIST} lastResult={actionData?.result} supplierLogins={supplierLogins} />}
    >
      <RecordTable
        caption={TEXTS.title}
        pathname={LIST}
        query={list.query}
        rows={list.rows}
        columns={COLUMNS}
        rowKey={(p) => p.id}
        href={(p) => `/purchase-orders/${p.id}`}
        phoneLine={(p) => `${p.po_number} · ${p.supplier_name}`}
      />
    </ListScreen>
  );
}
