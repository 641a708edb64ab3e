// The Clients screen (docs/product-guide.md, Clients): the account's contacts
// in the record table, searched, filtered, sorted and paged by URL, with a
// create dialog at ?new.
import { Building2, CalendarPlus, UserCheck, UserSearch } from '~/components/icons';
import type { Route } from './+types/clients';
import { ListScreen } from '~/components/list-screen';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readListQuery, statusOptions } from '~/lib/list-query';
import { createRecord } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { NewClientForm } from './client-form';
import { insertClient, loadClients, type ClientFigures, type ClientRow } from './queries.server';
import { formatRevenue } from './revenue';
import { CLIENT_STATUSES, newClientSchema } from './schema';
import { clientCreatedToast, CLIENT_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

const LIST = '/clients';
const STATUS_OPTIONS = statusOptions(CLIENT_STATUSES);
/** The columns the list sorts by: each has an account-first index (migration 20261202800001). */
const CLIENT_SORTS = ['name', 'company', 'created_at'] as const;

type Row = ClientRow & { figures: ClientFigures | undefined };

const COLUMNS: RecordColumn<Row>[] = [
  { id: 'name', header: 'Name', cell: (client) => client.name, sort: { key: 'name' }, className: 'md:max-w-56' },
  {
    id: 'company',
    header: 'Company',
    cell: (client) => [client.company, client.role].filter(Boolean).join(' · ') || 'No company',
    sort: { key: 'company' },
    className: 'max-w-48 truncate',
  },
  { id: 'email', header: 'Email', cell: (client) => client.email, className: 'max-w-56 truncate text-muted-foreground' },
  { id: 'status', header: 'Status', cell: (client) => <StatusBadge status={client.status} />, phone: true },
  { id: 'revenue', header: 'Revenue', cell: (client) => (client.figures ? formatRevenue(client.figures.revenue) : '—'), numeric: true },
  {
    id: 'last-contact',
    header: 'Last contact',
    cell: (client) => (client.figures?.lastContactAt ? formatShortDate(client.figures.lastContactAt) : '—'),
    className: 'whitespace-nowrap text-muted-foreground',
  },
  {
    id: 'added',
    header: 'Added',
    cell: (client) => formatShortDate(client.created_at),
    sort: { key: 'created_at', first: 'desc' },
    className: 'whitespace-nowrap text-muted-foreground',
  },
];

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, CLIENT_STATUSES, CLIENT_SORTS);
  const [{ profile }, list] = await requireUserWith(request, context, (supabase) => loadClients(supabase, query));
  return { canWrite: canWriteBusiness(profile?.role), ...list };
}

export function action(args: Route.ActionArgs) {
  return createRecord(args, { schema: newClientSchema, listPath: LIST, texts: TEXTS, noun: 'client', write: insertClient, createdToast: clientCreatedToast });
}

export default function Clients({ loaderData, actionData }: Route.ComponentProps) {
  const { summary, list, canWrite, figures } = loaderData;
  return (
    <ListScreen
      pathname={LIST}
      texts={TEXTS}
      list={list}
      canWrite={canWrite}
      statuses={STATUS_OPTIONS}
      summary={
        <StatGrid label="Client summary">
          <StatCard label="Total Clients" value={summary.total.toLocaleString('en-US')} icon={Building2} note="All clients of your account" />
          <StatCard label="Active Clients" value={summary.active.toLocaleString('en-US')} icon={UserCheck} note="Currently active" />
          <StatCard label="Prospects" value={summary.prospects.toLocaleString('en-US')} icon={UserSearch} note="Not yet clients" />
          <StatCard label="New This Month" value={summary.newThisMonth.toLocaleString('en-US')} icon={CalendarPlus} note="Added this month" />
        </StatGrid>
      }
      form={<NewClientForm lastResult={actionData?.result} />}
    >
      <RecordTable
        caption={TEXTS.title}
        pathname={LIST}
        query={list.query}
        rows={list.rows.map((client) => ({ ...client, figures: figures[client.id] }))}
        columns={COLUMNS}
        rowKey={(client) => client.id}
        href={(client) => `/clients/${client.id}`}
        phoneLine={(client) => [client.company, client.email].filter(Boolean).join(' · ')}
      />
    </ListScreen>
  );
}
