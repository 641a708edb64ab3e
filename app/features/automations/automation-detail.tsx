// An automation's page (decision 067): its settings and conditions, the next
// five scheduled times in the account's timezone, Activate / Pause, Delete
// (?delete), and its run history (newest first, paged by ?runs=) with each
// run's event, outcome, error and what it wrote. Works without JavaScript.
import { DeleteRecordDialog } from '~/components/records/delete-record-dialog';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/automation-detail';
import { SectionHeading } from '~/components/page-header';
import { FactsPanel } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { Timeline } from '~/components/records/timeline';
import { StatusBadge } from '~/components/status-badge';
import { Button, buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { formatDateTime } from '~/lib/dates';
import { readFormData } from '~/lib/forms.server';
import { recordDialog, recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { pageTitle } from '~/lib/page-title';
import { automationStatus } from './automation-status';
import { deleteAutomation, loadAutomation, setAutomationStatus } from './queries.server';
import { checkSchedule, cronOf, type ScheduleFrequency } from './schedule';
import { ACTION_LABELS, automationActionSchema, RUNS_PER_PAGE, FREQUENCY_LABELS, OPERATOR_LABELS, TRIGGER_LABELS, type AutomationAction, type Frequency, type Operator, type Trigger } from './schema';
import { AUTOMATION_DETAIL_TEXTS as TEXTS } from './texts';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? pageTitle(loaderData.automation.name, 'Automations') : pageTitle(TEXTS.notFound) },
];

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const runPage = Math.min(10_000, Math.max(1, Number.parseInt(url.searchParams.get('runs') ?? '1', 10) || 1));
  const { profile, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, (supabase, id) =>
    Promise.all([loadAutomation(supabase, id, runPage), supabase.from('accounts').select('timezone').maybeSingle()]).then(([a, account]) =>
      a ? { ...a, timezone: account.data?.timezone || 'UTC' } : null,
    ),
  );
  const canWrite = canWriteBusiness(profile?.role);
  const { automation, timezone } = found;
  const expression = automation.frequency ? cronOf(automation.frequency as ScheduleFrequency, automation.cron) : null;
  const schedule = expression ? checkSchedule(expression, timezone) : null;
  return {
    ...found,
    canWrite,
    dialog: recordDialog(url, canWrite) === 'delete' ? ('delete' as const) : null,
    nextRuns: schedule?.ok ? schedule.next.map((d) => d.toISOString()) : [],
  };
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const { supabase, id, page } = await recordWriter(args, '/automations', TEXTS.notFound);
    const submission = parseWithZod(await readFormData(args.request), { schema: automationActionSchema });
    if (submission.status !== 'success') return refuseSubmission(args, submission);
    const failed = (error: { code?: string; message?: string } | null, fallback: string) =>
      dataWithError(args, { result: submission.reply({ formErrors: [serverMessage(error, fallback)] }) }, serverMessage(error, fallback), { status: 400 });
    switch (submission.value.intent) {
      case 'activate':
      case 'pause': {
        const status = submission.value.intent === 'activate' ? 'active' : 'paused';
        const { data, error } = await setAutomationStatus(supabase, id, status);
        if (error || !data) return failed(error, TEXTS.saveFailed);
        return redirectWithSuccess(page, status === 'active' ? TEXTS.activated : TEXTS.paused);
      }
      case 'delete': {
        const { data, error } = await deleteAutomation(supabase, id);
        if (error || !data) return failed(error, TEXTS.deleteFailed);
        return redirectWithSuccess('/automations', TEXTS.deleted);
      }
    }
  });
}

const describeSettings = (kind: string, settings: Record<string, unknown>) =>
  Object.entries(settings)
    .map(([key, value]) => `${key.replace(/_/g, ' ')}: ${String(value)}`)
    .join(' · ') || ACTION_LABELS[kind as AutomationAction];

