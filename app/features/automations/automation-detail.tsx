// An automation's page (decision 067, 080): its settings and conditions, the
// next five scheduled times in the account's timezone, Edit (?edit, the New
// Automation dialog's fields), Run now (one queued run per click: the key is
// drawn with the page), Activate / Pause, Delete (?delete), and its run history (newest first, paged by ?runs=) with each
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
import { HIDDEN_FIELDS, readFormData } from '~/lib/forms.server';
import { recordDialog, recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { pageTitle } from '~/lib/page-title';
import { automationStatus } from './automation-status';
import { deleteAutomation, loadAutomation, loadChoices, runAutomationNow, setAutomationStatus, updateAutomation } from './queries.server';
import { AutomationForm } from './automation-form';
import { answerPreview } from './preview.server';
import { automationActionServerSchema } from './schema.server';
import { UrlDialog } from '~/components/url-dialog';
import { checkSchedule, cronOf, type ScheduleFrequency } from './schedule';
import { ACTION_LABELS, CONDITION_ROWS, RECIPIENT_EVENT_CONTACT, RECIPIENT_FIXED, RUNS_PER_PAGE, FREQUENCY_LABELS, OPERATOR_LABELS, TRIGGER_LABELS, type AutomationAction, type Frequency, type Operator, type Trigger } from './schema';
import { AUTOMATION_DETAIL_TEXTS as TEXTS } from './texts';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? pageTitle(loaderData.automation.name, 'Automations') : pageTitle(TEXTS.notFound) },
];

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const runPage = Math.min(10_000, Math.max(1, Number.parseInt(url.searchParams.get('runs') ?? '1', 10) || 1));
  const editing = url.searchParams.has('edit');
  const { profile, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, (supabase, id) =>
    Promise.all([
      loadAutomation(supabase, id, runPage),
      supabase.from('accounts').select('timezone').maybeSingle(),
      editing ? loadChoices(supabase) : null,
    ]).then(([a, account, choices]) => (a ? { ...a, timezone: account.data?.timezone || 'UTC', choices } : null)),
  );
  const canWrite = canWriteBusiness(profile?.role);
  const { automation, timezone } = found;
  const expression = automation.frequency ? cronOf(automation.frequency as ScheduleFrequency, automation.cron) : null;
  const schedule = expression ? checkSchedule(expression, timezone) : null;
  return {
    ...found,
    canWrite,
    dialog: recordDialog(url, canWrite),
    // Run now's idempotency key: a second post of this page's button queues nothing more.
    runKey: crypto.randomUUID(),
    nextRuns: schedule?.ok ? schedule.next.map((d) => d.toISOString()) : [],
  };
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const { supabase, id, page } = await recordWriter(args, '/automations', TEXTS.notFound);
    const preview = await answerPreview(args);
    if (preview) return preview;
    const submission = parseWithZod(await readFormData(args.request), { schema: automationActionServerSchema });
    // Run now's key is a hidden field: a bad one is an altered form, said in a toast.
    if (submission.status !== 'success') return refuseSubmission(args, submission, { hiddenFields: [...HIDDEN_FIELDS, 'run_key'] });
    const failed = (error: { code?: string; message?: string } | null, fallback: string) =>
      dataWithError(args, { result: submission.reply({ formErrors: [serverMessage(error, fallback)] }) }, serverMessage(error, fallback), { status: 400 });
    switch (submission.value.intent) {
      case 'update': {
        const { data, error } = await updateAutomation(supabase, id, submission.value);
        if (error?.hint && ['template_id', 'assignee_id', 'trigger', 'recipient'].includes(error.hint)) {
          return dataWithError(args, { result: submission.reply({ fieldErrors: { [error.hint]: [error.message] } }) }, error.message, { status: 400 });
        }
        if (error || !data) return failed(error, TEXTS.saveFailed);
        return redirectWithSuccess(page, TEXTS.saved);
      }
      case 'run_now': {
        const { data, error } = await runAutomationNow(supabase, id, submission.value.run_key);
        if (error || !data) return failed(error, TEXTS.runFailed);
        return redirectWithSuccess(page, TEXTS.runQueued);
      }
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

/** The edit dialog's fields, filled from the saved automation. */
function editDefaults(automation: Route.ComponentProps['loaderData']['automation'], recipients: { value: string }[]) {
  const settings = (automation.action_settings ?? {}) as Record<string, string | undefined>;
  // The recipient select holds the event's contact and the users; any other address is the fixed one.
  const listed = !settings.recipient || settings.recipient === RECIPIENT_EVENT_CONTACT
    || recipients.some((r) => r.value.toLowerCase() === settings.recipient!.toLowerCase());
  const recipient = listed ? recipients.find((r) => r.value.toLowerCase() === settings.recipient?.toLowerCase())?.value ?? settings.recipient : RECIPIENT_FIXED;
  const conditions = (Array.isArray(automation.conditions) ? automation.conditions : []) as { field?: string; operator?: string; value?: string }[];
  return {
    name: automation.name,
    description: automation.description ?? '',
    trigger: automation.trigger_kind,
    action: automation.action_kind,
    frequency: automation.frequency ?? 'immediate',
    cron: automation.cron ?? '',
    template_id: settings.template_id,
    recipient,
    recipient_address: listed ? '' : settings.recipient,
    new_status: settings.status,
    assignee_id: settings.assignee_id,
    task_title: settings.title,
    report_type: settings.report_type,
    report_format: settings.format,
    report_range: settings.date_range,
    ...Object.fromEntries(
      Array.from({ length: CONDITION_ROWS }, (_, i) => [
        [`condition_field_${i}`, conditions[i]?.field],
        [`condition_operator_${i}`, conditions[i]?.operator],
        [`condition_value_${i}`, conditions[i]?.value],
      ]).flat(),
    ),
  };
}

export default function AutomationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { automation, runs, runCount, succeededCount, runPage, history, canWrite, dialog, nextRuns, timezone, runKey, choices } = loaderData;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  const intent = (lastResult?.initialValue as { intent?: unknown } | undefined)?.intent;
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
            <Link to="?edit" preventScrollReset className={buttonClasses('outline')}>
              Edit
            </Link>
            {TEXTS.runNeedsEvent[automation.action_kind] ? (
              <p className="max-w-xs text-xs text-muted-foreground">{TEXTS.runNeedsEvent[automation.action_kind]}</p>
            ) : (
              <Form method="post" action={page}>
                <input type="hidden" name="run_key" value={runKey} />
                <Button type="submit" name="intent" value="run_now" variant="outline">Run now</Button>
              </Form>
            )}
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
            { label: 'Last error', value: automation.last_error ? `Failed: ${automation.last_error}` : null },
          ]}
        />
      }
      dialogs={
        <>
          <UrlDialog open={dialog === 'edit'} closeTo={page} title={TEXTS.editTitle} description={TEXTS.editDescription}>
            {dialog === 'edit' && choices ? (
              <AutomationForm
                mode="edit"
                action={`${page}?edit`}
                closeTo={page}
                lastResult={intent === 'update' || (actionData && 'preview' in actionData) ? lastResult : undefined}
                choices={choices}
                defaultValue={editDefaults(automation, choices.recipients)}
                preview={actionData && 'preview' in actionData ? actionData.preview : null}
              />
            ) : null}
          </UrlDialog>
          <DeleteRecordDialog open={dialog === 'delete'} closeTo={page} title={TEXTS.deleteTitle} what={`the automation "${automation.name}"`} />
        </>
      }
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
                    <td className="py-1 pr-2">{run.scheduled_for ? formatDateTime(run.scheduled_for) : run.event_id ? `Event ${run.event_id.slice(0, 8)}` : run.manual_key ? 'Run now' : '—'}</td>
                    <td className="py-1 pr-2"><StatusBadge status={run.status} /></td>
                    <td className="py-1 break-all">
                      {run.error ?? (Object.keys(run.output ?? {}).length ? JSON.stringify(run.output) : '—')}
                      {run.attempts > 1 ? ` (attempt ${run.attempts})` : ''}
                      {run.status === 'retrying' && run.next_attempt_at ? ` · retries at ${formatDateTime(run.next_attempt_at)}` : ''}
                    </td>
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
