import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Calendar, DollarSign, Radar, Target, Timer } from '~/components/icons';
import { Form, useSearchParams } from 'react-router';
import type { Route } from './+types/rfp';
import { PreviewBanner, SampleBadge } from '~/components/preview-banner';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { DialogActions, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { formatMoney } from '~/lib/money';
import { formatShortDate } from '~/lib/dates';
import { RFP_SUMMARY, SAMPLE_RFPS, type SampleRfp } from './samples';
import { newRfpResponseSchema } from './schema';
import { SIMULATED_ACTIONS } from '~/lib/simulated';
import { simulatedCreate } from '~/lib/simulated.server';
import { CreateLink } from '~/components/create-link';
import { pageTitle } from '~/lib/page-title';

const LIST_PATH = '/rfp';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('RFP Radar') }];

export async function action(args: Route.ActionArgs) {
  return simulatedCreate(args, { action: 'rfp', schema: newRfpResponseSchema, listPath: LIST_PATH });
}

export default function Rfp({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  return (
    <>
      <PreviewBanner />
      <PageHeader
        title="RFP Radar"
        description="Find tenders and requests for proposal, and track your responses."
        actions={
          <CreateLink to="?new">New RFP Response</CreateLink>
        }
      />
      <StatGrid label="RFP summary">
        <StatCard label="Active RFPs" value={RFP_SUMMARY.active} note={RFP_SUMMARY.activeNote} icon={Radar} />
        <StatCard label="Pipeline Value" value={RFP_SUMMARY.pipelineValue} note={RFP_SUMMARY.pipelineNote} icon={DollarSign} />
        <StatCard label="Win Rate" value={RFP_SUMMARY.winRate} note={RFP_SUMMARY.winRateNote} icon={Target} />
        <StatCard label="Due This Week" value={RFP_SUMMARY.dueThisWeek} note={RFP_SUMMARY.dueThisWeekNote} icon={Timer} />
      </StatGrid>
      <Card>
        <CardHeader>
          <SectionHeading>Open Opportunities</SectionHeading>
          <p className="text-sm text-muted-foreground">Sample RFPs of this demonstration screen.</p>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4">
            {SAMPLE_RFPS.map((rfp) => (
              <RfpRow key={rfp.id} rfp={rfp} />
            ))}
          </ul>
        </CardContent>
      </Card>
      <UrlDialog
        open={searchParams.has('new')}
        closeTo={LIST_PATH}
        title="Create RFP Response"
        description="Every field is required except the additional notes."
      >
        <NewRfpResponseForm lastResult={actionData?.result} />
      </UrlDialog>
    </>
  );
}

function RfpRow({ rfp }: { rfp: SampleRfp }) {
  return (
    <li className="grid gap-3 rounded-lg border border-border p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <h3 className="font-semibold">{rfp.title}</h3>
          <p className="text-sm text-muted-foreground">{rfp.company}</p>
        </div>
        <div className="flex items-center gap-2">
          <SampleBadge />
          <StatusBadge status={rfp.status} />
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted-foreground">Value</dt>
          <dd className="font-medium">{formatMoney(rfp.value)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Deadline</dt>
          <dd className="flex items-center gap-1 font-medium">
            <Calendar className="size-3.5" aria-hidden="true" />
            <time dateTime={rfp.deadline}>{formatShortDate(rfp.deadline)}</time>
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Submissions</dt>
          <dd className="font-medium">{rfp.submissions}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Days left</dt>
          <dd className="font-medium">{rfp.daysLeft === 1 ? '1 day' : `${rfp.daysLeft} days`}</dd>
        </div>
      </dl>
    </li>
  );
}

function NewRfpResponseForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(newRfpResponseSchema, { id: 'new-rfp-response', lastResult });
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <TextField field={fields.title} label="RFP title" />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.company} label="Company" autoComplete="organization" />
        <TextField field={fields.contact_email} label="Contact email" type="email" autoComplete="email" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.value} label="Value (USD)" type="number" step="0.01" min="0" inputMode="decimal" />
        <TextField field={fields.deadline} label="Deadline" type="date" />
      </div>
      <TextareaField field={fields.proposal} label="Proposal" rows={4} />
      <TextareaField field={fields.additional_notes} label="Additional notes (optional)" rows={2} />
      <DialogActions closeTo={LIST_PATH}>
        <SubmitButton label="Create Response" busyLabel={SIMULATED_ACTIONS.rfp.busyLabel} />
      </DialogActions>
    </Form>
  );
}
