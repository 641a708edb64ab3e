import { useLocation } from 'react-router';
import { Building2, CalendarPlus, Mail, Phone, UserCheck, UserSearch } from 'lucide-react';
import type { Route } from './+types/clients';
import { ListPager } from '~/components/list-pager';
import { ListEmpty, ListRegion } from '~/components/list-states';
import { ListToolbar } from '~/components/list-toolbar';
import { NewClientForm } from '~/components/new-client-form';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { requireUser } from '~/lib/auth.server';
import type { Tables } from '~/lib/database.types';
import { canWriteBusiness } from '~/lib/roles';
import { listHref, readListQuery, withDialog } from '~/lib/list-query';
import { createRecord, filterList, readList } from '~/lib/records.server';
import { formatShortDate } from '~/lib/relative-time';
import { CLIENT_STATUSES, companyOrName, newClientSchema } from '~/lib/schemas/clients';
import { CreateLink } from '~/components/create-link';

/** A row of the directory: the columns the loader selects. */
type ClientRow = Pick<Tables<'contacts'>, 'id' | 'name' | 'email' | 'phone' | 'company' | 'role' | 'status' | 'created_at'>;

const STATUS_OPTIONS = CLIENT_STATUSES.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }));
const SEARCH_COLUMNS = ['name', 'email', 'company'] as const;

export const meta: Route.MetaFunction = () => [{ title: 'Clients' }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { supabase, profile } = await requireUser(request, context);
  const query = readListQuery(url, CLIENT_STATUSES);
  const select = supabase.from('contacts').select('id, name, email, phone, company, role, status, created_at', { count: 'exact' });
  const [summaryResult, list] = await Promise.all([
    supabase.rpc('client_summary').single(),
    readList(filterList(select, query, SEARCH_COLUMNS), query, 'clients'),
  ]);
  if (summaryResult.error) console.error(`client summary failed to load: ${summaryResult.error.message}`);

  const summary = summaryResult.data ?? { total_count: 0, active_count: 0, prospect_count: 0, new_this_month: 0 };
  return {
    canWrite: canWriteBusiness(profile?.role),
    query,
    summary: {
      total: Number(summary.total_count),
      active: Number(summary.active_count),
      prospects: Number(summary.prospect_count),
      newThisMonth: Number(summary.new_this_month),
    },
    list,
  };
}

export function action(args: Route.ActionArgs) {
  return createRecord(args, {
    schema: newClientSchema,
    listPath: '/clients',
    texts: { created: 'Client created successfully!', createFailed: 'Failed to create client' },
    noun: 'client',
    write: (supabase, accountId, client) =>
      supabase.from('contacts').insert({
        account_id: accountId,
        name: client.name,
        email: client.email,
        phone: client.phone || null,
        company: companyOrName(client),
        role: client.role || null,
        notes: client.notes || null,
        is_primary: true,
      }),
  });
}

export default function Clients({ loaderData, actionData }: Route.ComponentProps) {
  const { query, summary, list, canWrite } = loaderData;
  const { rows: clients, failed } = list;
  const location = useLocation();
  const dialogOpen = canWrite && new URLSearchParams(location.search).has('new');
  const filtered = query.q !== '' || query.status !== null;

  return (
    <>
      <PageHeader
        title="Clients"
        description="The people and companies you work with."
        actions={
          canWrite ? (
            <CreateLink to={withDialog(listHref('/clients', query, {}))}>New Client</CreateLink>
          ) : null
        }
      />
      <StatGrid label="Client summary">
        <StatCard label="Total Clients" value={summary.total.toLocaleString('en-US')} icon={Building2} note="All clients of your account" />
        <StatCard label="Active Clients" value={summary.active.toLocaleString('en-US')} icon={UserCheck} note="Currently active" />
        <StatCard label="Prospects" value={summary.prospects.toLocaleString('en-US')} icon={UserSearch} note="Not yet clients" />
        <StatCard label="New This Month" value={summary.newThisMonth.toLocaleString('en-US')} icon={CalendarPlus} note="Added this month" />
      </StatGrid>

      <Card>
        <CardHeader className="gap-4">
          <SectionHeading>Client Directory</SectionHeading>
          <ListToolbar pathname="/clients" q={query.q} status={query.status} statuses={STATUS_OPTIONS} searchLabel="Search clients" />
        </CardHeader>
        <CardContent>
          <ListRegion label="Client Directory">
            {failed ? (
              <p role="alert" className="py-10 text-center text-sm text-destructive">
                Failed to fetch clients
              </p>
            ) : clients.length === 0 ? (
              <ListEmpty>{filtered ? 'No clients match your search.' : 'No clients yet. Add your first client to get started!'}</ListEmpty>
            ) : (
              <ul className="divide-y divide-border">
                {clients.map((client) => (
                  <ClientItem key={client.id} client={client} />
                ))}
              </ul>
            )}
            <ListPager list={list} pathname="/clients" noun="clients" />
          </ListRegion>
        </CardContent>
      </Card>

      <UrlDialog open={dialogOpen} closeTo={listHref('/clients', query, {})} title="New Client" description="Add a client contact to your account.">
        <NewClientForm lastResult={actionData?.result} />
      </UrlDialog>
    </>
  );
}

function ClientItem({ client }: { client: ClientRow }) {
  return (
    <li className="grid gap-2 py-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-medium">{client.name}</p>
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
        <span>Added {formatShortDate(client.created_at)}</span>
      </div>
    </li>
  );
}
