// The Leads screen (docs/product-guide.md, Leads): the account's leads,
// searched, filtered and paged by URL, with a create dialog at ?new.
import { CalendarPlus, Mail, Percent, Phone, UserCheck, Users } from '~/components/icons';
import type { Route } from './+types/leads';
import { ListScreen } from '~/components/list-screen';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { Badge } from '~/components/ui/badge';
import { requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { Link } from 'react-router';
import { listHref, readListQuery, statusOptions } from '~/lib/list-query';
import { createRecord } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { NewLeadForm } from './lead-form';
import { insertLead, loadLeads, type LeadRow } from './queries.server';
import { LEAD_INTEREST_OPTIONS, LEAD_STATUSES, newLeadSchema } from './schema';
import { LeadStatusForm } from './lead-status-form';
import { leadCreatedToast, LEAD_TEXTS as TEXTS } from './texts';

const LIST = '/leads';
const STATUS_OPTIONS = statusOptions(LEAD_STATUSES);
const INTEREST_LABELS = new Map(LEAD_INTEREST_OPTIONS.map((option) => [option.value, option.label]));

export const meta: Route.MetaFunction = () => [{ title: TEXTS.title }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, LEAD_STATUSES);
  const [{ profile }, list] = await requireUserWith(request, context, (supabase) => loadLeads(supabase, query));
  return { canWrite: canWriteBusiness(profile?.role), ...list };
}

export function action(args: Route.ActionArgs) {
  return createRecord(args, { schema: newLeadSchema, listPath: LIST, texts: TEXTS, noun: 'lead', write: insertLead, createdToast: leadCreatedToast });
}

export default function Leads({ loaderData, actionData }: Route.ComponentProps) {
  const { summary, list, canWrite } = loaderData;
  const returnTo = listHref(LIST, list.query, {});
  return (
    <ListScreen
      pathname={LIST}
      texts={TEXTS}
      list={list}
      canWrite={canWrite}
      statuses={STATUS_OPTIONS}
      summary={
        <StatGrid label="Lead summary">
          <StatCard label="Total Leads" value={summary.total.toLocaleString('en-US')} icon={Users} note="All leads of your account" />
          <StatCard label="New This Week" value={summary.newThisWeek.toLocaleString('en-US')} icon={CalendarPlus} note="Created in the last 7 days" />
          <StatCard label="Qualified" value={summary.qualified.toLocaleString('en-US')} icon={UserCheck} note="Ready for a quote" />
          <StatCard label="Conversion Rate" value={`${summary.conversionRate}%`} icon={Percent} note="Share of leads qualified" />
        </StatGrid>
      }
      form={<NewLeadForm lastResult={actionData?.result} />}
    >
      {list.rows.map((lead) => (
        <LeadItem key={lead.id} lead={lead} returnTo={canWrite ? returnTo : null} />
      ))}
    </ListScreen>
  );
}

/** `returnTo`: the list page a status change comes back to; null for a role that only reads. */
function LeadItem({ lead, returnTo }: { lead: LeadRow; returnTo: string | null }) {
  return (
    <li className="grid gap-2 py-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-medium">
            <Link to={`/leads/${lead.id}`} className="underline-offset-2 hover:underline">
              {lead.name}
            </Link>
          </p>
          <p className="text-sm text-muted-foreground">{lead.company}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={lead.status} />
          {returnTo ? <LeadStatusForm lead={lead} returnTo={returnTo} compact /> : null}
        </div>
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
