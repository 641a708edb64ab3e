import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Activity, CheckCircle2, Clock, Play, ScrollText, Workflow, Zap } from '~/components/icons';
import { Form, useSearchParams } from 'react-router';
import type { Route } from './+types/automations';
import { InertButton } from './inert-button';
import { PreviewBanner, SampleBadge } from './preview-banner';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { AUTOMATION_SUMMARY, SAMPLE_WORKFLOWS, type SampleWorkflow } from './samples';
import { formatDateTime } from '~/lib/dates';
import { ACTION_LABELS, ACTION_OPTIONS, FREQUENCY_OPTIONS, newAutomationSchema, TRIGGER_LABELS, TRIGGER_OPTIONS } from './schema';
import { SIMULATED_ACTIONS } from './simulated';
import { simulatedCreate } from './simulated.server';
import { CreateLink } from '~/components/create-link';
import { pageTitle } from '~/lib/page-title';

const LIST_PATH = '/automations';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Automations') }];

export async function action(args: Route.ActionArgs) {
  return simulatedCreate(args, { action: 'automation', schema: newAutomationSchema, listPath: LIST_PATH });
}

export default function Automations({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  return (
    <>
      <PreviewBanner />
      <PageHeader
        title="Automations"
        description="Workflows that act on their own when something happens or on a schedule."
        actions={
          <>
            <InertButton variant="outline">
              <ScrollText className="size-4" aria-hidden="true" />
              View Logs
            </InertButton>
            <InertButton variant="outline">
              <Play className="size-4" aria-hidden="true" />
              Run All
            </InertButton>
            <CreateLink to="?new">New Automation</CreateLink>
          </>
        }
      />
      <StatGrid label="Automation summary">
        <StatCard label="Active Workflows" value={AUTOMATION_SUMMARY.active} note={AUTOMATION_SUMMARY.activeNote} icon={Workflow} />
        <StatCard label="Runs This Month" value={AUTOMATION_SUMMARY.runsThisMonth} note={AUTOMATION_SUMMARY.runsNote} icon={Activity} />
        <StatCard label="Success Rate" value={AUTOMATION_SUMMARY.successRate} note={AUTOMATION_SUMMARY.successNote} icon={CheckCircle2} />
        <StatCard label="Time Saved" value={AUTOMATION_SUMMARY.timeSaved} note={AUTOMATION_SUMMARY.timeSavedNote} icon={Clock} />
      </StatGrid>
      <Card>
        <CardHeader>
          <SectionHeading>Workflows</SectionHeading>
          <p className="text-sm text-muted-foreground">Sample workflows of this demonstration screen.</p>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4">
            {SAMPLE_WORKFLOWS.map((workflow) => (
              <WorkflowRow key={workflow.id} workflow={workflow} />
            ))}
          </ul>
        </CardContent>
      </Card>
      <UrlDialog
        open={searchParams.has('new')}
        closeTo={LIST_PATH}
        title="Create Automation Workflow"
        description="Choose what starts the workflow, what it does and how often."
      >
        <NewAutomationForm lastResult={actionData?.result} />
      </UrlDialog>
    </>
  );
}

function WorkflowRow({ workflow }: { workflow: SampleWorkflow }) {
  return (
    <li className="grid gap-3 rounded-lg border border-border p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <h3 className="flex items-center gap-2 font-semibold">
            <Zap className="size-4 text-muted-foreground" aria-hidden="true" />
            {workflow.name}
          </h3>
          <p className="text-sm text-muted-foreground">{workflow.description}</p>
          <p className="text-xs text-muted-foreground">
            When {TRIGGER_LABELS[workflow.trigger]} → {ACTION_LABELS[workflow.action]}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <SampleBadge />
          <StatusBadge status={workflow.status} />
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-muted-foreground">Runs</dt>
          <dd className="font-medium">{workflow.runCount.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Success rate</dt>
          <dd className="font-medium">{workflow.successRate}%</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Next run</dt>
          <dd className="font-medium">
            {workflow.nextRun ? (
              <time dateTime={workflow.nextRun}>{formatDateTime(workflow.nextRun)}</time>
            ) : (
              workflow.nextRunNote
            )}
          </dd>
        </div>
      </dl>
    </li>
  );
}

function NewAutomationForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(newAutomationSchema, {
    id: 'new-automation',
    lastResult,
    defaultValue: { trigger: 'quote_accepted', action: 'send_email', frequency: 'immediate' },
  });
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <TextField field={fields.name} label="Workflow name" />
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField field={fields.trigger} label="Trigger" options={TRIGGER_OPTIONS} />
        <SelectField field={fields.action} label="Action" options={ACTION_OPTIONS} />
        <SelectField field={fields.frequency} label="Frequency" options={FREQUENCY_OPTIONS} />
      </div>
      <TextareaField field={fields.description} label="Description" rows={3} />
      <TextareaField field={fields.conditions} label="Conditions (optional)" rows={2} placeholder="e.g. only quotes over $5,000" />
      <DialogActions closeTo={LIST_PATH}>
        <SubmitButton label="Create Automation" busyLabel={SIMULATED_ACTIONS.automation.busyLabel} />
      </DialogActions>
    </Form>
  );
}
