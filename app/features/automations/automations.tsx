// The Automations screen (decision 067): the account's workflows, searched,
// filtered by status and paged by URL, and the New Automation dialog of spec
// §3 creating a real one (Draft or Active) with its action's settings and
// condition rows; the engine (jobs.server.ts) runs the active ones.
import { createdColumn } from '~/components/records/columns';
import type { Route } from './+types/automations';
import { ListScreen } from '~/components/list-screen';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { automationStatus } from './automation-status';
import { requireUserWith } from '~/lib/auth.server';
import { readListQuery, statusOptions } from '~/lib/list-query';
import { createRecord } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { pageTitle } from '~/lib/page-title';
import { AutomationForm } from './automation-form';
import { newAutomationServerSchema } from './schema.server';
import { answerPreview } from './preview.server';
import { insertAutomation, loadAutomations, loadChoices, type AutomationRow } from './queries.server';
import { ACTION_LABELS, AUTOMATION_STATUSES, TRIGGER_LABELS, type AutomationAction, type Trigger } from './schema';
import { AUTOMATION_TEXTS as TEXTS } from './texts';

const LIST = '/automations';
const STATUS_OPTIONS = statusOptions(AUTOMATION_STATUSES);


const COLUMNS: RecordColumn<AutomationRow>[] = [
  { id: 'name', header: 'Name', cell: (a) => a.name, className: 'md:max-w-56' },
  { id: 'trigger', header: 'Trigger', cell: (a) => TRIGGER_LABELS[a.trigger_kind as Trigger] ?? a.trigger_kind, className: 'text-muted-foreground' },
  { id: 'action', header: 'Action', cell: (a) => ACTION_LABELS[a.action_kind as AutomationAction] ?? a.action_kind, className: 'text-muted-foreground' },
  { id: 'runs', header: 'Runs', cell: (a) => Number(a.run_count ?? 0).toLocaleString('en-US'), className: 'text-muted-foreground' },
  {
    id: 'success',
    header: 'Success rate',
    cell: (a) => (a.run_count ? `${((Number(a.succeeded_count ?? 0) / Number(a.run_count)) * 100).toFixed(1)}%` : '—'),
    className: 'text-muted-foreground',
  },
  { id: 'status', header: 'Status', cell: (a) => automationStatus({ status: a.status ?? 'draft', last_error: a.last_error }), phone: true },
  createdColumn(),
];

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, AUTOMATION_STATUSES, ['created_at'] as const);
  const [{ profile }, [found, choices]] = await requireUserWith(request, context, (supabase) =>
    Promise.all([loadAutomations(supabase, query), loadChoices(supabase)]),
  );
  return { canWrite: canWriteBusiness(profile?.role), ...found, choices };
}

export async function action(args: Route.ActionArgs) {
  // 'Preview schedule': the typed schedule's next five runs, nothing saved.
  const preview = await answerPreview(args);
  if (preview) return preview;
  return createRecord(args, {
    schema: newAutomationServerSchema,
    listPath: LIST,
    texts: TEXTS,
    noun: 'automation',
    write: insertAutomation,
    fieldOfError: {
      "Choose one of the account's e-mail templates": 'template_id',
      'Choose someone of the account to assign the task to': 'assignee_id',
      'Choose someone of the account to mail the report to': 'assignee_id',
      "Only an admin can enter an address outside the account: choose the event's contact or a colleague": 'recipient',
      'Create Invoice applies to Quote Accepted': 'trigger',
    },
  });
}

export default function Automations({ loaderData, actionData }: Route.ComponentProps) {
  const { list, canWrite, choices } = loaderData;
  return (
    <ListScreen
      pathname={LIST}
      texts={TEXTS}
      list={list}
      canWrite={canWrite}
      statuses={STATUS_OPTIONS}
      summary={null}
      form={
        <AutomationForm
          mode="new"
          action="/automations?new"
          closeTo="/automations"
          lastResult={actionData?.result}
          choices={choices}
          preview={actionData && 'preview' in actionData ? actionData.preview : null}
          defaultValue={{ trigger: 'quote_accepted', action: 'send_email', frequency: 'immediate', status: 'draft', recipient: 'event_contact' }}
        />
      }
    >
      <RecordTable
        caption={TEXTS.title}
        pathname={LIST}
        query={list.query}
        rows={list.rows}
        columns={COLUMNS}
        rowKey={(a) => a.id ?? ''}
        href={(a) => `/automations/${a.id}`}
        phoneLine={(a) => `${TRIGGER_LABELS[a.trigger_kind as Trigger] ?? a.trigger_kind} → ${ACTION_LABELS[a.action_kind as AutomationAction] ?? a.action_kind}`}
      />
    </ListScreen>
  );
}
