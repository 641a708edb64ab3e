// A lead's page (docs/product-guide.md, Leads: a lead's page): its fields, its
// status, converting it to a client (and a quote for it), edit and delete
// dialogs opened by URL (?edit, ?delete), and its history.
import { DeleteRecordDialog } from '~/components/records/delete-record-dialog';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, redirect } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/lead-detail';
import { clientCreatedToast } from '~/features/clients/texts';
import { FactsPanel, type Fact } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { Timeline } from '~/components/records/timeline';
import { SectionHeading } from '~/components/page-header';
import { StatusBadge } from '~/components/status-badge';
import { SubmitButton } from '~/components/submit-button';
import { Badge } from '~/components/ui/badge';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { readFormData } from '~/lib/forms.server';
import { recordDialog, recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { deleteAndAnswer, refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError, redirectWithCreated } from '~/lib/toast.server';
import { LeadForm } from './lead-form';
import { LeadStatusForm } from './lead-status-form';
import { convertLead, loadLead, setLeadStatus, updateLead, type LeadDetail } from './queries.server';
import { LEAD_INTEREST_OPTIONS, LEAD_SOURCE_OPTIONS, leadActionSchema } from './schema';
import { LEAD_DETAIL_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

const INTEREST_LABELS = new Map(LEAD_INTEREST_OPTIONS.map((option) => [option.value, option.label]));
const SOURCE_LABELS = new Map<string, string>(LEAD_SOURCE_OPTIONS.map((option) => [option.value, option.label]));

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData ? pageTitle(loaderData.lead.name, 'Leads') : pageTitle(TEXTS.notFound) }];

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const { profile, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, loadLead);
  const canWrite = canWriteBusiness(profile?.role);
  return { ...found, canWrite, dialog: recordDialog(url, canWrite) };
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const writer = await recordWriter(args, '/leads', TEXTS.notFound);
    const { supabase, id, page } = writer;
    const submission = parseWithZod(await readFormData(args.request), { schema: leadActionSchema });
    // The status control has no place for an error under it: its refusal is a toast.
    if (submission.status !== 'success') {
      return refuseSubmission(args, submission, { toast: (errors) => errors.status?.[0] ?? errors.returnTo?.[0] });
    }
    const form = submission.value;
    const failed = (error: { message?: string } | null, fallback: string, status = 400) =>
      dataWithError(args, { result: submission.reply() }, serverMessage(error, fallback), { status });

    switch (form.intent) {
      case 'update': {
        const { data: saved, error } = await updateLead(supabase, id, form);
        if (error || !saved) return failed(error, TEXTS.saveFailed);
        return redirectWithSuccess(page, TEXTS.updated);
      }
      case 'status': {
        const { data: saved, error } = await setLeadStatus(supabase, id, form.status);
        if (error || !saved) return failed(error, TEXTS.saveFailed);
        return redirectWithSuccess(form.returnTo ?? page, TEXTS.statusUpdated);
      }
      case 'delete':
        return deleteAndAnswer(args, supabase, { table: 'leads', id, listPath: '/leads' }, TEXTS, submission.reply);
      case 'convert':
      case 'convert-quote': {
        const { data: client, error } = await convertLead(supabase, id);
        if (error || !client) return failed(error, TEXTS.convertFailed);
        // A quote for it: the new-quote dialog, the client already chosen.
        if (form.intent === 'convert-quote') return redirect(`/quotes?new&client=${client.id}`);
        const created = clientCreatedToast(client);
        return redirectWithCreated(page, created.message, created.link);
      }
    }
  });
}

