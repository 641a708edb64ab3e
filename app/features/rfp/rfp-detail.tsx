// A bid's page at /rfp/:id (issue 38): its facts with days left (red under 7; a past deadline says so), the
// status and the go/no-go decision with its reasons (each a plain post), an edit and a delete dialog opened
// by URL (?edit, ?delete), and its history; its documents and the answer library's search (decision 091:
// bid-extras.server.ts). Works without JavaScript; every form is validated on the server.
import { parseWithZod } from '@conform-to/zod/v4';
import { Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/rfp-detail';
import { SectionHeading } from '~/components/page-header';
import { DeleteRecordDialog } from '~/components/records/delete-record-dialog';
import { FactsPanel, Truncated } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { Timeline } from '~/components/records/timeline';
import { StatusBadge } from '~/components/status-badge';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { formatShortDate } from '~/lib/dates';
import { centsToInput, formatMoney } from '~/lib/money';
import { pageTitle } from '~/lib/page-title';
import { recordAction, recordDialog, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { fieldErrorResult } from '~/lib/simulated-upload.server';
import { dataWithError } from '~/lib/toast.server';
import { AnswerPicker } from './answers/answer-picker';
import { BidFiles } from './attachments/bid-files';
import { readBidPost } from './attachments/form-data.server';
import { MAX_ATTACHMENT_BYTES } from './attachments/schema';
import { ATTACHMENT_TEXTS } from './attachments/texts';
import { answersQueryOf, bidExtrasAction, loadBidExtras } from './bid-extras.server';
import { todayIso } from './deadline';
import { DaysLeft } from './days-left';
import { decideRfp, deleteRfp, loadRfp, setRfpStatus, updateRfp } from './queries.server';
import { EditRfpForm, RfpDecisionForm, RfpStatusForm } from './rfp-forms';
import { RFP_DECISION_LABELS, rfpActionSchema, type RfpDecision } from './schema';
import { RFP_DETAIL_TEXTS as TEXTS } from './texts';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? pageTitle(loaderData.rfp.title, 'RFP Radar') : pageTitle(TEXTS.notFound) },
];

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const answersQuery = answersQueryOf(url);
  // The bid, its files and the answers searched for, in one round trip.
  const { profile, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, async (supabase, id) => {
    const [bid, extras] = await Promise.all([loadRfp(supabase, id), loadBidExtras(supabase, id, answersQuery)]);
    return bid ? { ...bid, ...extras } : null;
  });
  const canWrite = canWriteBusiness(profile?.role);
  return { ...found, answersQuery, canWrite, dialog: recordDialog(url, canWrite), today: todayIso() };
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const { supabase, id, page } = await recordWriter(args, '/rfp', TEXTS.notFound);
    // A file may come (multipart, up to 10 MB); the files' and answers' intents are answered by bid-extras.
    const read = await readBidPost(args.request, MAX_ATTACHMENT_BYTES);
    if (!read.ok) {
      const message = read.reason === 'too-large' ? ATTACHMENT_TEXTS.tooLarge : ATTACHMENT_TEXTS.noFile;
      return dataWithError(args, { result: fieldErrorResult('file', message) }, message, { status: read.reason === 'too-large' ? 413 : 400 });
    }
    const extra = await bidExtrasAction(args, supabase, id, page, read.formData);
    if (extra) return extra;
    const submission = parseWithZod(read.formData, { schema: rfpActionSchema });
    if (submission.status !== 'success') return refuseSubmission(args, submission);
    const form = submission.value;
    // No row back: deleted meanwhile (or never the caller's to change).
    const failed = (error: { code?: string; message?: string } | null, fallback: string) => {
      const message = error ? serverMessage(error, fallback) : TEXTS.gone;
      return dataWithError(args, { result: submission.reply({ formErrors: [message] }) }, message, { status: error ? 400 : 404 });
    };
    switch (form.intent) {
      case 'update': {
        const { data, error } = await updateRfp(supabase, id, form);
        return error || !data ? failed(error, TEXTS.saveFailed) : redirectWithSuccess(page, TEXTS.saved);
      }
      case 'status': {
        const { data, error } = await setRfpStatus(supabase, id, form.status);
        return error || !data ? failed(error, TEXTS.statusFailed) : redirectWithSuccess(page, TEXTS.statusSaved);
      }
      case 'decide': {
        const { data, error } = await decideRfp(supabase, id, form.decision, form.decision_reasons);
        return error || !data ? failed(error, TEXTS.decideFailed) : redirectWithSuccess(page, TEXTS.decided);
      }
      case 'delete': {
        const { data, error } = await deleteRfp(supabase, id);
        return error || !data ? failed(error, TEXTS.deleteFailed) : redirectWithSuccess('/rfp', TEXTS.deleted);
      }
    }
  });
}

