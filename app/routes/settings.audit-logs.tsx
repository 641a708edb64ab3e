import { Form, Link } from 'react-router';
import type { Route } from './+types/settings.audit-logs';
import { AccessRestricted } from '~/components/settings/access-restricted';
import { EmptyState } from '~/components/settings/empty-state';
import { SettingsHeader } from '~/components/settings/settings-header';
import { Badge } from '~/components/ui/badge';
import { Button, buttonClasses } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import { Input, NativeSelect } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { auditUserName, resourceIdPreview, titleCaseAction, type AuditEntry } from '~/lib/audit';
import { auditTone } from '~/lib/tones';
import { auditQueryString, loadAuditActions, loadAuditEntries } from '~/lib/audit.server';
import { AUDIT_TEXTS, MAX_SEARCH_LENGTH, readAuditQuery } from '~/lib/schemas/settings-audit';
import { requireSettingsUserWith } from '~/lib/settings.server';

export const meta: Route.MetaFunction = () => [{ title: 'Audit Logs' }];

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
    Promise.all([loadAuditEntries(supabase, query), loadAuditActions(supabase)]),
  );
  if (!canRead) return { access: 'restricted' as const };
  return {
    access: 'granted' as const,
    query,
    // The chosen action stays offered even when the log no longer holds it.
    actions: query.action && !actions.includes(query.action) ? [...actions, query.action] : actions,
    entries: result.ok ? result.entries : [],
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
  const { query, actions, entries, error, exportHref } = loaderData;
  const filtered = Boolean(query.q || query.action);
  return (
    <>
      <SettingsHeader
        title="Audit Logs"
        description="Who did what in your account: the latest 100 entries."
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
        <EmptyState title={filtered ? 'No entries match your search' : 'No audit entries yet'} />
      ) : (
        <>
          <p className="mb-2 text-sm text-muted-foreground" aria-live="polite">
            {entries.length === 1 ? '1 entry' : `${entries.length} entries`}
          </p>
          <ul className="grid gap-3" aria-label="Audit entries">
            {entries.map((entry) => (
              <AuditRow key={entry.id} entry={entry} />
            ))}
          </ul>
        </>
      )}
    </>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const hasValues = entry.old_values !== null || entry.new_values !== null;
  return (
    <li>
      <Card>
        <CardContent className="grid gap-2 pt-6">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={auditTone(entry.action)} data-action={entry.action}>
                {titleCaseAction(entry.action)}
              </Badge>
              <span className="text-sm">
                {entry.resource_type}{' '}
                <code className="text-xs text-muted-foreground" title={entry.resource_id ?? undefined}>
                  {resourceIdPreview(entry.resource_id)}
                </code>
              </span>
            </div>
            <time dateTime={entry.created_at} className="text-xs text-muted-foreground">
              {timestamp.format(new Date(entry.created_at))} UTC
            </time>
          </div>
          <p className="text-sm">
            <span className="font-medium">{auditUserName(entry)}</span>
            {entry.user_email ? <span className="text-muted-foreground"> · {entry.user_email}</span> : null}
          </p>
          {hasValues ? (
            // <details> opens without JavaScript.
            <details className="text-sm">
              <summary className="cursor-pointer text-primary underline-offset-2 hover:underline">View changes</summary>
              <div className="mt-2 grid gap-2 md:grid-cols-2">
                <ValuesBlock title="Old values" values={entry.old_values} />
                <ValuesBlock title="New values" values={entry.new_values} />
              </div>
            </details>
          ) : null}
        </CardContent>
      </Card>
    </li>
  );
}

function ValuesBlock({ title, values }: { title: string; values: unknown }) {
  return (
    <div className="min-w-0">
      <p className="mb-1 text-xs font-semibold uppercase text-muted-foreground">{title}</p>
      <pre className="max-h-64 overflow-auto rounded-md bg-muted p-2 text-xs">
        {values === null || values === undefined ? '—' : JSON.stringify(values, null, 2)}
      </pre>
    </div>
  );
}