export default function LeadPage({ loaderData, actionData }: Route.ComponentProps) {
  const { lead, client, history, canWrite, dialog } = loaderData;
  const page = `/leads/${lead.id}`;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  return (
    <RecordPage
      back={{ to: '/leads', label: TEXTS.back }}
      title={lead.name}
      status={<StatusBadge status={lead.status} />}
      subtitle={lead.company}
      actions={
        canWrite ? (
          <>
            <Link to="?edit" preventScrollReset className={buttonClasses('outline')}>
              Edit
            </Link>
            <Link to="?delete" preventScrollReset className={buttonClasses('ghost')}>
              Delete
            </Link>
          </>
        ) : null
      }
      facts={
        <>
          <FactsPanel facts={leadFacts(lead)}>
            {canWrite ? (
              // The status select carries its own label.
              <div className="border-t border-border pt-4">
                <LeadStatusForm lead={lead} />
              </div>
            ) : null}
          </FactsPanel>
          <ConvertCard leadId={lead.id} client={client} canWrite={canWrite} />
        </>
      }
      dialogs={
        <>
          <UrlDialog open={dialog === 'edit'} closeTo={page} title={TEXTS.editTitle} description={TEXTS.editDescription}>
            {dialog === 'edit' ? (
              <LeadForm
                id="edit-lead"
                action={`${page}?edit`}
                intent="update"
                lastResult={lastResult}
                defaultValue={{
                  name: lead.name,
                  email: lead.email,
                  company: lead.company,
                  phone_whatsapp: lead.phone_whatsapp ?? '',
                  role: lead.role ?? '',
                  source: lead.source,
                  interest: lead.interest,
                  notes: lead.notes ?? '',
                }}
                submitLabel="Save Changes"
                busyLabel="Saving..."
              />
            ) : null}
          </UrlDialog>
          <DeleteRecordDialog open={dialog === 'delete'} closeTo={page} title={TEXTS.deleteTitle} what={`the lead "${lead.name}"`} />
        </>
      }
    >
      <Timeline moments={[{ label: 'Created', at: lead.created_at, covers: ['lead_created'] }]} entries={history.entries} failed={history.failed} />
    </RecordPage>
  );
}

function leadFacts(lead: LeadDetail): Fact[] {
  return [
    { label: 'Email', value: <a href={`mailto:${lead.email}`} className="underline-offset-2 hover:underline">{lead.email}</a> },
    { label: 'Phone/WhatsApp', value: lead.phone_whatsapp },
    { label: 'Company', value: lead.company },
    { label: 'Job role', value: lead.role },
    { label: 'Source', value: SOURCE_LABELS.get(lead.source) ?? lead.source },
    {
      label: 'Interests',
      value:
        lead.interest.length > 0 ? (
          <span className="flex flex-wrap gap-1">
            {lead.interest.map((key) => (
              <Badge key={key} variant="outline">
                {INTEREST_LABELS.get(key) ?? key}
              </Badge>
            ))}
          </span>
        ) : null,
    },
    { label: 'Notes', value: lead.notes ? <span className="whitespace-pre-line">{lead.notes}</span> : null },
  ];
}

/** Converting the lead: to a client, or to a client and straight on to a quote for it. */
function ConvertCard({ leadId, client, canWrite }: { leadId: string; client: { id: string; name: string } | null; canWrite: boolean }) {
  if (!client && !canWrite) return null;
  return (
    <Card>
      <CardHeader>
        <SectionHeading>Client</SectionHeading>
      </CardHeader>
      <CardContent className="grid gap-3">
        {client ? (
          <>
            <p className="text-sm">
              Converted to{' '}
              <Link to={`/clients/${client.id}`} className="font-medium underline underline-offset-2">
                {client.name}
              </Link>
            </p>
            {canWrite ? (
              <Link to={`/quotes?new&client=${client.id}`} className={buttonClasses('outline')}>
                New quote for {client.name}
              </Link>
            ) : null}
          </>
        ) : (
          <>
            <p className="text-sm text-muted-foreground">Not yet a client.</p>
            <Form method="post" action={`/leads/${leadId}`}>
              <input type="hidden" name="intent" value="convert" />
              <SubmitButton intent="convert" label="Convert to client" busyLabel="Converting..." className="w-full" />
            </Form>
            <Form method="post" action={`/leads/${leadId}`}>
              <input type="hidden" name="intent" value="convert-quote" />
              <SubmitButton
                intent="convert-quote"
                label="Convert and create quote"
                busyLabel="Converting..."
                variant="outline"
                className="w-full"
              />
            </Form>
          </>
        )}
      </CardContent>
    </Card>
  );
}