export default function AutomationPage({ loaderData }: Route.ComponentProps) {
  const { automation, runs, runCount, succeededCount, runPage, history, canWrite, dialog, nextRuns, timezone } = loaderData;
  const page = `/automations/${automation.id}`;
  const conditions = (Array.isArray(automation.conditions) ? automation.conditions : []) as { field: string; operator: Operator; value?: string }[];
  const settings = (automation.action_settings ?? {}) as Record<string, unknown>;
  const pages = Math.max(1, Math.ceil(runCount / RUNS_PER_PAGE));
  return (
    <RecordPage
      back={{ to: '/automations', label: TEXTS.back }}
      title={automation.name}
      status={automationStatus(automation)}
      subtitle={`When ${TRIGGER_LABELS[automation.trigger_kind as Trigger] ?? automation.trigger_kind} → ${ACTION_LABELS[automation.action_kind as AutomationAction] ?? automation.action_kind}`}
      actions={
        canWrite ? (
          <>
            <Form method="post" action={page}>
              {automation.status === 'active' ? (
                <Button type="submit" name="intent" value="pause" variant="outline">Pause</Button>
              ) : (
                <Button type="submit" name="intent" value="activate" variant="outline">Activate</Button>
              )}
            </Form>
            <Link to="?delete" preventScrollReset className={buttonClasses('ghost')}>
              Delete
            </Link>
          </>
        ) : null
      }
      facts={
        <FactsPanel
          facts={[
            { label: 'Description', value: automation.description },
            { label: 'Trigger', value: TRIGGER_LABELS[automation.trigger_kind as Trigger] ?? automation.trigger_kind },
            { label: 'Frequency', value: automation.frequency ? FREQUENCY_LABELS[automation.frequency as Frequency] ?? automation.frequency : 'Immediate' },
            { label: 'Cron', value: automation.cron },
            { label: `Next runs (${timezone})`, value: nextRuns.length ? nextRuns.map((at) => formatDateTime(at)).join(' · ') : null },
            { label: 'Action', value: describeSettings(automation.action_kind, settings) },
            {
              label: 'Conditions',
              value: conditions.length ? conditions.map((c) => `${c.field} ${OPERATOR_LABELS[c.operator] ?? c.operator} ${c.value ?? ''}`.trim()).join(' and ') : 'None',
            },
            { label: 'Runs', value: runCount.toLocaleString('en-US') },
            { label: 'Success rate', value: runCount ? `${((succeededCount / runCount) * 100).toFixed(1)}%` : '—' },
            { label: 'Last error', value: automation.last_error },
          ]}
        />
      }
      dialogs={<DeleteRecordDialog open={dialog === 'delete'} closeTo={page} title={TEXTS.deleteTitle} what={`the automation "${automation.name}"`} />}
    >
      <Card>
        <CardHeader>
          <SectionHeading>{TEXTS.runsHeading}</SectionHeading>
        </CardHeader>
        <CardContent>
          {runs.length === 0 ? (
            <p className="text-sm text-muted-foreground">{TEXTS.noRuns}</p>
          ) : (
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-1 pr-2 font-medium">Started</th>
                  <th className="py-1 pr-2 font-medium">For</th>
                  <th className="py-1 pr-2 font-medium">Outcome</th>
                  <th className="py-1 font-medium">Wrote / error</th>
                </tr>
              </thead>
              <tbody>
                {runs.map((run) => (
                  <tr key={run.id} className="border-t border-border align-top">
                    <td className="py-1 pr-2 whitespace-nowrap">{formatDateTime(run.started_at)}</td>
                    <td className="py-1 pr-2">{run.scheduled_for ? formatDateTime(run.scheduled_for) : run.event_id ? `Event ${run.event_id.slice(0, 8)}` : '—'}</td>
                    <td className="py-1 pr-2"><StatusBadge status={run.status} /></td>
                    <td className="py-1 break-all">{run.error ?? (Object.keys(run.output ?? {}).length ? JSON.stringify(run.output) : '—')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {pages > 1 ? (
            <nav aria-label="Run pages" className="mt-3 flex gap-3 text-sm">
              {runPage > 1 ? <Link to={`?runs=${runPage - 1}`}>Newer runs</Link> : null}
              <span className="text-muted-foreground">Page {runPage} of {pages}</span>
              {runPage < pages ? <Link to={`?runs=${runPage + 1}`}>Older runs</Link> : null}
            </nav>
          ) : null}
        </CardContent>
      </Card>
      <Timeline moments={[{ label: 'Created', at: automation.created_at, covers: ['automation_created'] }]} entries={history.entries} failed={history.failed} />
    </RecordPage>
  );
}
