// The Leads screen (docs/product-guide.md, Leads): the account's leads in the
// record table, searched, filtered, sorted and paged by URL, the ticked ones
// marked lost at once, with a create dialog at ?new.
import { createdColumn } from '~/components/records/columns';
import { CalendarPlus, Percent, UserCheck, Users } from '~/components/icons';
import type { Route } from './+types/leads';
import { ListScreen } from '~/components/list-screen';
import { BulkActions } from './bulk-actions';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { Button } from '~/components/ui/button';
import { requireUserWith } from '~/lib/auth.server';
import { listHref, readListQuery, statusOptions } from '~/lib/list-query';
import { createRecord } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { BULK_INTENT } from './bulk';
import { isBulkPost, markLeadsLost } from './bulk.server';
import { NewLeadForm } from './lead-form';
import { insertLead, loadLeads, type LeadRow } from './queries.server';
import { LEAD_STATUSES, newLeadSchema } from './schema';
import { LEAD_BULK_TEXTS, leadCreatedToast, LEAD_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

const LIST = '/leads';
const STATUS_OPTIONS = statusOptions(LEAD_STATUSES);
/** The columns the list sorts by: each has an account-first index (migration 20261202800001). */
const LEAD_SORTS = ['name', 'company', 'created_at'] as const;
const BULK_FORM = 'leads-bulk';

const COLUMNS: RecordColumn<LeadRow>[] = [
  { id: 'name', header: 'Name', cell: (lead) => lead.name, sort: { key: 'name' }, className: 'md:max-w-56' },
  { id: 'company', header: 'Company', cell: (lead) => lead.company, sort: { key: 'company' }, className: 'max-w-48 truncate' },
  { id: 'email', header: 'Email', cell: (lead) => lead.email, className: 'max-w-56 truncate text-muted-foreground' },
  { id: 'status', header: 'Status', cell: (lead) => <StatusBadge status={lead.status} />, phone: true },
  createdColumn(),
];

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, LEAD_STATUSES, LEAD_SORTS);
  const [{ profile }, list] = await requireUserWith(request, context, (supabase) => loadLeads(supabase, query));
  return { canWrite: canWriteBusiness(profile?.role), ...list };
}

export async function action(args: Route.ActionArgs) {
  if (await isBulkPost(args.request)) return markLeadsLost(args);
  return createRecord(args, { schema: newLeadSchema, listPath: LIST, texts: TEXTS, noun: 'lead', write: insertLead, createdToast: leadCreatedToast });
}

export default function Leads({ loaderData, actionData }: Route.ComponentProps) {
  const { summary, list, canWrite } = loaderData;
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
      bulk={
        <BulkActions id={BULK_FORM} label={LEAD_BULK_TEXTS.label} returnTo={listHref(LIST, list.query, {})}>
          <Button type="submit" name="intent" value={BULK_INTENT} variant="outline" size="sm">
            {LEAD_BULK_TEXTS.markLost}
          </Button>
        </BulkActions>
      }
    >
      <RecordTable
        caption={TEXTS.title}
        pathname={LIST}
        query={list.query}
        rows={list.rows}
        columns={COLUMNS}
        rowKey={(lead) => lead.id}
        href={(lead) => `/leads/${lead.id}`}
        phoneLine={(lead) => `${lead.company} · ${lead.email}`}
        select={canWrite ? { form: BULK_FORM, label: (lead) => `Select ${lead.name}` } : undefined}
      />
    </ListScreen>
  );
}
