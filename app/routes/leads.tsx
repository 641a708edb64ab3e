import { useLocation } from 'react-router';
import { CalendarPlus, Mail, Percent, Phone, UserCheck, Users } from 'lucide-react';
import type { Route } from './+types/leads';
import { ListPager } from '~/components/list-pager';
import { ListEmpty, ListRegion } from '~/components/list-states';
import { ListToolbar } from '~/components/list-toolbar';
import { NewLeadForm } from '~/components/new-lead-form';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { Badge } from '~/components/ui/badge';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { requireUser } from '~/lib/auth.server';
import type { Tables } from '~/lib/database.types';
import { canWriteBusiness } from '~/lib/roles';
import { listHref, readListQuery, withDialog } from '~/lib/list-query';
import { createRecord, filterList, readList } from '~/lib/records.server';
import { formatShortDate } from '~/lib/relative-time';
import { LEAD_INTEREST_OPTIONS, LEAD_STATUSES, newLeadSchema } from '~/lib/schemas/leads';
import { CreateLink } from '~/components/create-link';

/** A row of the list: the columns the loader selects. */
type LeadRow = Pick<Tables<'leads'>, 'id' | 'name' | 'company' | 'email' | 'phone_whatsapp' | 'status' | 'interest' | 'created_at'>;

const STATUS_OPTIONS = LEAD_STATUSES.map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }));
const SEARCH_COLUMNS = ['name', 'email', 'company'] as const;
const INTEREST_LABELS = new Map(LEAD_INTEREST_OPTIONS.map((option) => [option.value, option.label]));

export const meta: Route.MetaFunction = () => [{ title: 'Leads' }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { supabase, profile } = await requireUser(request, context);
  const query = readListQuery(url, LEAD_STATUSES);
  const select = supabase.from('leads').select('id, name, company, email, phone_whatsapp, status, interest, created_at', { count: 'exact' });
  const [summaryResult, list] = await Promise.all([
    supabase.rpc('lead_summary').single(),
    readList(filterList(select, query, SEARCH_COLUMNS), query, 'leads'),
  ]);
  if (summaryResult.error) console.error(`lead summary failed to load: ${summaryResult.error.message}`);

  const summary = summaryResult.data ?? { total_count: 0, new_this_week: 0, qualified_count: 0, conversion_rate: 0 };
  return {
    canWrite: canWriteBusiness(profile?.role),
    query,
    summary: {
      total: Number(summary.total_count),
      newThisWeek: Number(summary.new_this_week),
      qualified: Number(summary.qualified_count),
      conversionRate: Number(summary.conversion_rate),
    },
    list,
  };
}

export function action(args: Route.ActionArgs) {
  return createRecord(args, {
    schema: newLeadSchema,
    listPath: '/leads',
    texts: { created: 'Lead created successfully!', createFailed: 'Failed to create lead' },
    noun: 'lead',
    write: (supabase, accountId, lead) =>
      supabase.from('leads').insert({
        account_id: accountId,
        name: lead.name,
        email: lead.email,
        phone_whatsapp: lead.phone_whatsapp || null,
        company: lead.company,
        role: lead.role || null,
        source: lead.source,
        notes: lead.notes || null,
        interest: lead.interest,
        status: 'new',
      }),
  });
}

export default function Leads({ loaderData, actionData }: Route.ComponentProps) {
  const { query, summary, list, canWrite } = loaderData;
  const { rows: leads, failed } = list;
  const location = useLocation();
  const dialogOpen = canWrite && new URLSearchParams(location.search).has('new');
  const filtered = query.q !== '' || query.status !== null;

  return (
    <>
      <PageHeader
        title="Leads"
        description="Capture and follow up the people interested in your modules."
        actions={
          canWrite ? (
            <CreateLink to={withDialog(listHref('/leads', query, {}))}>New Lead</CreateLink>
          ) : null
        }
      />
      <StatGrid label="Lead summary">
        <StatCard label="Total Leads" value={summary.total.toLocaleString('en-US')} icon={Users} note="All leads of your account" />
        <StatCard label="New This Week" value={summary.newThisWeek.toLocaleString('en-US')} icon={CalendarPlus} note="Created in the last 7 days" />
        <StatCard label="Qualified" value={summary.qualified.toLocaleString('en-US')} icon={UserCheck} note="Ready for a quote" />
        <StatCard label="Conversion Rate" value={`${summary.conversionRate}%`} icon={Percent} note="Share of leads qualified" />
      </StatGrid>

      <Card>
        <CardHeader className="gap-4">
          <SectionHeading>Recent Leads</SectionHeading>
          <ListToolbar pathname="/leads" q={query.q} status={query.status} statuses={STATUS_OPTIONS} searchLabel="Search leads" />
        </CardHeader>
        <CardContent>
          <ListRegion label="Recent Leads">
            {failed ? (
              <p role="alert" className="py-10 text-center text-sm text-destructive">
                Failed to fetch leads
              </p>
            ) : leads.length === 0 ? (
              <ListEmpty>{filtered ? 'No leads match your search.' : 'No leads yet. Add your first lead to get started!'}</ListEmpty>
            ) : (
              <ul className="divide-y divide-border">
                {leads.map((lead) => (
                  <LeadItem key={lead.id} lead={lead} />
                ))}
              </ul>
            )}
            <ListPager list={list} pathname="/leads" noun="leads" />
          </ListRegion>
        </CardContent>
      </Card>

      <UrlDialog open={dialogOpen} closeTo={listHref('/leads', query, {})} title="New Lead" description="Add a lead to follow up.">
        <NewLeadForm lastResult={actionData?.result} />
      </UrlDialog>
    </>
  );
}

function LeadItem({ lead }: { lead: LeadRow }) {
  return (
    <li className="grid gap-2 py-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-medium">{lead.name}</p>
          <p className="text-sm text-muted-foreground">{lead.company}</p>
        </div>
        <StatusBadge status={lead.status} />
      </div>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
        <span className="flex items-center gap-1">
          <Mail className="size-3.5" aria-hidden="true" />
          {lead.email}
        </span>
        {lead.phone_whatsapp ? (
          <span className="flex items-center gap-1">
            <Phone className="size-3.5" aria-hidden="true" />
            {lead.phone_whatsapp}
          </span>
        ) : null}
        <span>Created {formatShortDate(lead.created_at)}</span>
      </div>
      {lead.interest && lead.interest.length > 0 ? (
        <ul aria-label="Interests" className="flex flex-wrap gap-1">
          {lead.interest.map((key) => (
            <li key={key}>
              <Badge variant="outline">{INTEREST_LABELS.get(key) ?? key}</Badge>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}
