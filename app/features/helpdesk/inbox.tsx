// The inbox (/messages, decision 060): every conversation of the account on
// the record table, newest activity first, unread ones in bold, filtered by
// status, channel and 'Mine'/'Unassigned' and searched by subject or sender,
// all by URL (a GET form), so it works without JavaScript.
import { Form, Link } from 'react-router';
import type { Route } from './+types/inbox';
import { ListPager } from '~/components/list-pager';
import { ListRegion } from '~/components/list-states';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { RecordEmpty } from '~/components/records/record-empty';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { StatusBadge } from '~/components/status-badge';
import { Search } from '~/components/icons';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { Input, NativeSelect } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { requireUserWith } from '~/lib/auth.server';
import { formatDateTime } from '~/lib/dates';
import { readListQuery } from '~/lib/list-query';
import { BRAND_NAME } from '~/lib/site';
import { cn } from '~/lib/utils';
import { useLiveRevalidation } from './live';
import { loadInbox, type InboxFilters, type InboxRow } from './queries.server';
import { readSlaFilters } from './sla/inbox-filters.server';
import { SLA_FILTER_OPTIONS } from './sla/timer';
import { SlaTimerText } from './sla/sla-timer-text';
import { CHANNEL_OPTIONS, CHANNELS, INBOX_TEXTS as TEXTS, labelOf, STATUS_OPTIONS, STATUSES, WHO_OPTIONS } from './texts';

const LIST = '/messages';
const SORTS = ['last_message_at', 'sla_due_at'] as const;

const bold = (row: InboxRow, text: React.ReactNode) => (row.unread ? <strong className="font-semibold">{text}</strong> : text);

const COLUMNS: RecordColumn<InboxRow>[] = [
  {
    id: 'from',
    header: 'From',
    cell: (row) => bold(row, row.contact?.name ?? row.contact?.email ?? 'Unknown sender'),
    className: 'md:max-w-48 truncate',
  },
  {
    id: 'subject',
    header: 'Subject',
    cell: (row) => (
      <span className="flex items-center gap-2">
        {row.unread ? (
          <span className="size-2 shrink-0 rounded-full bg-primary" role="img" aria-label="Unread" />
        ) : null}
        {bold(row, row.subject || '(no subject)')}
      </span>
    ),
    className: 'max-w-80 truncate',
  },
  { id: 'channel', header: 'Channel', cell: (row) => labelOf(CHANNEL_OPTIONS, row.channel), className: 'text-muted-foreground' },
  { id: 'status', header: 'Status', cell: (row) => <StatusBadge status={row.status} label={labelOf(STATUS_OPTIONS, row.status)} />, phone: true },
  // The SLA timer (decision 075): text and colour from the stored deadline.
  {
    id: 'sla',
    header: 'SLA',
    cell: (row) => <SlaTimerText dueAt={row.sla_due_at} />,
    sort: { key: 'sla_due_at', first: 'asc' },
    className: 'whitespace-nowrap',
  },
  {
    id: 'last',
    header: 'Last message',
    cell: (row) => formatDateTime(row.last_message_at),
    sort: { key: 'last_message_at', first: 'desc' },
    className: 'whitespace-nowrap text-muted-foreground',
  },
];

export const meta: Route.MetaFunction = () => [{ title: `${TEXTS.title} — ${BRAND_NAME}` }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, STATUSES, SORTS);
  const channel = CHANNELS.find((c) => c === url.searchParams.get('channel')) ?? null;
  const who = WHO_OPTIONS.find((w) => w.value === url.searchParams.get('who'))?.value ?? null;
  const filters: InboxFilters = { channel, who, ...readSlaFilters(url) };
  const [, list] = await requireUserWith(request, context, (supabase) => loadInbox(supabase, query, filters));
  return { list, filters };
}

