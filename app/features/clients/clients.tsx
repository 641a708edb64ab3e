// The Clients screen (docs/product-guide.md, Clients): the account's contacts,
// searched, filtered and paged by URL, with a create dialog at ?new.
import { Building2, CalendarPlus, Mail, MapPin, Phone, UserCheck, UserSearch } from '~/components/icons';
import { Link } from 'react-router';
import type { Route } from './+types/clients';
import { ListScreen } from '~/components/list-screen';
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

const LIST = '/clients';
const STATUS_OPTIONS = statusOptions(CLIENT_STATUSES);

export const meta: Route.MetaFunction = () => [{ title: TEXTS.title }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, CLIENT_STATUSES);
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
      {list.rows.map((client) => (
        <ClientItem key={client.id} client={client} figures={figures[client.id]} />
      ))}
    </ListScreen>
  );
}

function ClientItem({ client, figures }: { client: ClientRow; figures: ClientFigures | undefined }) {
  return (
    <li className="grid gap-2 py-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-medium">
            <Link to={`/clients/${client.id}`} className="underline-offset-2 hover:underline">
              {client.name}
            </Link>
          </p>
          <p className="text-sm text-muted-foreground">
            {[client.company, client.role].filter(Boolean).join(' · ') || 'No company'}
          </p>
        </div>
        <StatusBadge status={client.status} />
      </div>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
        <span className="flex items-center gap-1">
          <Mail className="size-3.5" aria-hidden="true" />
          {client.email}
        </span>
        {client.phone ? (
          <span className="flex items-center gap-1">
            <Phone className="size-3.5" aria-hidden="true" />
            {client.phone}
          </span>
        ) : null}
        {client.address ? (
          <span className="flex items-center gap-1">
            <MapPin className="size-3.5" aria-hidden="true" />
            <span className="sr-only">Address: </span>
            {client.address}
          </span>
        ) : null}
        <span>Added {formatShortDate(client.created_at)}</span>
      </div>
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <div className="flex gap-1">
          <dt className="text-muted-foreground">Revenue:</dt>
          <dd>{figures ? formatRevenue(figures.revenue) : '—'}</dd>
        </div>
        <div className="flex gap-1">
          <dt className="text-muted-foreground">Last contact:</dt>
          <dd>{figures?.lastContactAt ? formatShortDate(figures.lastContactAt) : '—'}</dd>
        </div>
      </dl>
    </li>
  );
}
