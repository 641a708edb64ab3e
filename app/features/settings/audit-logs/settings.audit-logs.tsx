import { Form, Link } from 'react-router';
import type { Route } from './+types/settings.audit-logs';
import { AccessRestricted } from '~/components/settings/access-restricted';
import { EmptyState } from '~/components/settings/empty-state';
import { SettingsHeader } from '~/components/settings/settings-header';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { Badge } from '~/components/ui/badge';
import { Button, buttonClasses } from '~/components/ui/button';
import { Input, NativeSelect } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { auditChanges, auditUserEmail, auditUserName, recordLabel, titleCaseAction, type AuditEntry } from './audit';
import { auditTone } from '~/lib/tones';
import { auditQueryString, loadAuditActions, loadAuditPage } from './audit.server';
import { AUDIT_PAGE_SIZE, AUDIT_TEXTS, auditHref, MAX_SEARCH_LENGTH, readAuditQuery, type AuditQuery } from './schema';
import { requireSettingsUserWith } from '~/lib/settings.server';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Audit Logs') }];

const LIST = '/settings/audit-logs';
const timestamp = new Intl.DateTimeFormat('en-US', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

export async function loader({ request, context, url }: Route.LoaderArgs) {
  // Admins and auditors (who read what admins read) see the log.
  const query = readAuditQuery(url.searchParams);
  const [{ canRead }, [result, actions]] = await requireSettingsUserWith(request, context, (supabase) =>
    Promise.all([loadAuditPage(supabase, query), loadAuditActions(supabase)]),
  );
  if (!canRead) return { access: 'restricted' as const };
  return {
    access: 'granted' as const,
    query,
    // The chosen action stays offered even when the log no longer holds it.
    actions: query.action && !actions.includes(query.action) ? [...actions, query.action] : actions,
    // What a row shows, worked out here: the entries' old and new values are
    // whole snapshots (a document's fields, a quote's lines), and sent as
    // they are they doubled the page for the browser to diff them again.
    entries: result.ok ? result.entries.map(auditRow) : [],
    hasNext: result.ok && result.hasNext,
    error: result.ok ? null : AUDIT_TEXTS.loadFailed,
    exportHref: `${LIST}.csv${auditQueryString(query)}`,
  };
}

export default function SettingsAuditLogs({ loaderData }: Route.ComponentProps) {
  if (loaderData.access === 'restricted') {
    return (
      <>
        <SettingsHeader title="Audit Logs" />
        <AccessRestricted title={AUDIT_TEXTS.restrictedTitle} message={AUDIT_TEXTS.restricted} />
      </>
    );
  }
  const { query, actions, entries, hasNext, error, exportHref } = loaderData;
  const filtered = Boolean(query.q || query.action);
  return (
    <>
      <SettingsHeader
        title="Audit Logs"
        description="Who did what in your account, newest first."
        actions={
          // A plain link: the browser downloads the file, with or without JavaScript.
          <a href={exportHref} download className={buttonClasses('outline')}>
            Export CSV
          </a>
        }
      />
      <Form method="get" action={LIST} role="search" aria-label="Audit logs" className="mb-4 flex flex-wrap items-end gap-3">
        <div className="grid min-w-48 flex-1 gap-2">
          <Label htmlFor="audit-search">Search</Label>
          <Input
            id="audit-search"
            type="search"
            name="q"
            defaultValue={query.q}
            maxLength={MAX_SEARCH_LENGTH}
            placeholder="Action, resource type or user name"
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor="audit-action">Action</Label>
          <NativeSelect id="audit-action" name="action" defaultValue={query.action}>
            <option value="">All actions</option>
            {actions.map((action) => (
              <option key={action} value={action}>
                {titleCaseAction(action)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit">Search</Button>
        {filtered ? (
          <Link to={LIST} className={buttonClasses('ghost')}>
            Clear
          </Link>
        ) : null}
      </Form>
      {error ? (
        <EmptyState title={error}>Please try again in a moment.</EmptyState>
      ) : entries.length === 0 ? (
        <EmptyState title={query.page > 1 ? 'No more entries' : filtered ? 'No entries match your search' : 'No audit entries yet'} />
      ) : (
        <>
          <RecordTable
            caption="Audit entries"
            pathname={LIST}
            rows={entries}
            columns={AUDIT_COLUMNS}
            rowKey={(entry) => entry.id}
            // An entry has no page of its own.
            href={() => null}
            phoneLine={(entry) => `${titleCaseAction(entry.action)} · ${entry.record} · ${entry.userName}`}
          />
          <AuditPager query={query} shown={entries.length} hasNext={hasNext} />
        </>
      )}
    </>
  );
}

/** One row of the table, as it is shown. */
function auditRow(entry: AuditEntry) {
  return {
    id: entry.id,
    action: entry.action,
    createdAt: entry.created_at,
    resourceId: entry.resource_id,
    record: recordLabel(entry),
    userName: auditUserName(entry),
    userEmail: auditUserEmail(entry),
    changes: auditChanges(entry),
  };
}

type AuditRowShown = ReturnType<typeof auditRow>;

/** The log's columns: when, what, on which record, by whom, and each change before → after. */
const AUDIT_COLUMNS: RecordColumn<AuditRowShown>[] = [
  {
    id: 'when',
    header: 'When',
    cell: (entry) => <time dateTime={entry.createdAt}>{timestamp.format(new Date(entry.createdAt))} UTC</time>,
    className: 'md:whitespace-nowrap md:text-xs',
  },
  {
    id: 'action',
    header: 'Action',
    cell: (entry) => (
      <Badge variant={auditTone(entry.action)} data-action={entry.action}>
        {titleCaseAction(entry.action)}
      </Badge>
    ),
  },
  { id: 'record', header: 'Record', cell: (entry) => <span title={entry.resourceId ?? undefined}>{entry.record}</span>, className: 'max-w-64' },
  {
    id: 'by',
    header: 'By',
    cell: (entry) => (
      <>
        <span className="font-medium">{entry.userName}</span>
        {entry.userEmail ? <span className="block text-xs text-muted-foreground">{entry.userEmail}</span> : null}
      </>
    ),
    className: 'max-w-56 break-words',
  },
  {
    id: 'changes',
    header: 'Changes',
    cell: ({ changes }) =>
      changes.length === 0 ? (
        <span className="text-muted-foreground">—</span>
      ) : (
        <ul className="grid gap-0.5 text-xs" aria-label="Changes">
          {changes.map((change) => (
            <li key={change.field} className="break-words">
              <span className="font-medium">{change.field}</span>:{' '}
              <span className="text-muted-foreground">{change.before ?? '—'}</span>
              {' → '}
              <span>{change.after ?? '—'}</span>
            </li>
          ))}
        </ul>
      ),
    className: 'max-w-96',
  },
];

/** Previous / Next through the log, keeping the search and filter (plain links: no JavaScript needed). */
function AuditPager({ query, shown, hasNext }: { query: AuditQuery; shown: number; hasNext: boolean }) {
  const first = (query.page - 1) * AUDIT_PAGE_SIZE + 1;
  return (
    <nav aria-label="Audit entries pages" className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm">
      <p className="text-muted-foreground" aria-live="polite">
        Showing {first}–{first + shown - 1} entries
      </p>
      <div className="flex gap-2">
        {query.page > 1 ? (
          <Link to={auditHref(LIST, { ...query, page: query.page - 1 })} className={buttonClasses('outline', 'sm')} rel="prev">
            Newer
          </Link>
        ) : null}
        {hasNext ? (
          <Link to={auditHref(LIST, { ...query, page: query.page + 1 })} className={buttonClasses('outline', 'sm')} rel="next">
            Older
          </Link>
        ) : null}
      </div>
    </nav>
  );
}