export default function Inbox({ loaderData }: Route.ComponentProps) {
  const { list, filters } = loaderData;
  const { query } = list;
  const narrowed = query.q !== '' || query.status !== null || filters.channel !== null || filters.who !== null || !!filters.sla || !!filters.tag;
  useLiveRevalidation();
  return (
    <>
      <PageHeader
        title={TEXTS.title}
        description={TEXTS.description}
        actions={
          // The SLA report (decision 075), compose and the canned replies library (decision 076).
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="outline">
              <Link to="/messages/report">SLA report</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/messages/replies">Canned replies</Link>
            </Button>
            <Button asChild>
              <Link to="/messages/new">New conversation</Link>
            </Button>
          </div>
        }
      />
      <Card>
        <CardHeader className="gap-4">
          <SectionHeading>{TEXTS.listHeading}</SectionHeading>
          <Form method="get" action={LIST} role="search" className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-end">
            <div className="grid flex-1 gap-1">
              <Label htmlFor="inbox-q" className="sr-only">
                {TEXTS.searchLabel}
              </Label>
              <Input id="inbox-q" type="search" name="q" defaultValue={query.q} placeholder={TEXTS.searchLabel} key={query.q} />
            </div>
            <Filter id="inbox-status" name="status" label="Status" all="All statuses" value={query.status} options={STATUS_OPTIONS} />
            <Filter id="inbox-channel" name="channel" label="Channel" all="All channels" value={filters.channel} options={CHANNEL_OPTIONS} />
            <Filter id="inbox-who" name="who" label="Assignee" all="Everyone" value={filters.who} options={WHO_OPTIONS} />
            <Filter id="inbox-sla" name="sla" label="SLA" all="Any SLA" value={filters.sla ?? null} options={SLA_FILTER_OPTIONS} />
            <div className="grid gap-1 sm:w-32">
              <Label htmlFor="inbox-tag" className="sr-only">
                Tag
              </Label>
              <Input id="inbox-tag" name="tag" defaultValue={filters.tag ?? ''} placeholder="Tag" key={filters.tag ?? ''} maxLength={40} />
            </div>
            <Button type="submit" variant="outline">
              <Search className="size-4" aria-hidden="true" />
              Search
            </Button>
            {narrowed ? (
              <Button asChild variant="ghost">
                <Link to={LIST}>Clear</Link>
              </Button>
            ) : null}
          </Form>
        </CardHeader>
        <CardContent>
          <ListRegion label={TEXTS.listHeading}>
            {list.failed ? (
              <p role="alert" className="py-10 text-center text-sm text-destructive">
                {TEXTS.loadFailed}
              </p>
            ) : list.rows.length === 0 ? (
              narrowed ? <RecordEmpty title={TEXTS.noMatch} /> : <RecordEmpty title={TEXTS.empty} purpose={TEXTS.description} />
            ) : (
              <RecordTable
                caption={TEXTS.listHeading}
                pathname={LIST}
                query={query}
                rows={list.rows}
                columns={COLUMNS}
                rowKey={(row) => row.id}
                href={(row) => `/messages/${row.id}`}
                linkLabel={(row) => `${row.unread ? 'Unread: ' : ''}${row.contact?.name ?? 'Unknown sender'}, ${row.subject || '(no subject)'}`}
                phoneLine={(row) => [row.subject, labelOf(CHANNEL_OPTIONS, row.channel)].filter(Boolean).join(' · ')}
              />
            )}
            <ListPager list={list} pathname={LIST} noun={TEXTS.noun} />
          </ListRegion>
        </CardContent>
      </Card>
    </>
  );
}

function Filter({
  id,
  name,
  label,
  all,
  value,
  options,
}: {
  id: string;
  name: string;
  label: string;
  all: string;
  value: string | null;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <div className={cn('grid gap-1 sm:w-40')}>
      <Label htmlFor={id} className="sr-only">
        {label}
      </Label>
      <NativeSelect id={id} name={name} defaultValue={value ?? ''} key={value ?? ''}>
        <option value="">{all}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