export default function RfpPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rfp, owner, owners, history, canWrite, dialog, today, files, filesFailed, answers, answersFailed, answersQuery } = loaderData;
  const page = `/rfp/${rfp.id}`;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  const intent = (lastResult?.initialValue as { intent?: unknown } | undefined)?.intent;
  const resultOf = (name: string) => (intent === name ? lastResult : undefined);
  return (
    <RecordPage
      back={{ to: '/rfp', label: TEXTS.back }}
      title={rfp.title}
      status={<StatusBadge status={rfp.status} />}
      subtitle={rfp.company}
      actions={
        canWrite ? (
          <>
            <Link to="?edit" preventScrollReset className={buttonClasses('outline')}>Edit</Link>
            <Link to="?delete" preventScrollReset className={buttonClasses('ghost')}>Delete</Link>
          </>
        ) : null
      }
      facts={
        <>
          <FactsPanel
            facts={[
              { label: 'Company', value: rfp.company },
              { label: 'Contact email', value: <Truncated>{rfp.contact_email}</Truncated> },
              { label: 'Value', value: formatMoney(Number(rfp.value), rfp.currency) },
              { label: 'Deadline', value: formatShortDate(rfp.deadline) },
              { label: 'Days left', value: <DaysLeft deadline={rfp.deadline} today={today} /> },
              { label: 'Owner', value: owner ?? 'No owner' },
              { label: 'Decision', value: rfp.decision ? RFP_DECISION_LABELS[rfp.decision as RfpDecision] : 'Undecided' },
              { label: 'Reasons', value: rfp.decision_reasons ? <span className="whitespace-pre-line">{rfp.decision_reasons}</span> : null },
              { label: 'Proposal', value: <span className="whitespace-pre-line">{rfp.proposal}</span> },
              { label: 'Additional notes', value: rfp.additional_notes ? <span className="whitespace-pre-line">{rfp.additional_notes}</span> : null },
            ]}
          />
          {canWrite ? (
            <Card>
              <CardHeader>
                <SectionHeading>{TEXTS.pipeline}</SectionHeading>
              </CardHeader>
              <CardContent className="grid gap-6">
                <RfpStatusForm action={page} status={rfp.status} lastResult={resultOf('status')} />
                <div className="grid gap-2">
                  <h3 className="text-sm font-medium">{TEXTS.decision}</h3>
                  <RfpDecisionForm
                    action={page}
                    lastResult={resultOf('decide')}
                    defaultValue={{ decision: rfp.decision ?? 'go', decision_reasons: rfp.decision_reasons ?? '' }}
                  />
                </div>
              </CardContent>
            </Card>
          ) : null}
          <BidFiles page={page} files={files} failed={filesFailed} canWrite={canWrite} lastResult={resultOf('attach')} />
          <AnswerPicker page={page} q={answersQuery} answers={answers} failed={answersFailed} canWrite={canWrite} />
        </>
      }
      dialogs={
        <>
          <UrlDialog open={dialog === 'edit'} closeTo={page} title={TEXTS.editTitle} description={TEXTS.editDescription}>
            {dialog === 'edit' ? (
              <EditRfpForm
                action={`${page}?edit`}
                owners={owners}
                currency={rfp.currency}
                lastResult={resultOf('update')}
                defaultValue={{
                  title: rfp.title,
                  company: rfp.company,
                  contact_email: rfp.contact_email,
                  value: centsToInput(Number(rfp.value), rfp.currency),
                  deadline: rfp.deadline,
                  proposal: rfp.proposal,
                  additional_notes: rfp.additional_notes ?? '',
                  owner_id: rfp.owner_id ?? '',
                }}
              />
            ) : null}
          </UrlDialog>
          <DeleteRecordDialog open={dialog === 'delete'} closeTo={page} title={TEXTS.deleteTitle} what={`the RFP response "${rfp.title}"`} />
        </>
      }
    >
      <Timeline moments={[{ label: 'Created', at: rfp.created_at, covers: ['rfp_created'] }]} entries={history.entries} failed={history.failed} />
    </RecordPage>
  );
}
