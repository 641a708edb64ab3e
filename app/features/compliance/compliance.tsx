import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { AlertTriangle, CalendarClock, ClipboardList, ShieldCheck } from '~/components/icons';
import { Form, useSearchParams } from 'react-router';
import type { Route } from './+types/compliance';
import { PreviewBanner, SampleBadge } from '~/components/preview-banner';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { COMPLIANCE_SUMMARY, SAMPLE_COMPLIANCE_ITEMS, type SampleComplianceItem } from './samples';
import { formatShortDate } from '~/lib/dates';
import { COMPLIANCE_CATEGORY_LABELS, COMPLIANCE_CATEGORY_OPTIONS, newAssessmentSchema, RISK_LEVEL_OPTIONS } from './schema';
import { SIMULATED_ACTIONS } from '~/lib/simulated';
import { simulatedCreate } from '~/lib/simulated.server';
import { CreateLink } from '~/components/create-link';
import { pageTitle } from '~/lib/page-title';

const LIST_PATH = '/compliance';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Compliance') }];

export async function action(args: Route.ActionArgs) {
  return simulatedCreate(args, { action: 'assessment', schema: newAssessmentSchema, listPath: LIST_PATH });
}

export default function Compliance({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  return (
    <>
      <PreviewBanner />
      <PageHeader
        title="Compliance"
        description="A compliance calendar with risk levels, owners and an audit trail."
        actions={
          <CreateLink to="?new">New Assessment</CreateLink>
        }
      />
      <StatGrid label="Compliance summary">
        <StatCard label="Compliance Score" value={COMPLIANCE_SUMMARY.score} note={COMPLIANCE_SUMMARY.scoreNote} icon={ShieldCheck} />
        <StatCard
          label="Active Requirements"
          value={COMPLIANCE_SUMMARY.activeRequirements}
          note={COMPLIANCE_SUMMARY.activeNote}
          icon={ClipboardList}
        />
        <StatCard label="Action Items" value={COMPLIANCE_SUMMARY.actionItems} note={COMPLIANCE_SUMMARY.actionNote} icon={AlertTriangle} />
        <StatCard label="Next Audit" value={COMPLIANCE_SUMMARY.nextAudit} note={COMPLIANCE_SUMMARY.nextAuditNote} icon={CalendarClock} />
      </StatGrid>
      <Card>
        <CardHeader>
          <SectionHeading>Compliance Requirements</SectionHeading>
          <p className="text-sm text-muted-foreground">Sample requirements of this demonstration screen.</p>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4">
            {SAMPLE_COMPLIANCE_ITEMS.map((item) => (
              <ComplianceRow key={item.id} item={item} />
            ))}
          </ul>
        </CardContent>
      </Card>
      <UrlDialog
        open={searchParams.has('new')}
        closeTo={LIST_PATH}
        title="New Compliance Assessment"
        description="Record a requirement to assess, who owns it and when it is next reviewed."
      >
        <NewAssessmentForm lastResult={actionData?.result} />
      </UrlDialog>
    </>
  );
}

function ComplianceRow({ item }: { item: SampleComplianceItem }) {
  return (
    <li className="grid gap-3 rounded-lg border border-border p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid gap-1">
          <h3 className="font-semibold">{item.title}</h3>
          <p className="text-sm text-muted-foreground">{COMPLIANCE_CATEGORY_LABELS[item.category]}</p>
        </div>
        <div className="flex items-center gap-2">
          <SampleBadge />
          <StatusBadge status={item.status} />
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-muted-foreground">Risk level</dt>
          <dd>
            <StatusBadge status={item.riskLevel} label={`${item.riskLevel} risk`} />
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Responsible team</dt>
          <dd className="font-medium">{item.responsibleTeam}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Next review</dt>
          <dd className="font-medium">
            <time dateTime={item.nextReview}>{formatShortDate(item.nextReview)}</time>
          </dd>
        </div>
      </dl>
    </li>
  );
}

function NewAssessmentForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(newAssessmentSchema, {
    id: 'new-assessment',
    lastResult,
    defaultValue: { category: 'financial', risk_level: 'medium' },
  });
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <TextField field={fields.title} label="Title" />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField field={fields.category} label="Category" options={COMPLIANCE_CATEGORY_OPTIONS} />
        <SelectField field={fields.risk_level} label="Risk level" options={RISK_LEVEL_OPTIONS} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.responsible_team} label="Responsible team" />
        <TextField field={fields.next_review_date} label="Next review date" type="date" />
      </div>
      <TextareaField field={fields.description} label="Description" rows={3} />
      <TextareaField field={fields.requirements} label="Requirements (optional)" rows={3} />
      <DialogActions closeTo={LIST_PATH}>
        <SubmitButton label="Create Assessment" busyLabel={SIMULATED_ACTIONS.assessment.busyLabel} />
      </DialogActions>
    </Form>
  );
}
