// The Shipments screen (spec §3, issue 36): the account's shipments in the
// record table, searched by tracking number or place and filtered by status
// in the URL, the cards counted in SQL (shipment_counts), and the New
// Shipment dialog at ?new that creates one (create_shipment).
import { createdColumn } from '~/components/records/columns';
import { AlertTriangle, CheckCircle2, Package, Truck } from '~/components/icons';
import type { Route } from './+types/shipments';
import { ListScreen } from '~/components/list-screen';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readListQuery } from '~/lib/list-query';
import { createRecord } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { insertShipment, loadShipments, type ShipmentRow } from './queries.server';
import { CARRIER_LABELS, newShipmentSchema, SHIPMENT_STATUS_OPTIONS, SHIPMENT_STATUSES, type Carrier } from './schema';
import { NewShipmentForm } from './shipment-form';
import { SHIPMENT_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

const LIST = '/shipments';
const SORTS = ['created_at'] as const;
const weightFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

const COLUMNS: RecordColumn<ShipmentRow>[] = [
  { id: 'tracking', header: 'Tracking number', cell: (s) => <span className="font-mono">{s.tracking_number}</span>, className: 'md:max-w-56' },
  { id: 'route', header: 'Route', cell: (s) => `${s.origin} → ${s.destination}`, className: 'max-w-64 truncate' },
  { id: 'status', header: 'Status', cell: (s) => <StatusBadge status={s.status} />, phone: true },
  { id: 'carrier', header: 'Carrier', cell: (s) => CARRIER_LABELS[s.carrier as Carrier] ?? s.carrier, className: 'text-muted-foreground' },
  {
    id: 'eta',
    header: 'ETA',
    cell: (s) => (s.estimated_delivery ? formatShortDate(s.estimated_delivery) : '—'),
    className: 'whitespace-nowrap text-muted-foreground',
  },
  { id: 'weight', header: 'Weight', cell: (s) => `${weightFormat.format(Number(s.weight))} ${s.weight_unit}`, className: 'whitespace-nowrap' },
  createdColumn(),
];

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, SHIPMENT_STATUSES, SORTS);
  const [{ profile }, found] = await requireUserWith(request, context, (supabase) => loadShipments(supabase, query));
  return { canWrite: canWriteBusiness(profile?.role), ...found };
}

export async function action(args: Route.ActionArgs) {
  return createRecord(args, {
    schema: newShipmentSchema,
    listPath: LIST,
    texts: TEXTS,
    noun: 'shipment',
    write: insertShipment,
    createdToast: (shipment: { id: string; tracking_number: string }) => ({
      message: TEXTS.created,
      link: { href: `/shipments/${shipment.id}`, label: `View ${shipment.tracking_number}` },
    }),
  });
}

const count = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString('en-US'));

export default function Shipments({ loaderData, actionData }: Route.ComponentProps) {
  const { counts, list, canWrite } = loaderData;
  return (
    <ListScreen
      pathname={LIST}
      texts={TEXTS}
      list={list}
      canWrite={canWrite}
      statuses={SHIPMENT_STATUS_OPTIONS}
      summary={
        <StatGrid label="Shipment summary">
          <StatCard label="Active Shipments" value={count(counts ? counts.processing + counts.inTransit : undefined)} note="Processing or in transit" icon={Package} />
          <StatCard label="In Transit" value={count(counts?.inTransit)} note="On their way" icon={Truck} />
          <StatCard label="Delivered" value={count(counts?.delivered)} note="Arrived" icon={CheckCircle2} />
          <StatCard label="Exceptions" value={count(counts?.exceptions)} note="Held, damaged or returned" icon={AlertTriangle} />
        </StatGrid>
      }
      form={<NewShipmentForm closeTo={LIST} lastResult={actionData?.result} />}
    >
      <RecordTable
        caption={TEXTS.title}
        pathname={LIST}
        query={list.query}
        rows={list.rows}
        columns={COLUMNS}
        rowKey={(s) => s.id}
        href={(s) => `/shipments/${s.id}`}
        phoneLine={(s) => `${s.tracking_number} · ${s.origin} → ${s.destination}`}
      />
    </ListScreen>
  );
}
