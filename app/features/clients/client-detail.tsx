// A client's page (docs/product-guide.md, Clients: a client's page): its
// fields, revenue and last contact, its quotes, a new quote for it, edit and
// delete dialogs opened by URL (?edit, ?delete), and its history. A client
// with quotes is kept by the database; its delete dialog says why.
import { DeleteRecordDialog } from '~/components/records/delete-record-dialog';
import { quoteHref } from '~/features/quotes/quote-href';
import { parseWithZod } from '@conform-to/zod/v4';
import { Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/client-detail';
import { DialogActions } from '~/components/form-controls';
import { FactsPanel, type Fact } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { Timeline } from '~/components/records/timeline';
import { SectionHeading } from '~/components/page-header';
import { StatusBadge } from '~/components/status-badge';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { formatDateTime, formatShortDate } from '~/lib/dates';
import { readFormData } from '~/lib/forms.server';
import { formatMoney } from '~/lib/money';
import { countryName } from '~/lib/seller';
import { recordDialog, recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { ClientForm } from './client-form';
import { deleteClient, loadClient, REFERENCED, updateClient, type ClientDetail, type ClientQuotesPage } from './queries.server';
import { formatRevenue } from './revenue';
import { clientActionSchema } from './schema';
import { CLIENT_DETAIL_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData ? pageTitle(loaderData.client.name, 'Clients') : pageTitle(TEXTS.notFound) }];

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const { profile, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, loadClient);
  const canWrite = canWriteBusiness(profile?.role);
  return { ...found, canWrite, dialog: recordDialog(url, canWrite) };
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const writer = await recordWriter(args, '/clients', TEXTS.notFound);
    const { supabase, id, page } = writer;
    const submission = parseWithZod(await readFormData(args.request), { schema: clientActionSchema });
    if (submission.status !== 'success') return refuseSubmission(args, submission);
    const form = submission.value;

    if (form.intent === 'update') {
      const { data: saved, error } = await updateClient(supabase, id, form);
      if (error || !saved) {
        return dataWithError(args, { result: submission.reply() }, serverMessage(error, TEXTS.saveFailed), { status: 400 });
      }
      return redirectWithSuccess(page, TEXTS.updated);
    }
    const { data: deleted, error } = await deleteClient(supabase, id);
    if (error?.code === REFERENCED) {
      return dataWithError(args, { result: submission.reply(), refused: TEXTS.hasQuotes }, TEXTS.hasQuotes, { status: 409 });
    }
    if (error || !deleted) {
      return dataWithError(args, { result: submission.reply() }, serverMessage(error, TEXTS.deleteFailed), { status: 400 });
    }
    return redirectWithSuccess('/clients', TEXTS.deleted);
  });
}

export default function ClientPage({ loaderData, actionData }: Route.ComponentProps) {
  const { client, quotes, figures, history, canWrite, dialog } = loaderData;
  const page = `/clients/${client.id}`;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  // The page knows when quotes name the client; the database is what refuses.
  const deleteRefused = (actionData !== undefined && 'refused' in actionData) || quotes.total > 0;
  return (
    <RecordPage
      back={{ to: '/clients', label: TEXTS.back }}
      title={client.name}
      status={<StatusBadge status={client.status} />}
      subtitle={[client.company, client.role].filter(Boolean).join(' · ') || undefined}
      actions={
        canWrite ? (
          <>
            <Link to={`/quotes?new&client=${client.id}`} className={buttonClasses()}>
              New quote
            </Link>
            <Link to="?edit" preventScrollReset className={buttonClasses('outline')}>
              Edit
            </Link>
            <Link to="?delete" preventScrollReset className={buttonClasses('ghost')}>
              Delete
            </Link>
          </>
        ) : null
      }
      facts={<FactsPanel facts={clientFacts(client, formatRevenue(figures.revenue), figures.lastContactAt)} />}
      dialogs={
        <>
          <UrlDialog open={dialog === 'edit'} closeTo={page} title={TEXTS.editTitle} description={TEXTS.editDescription}>
            {dialog === 'edit' ? (
              <ClientForm
                id="edit-client"
                action={`${page}?edit`}
                edit
                lastResult={lastResult}
                defaultValue={{
                  name: client.name,
                  email: client.email,
                  company: client.company ?? '',
                  phone: client.phone ?? '',
                  role: client.role ?? '',
                  status: client.status,
                  address: client.address ?? '',
                  country: client.country ?? '',
                  notes: client.notes ?? '',
                }}
                submitLabel="Save Changes"
                busyLabel="Saving..."
              />
            ) : null}
          </UrlDialog>
          {deleteRefused ? (
            <UrlDialog open={dialog === 'delete'} closeTo={page} title={TEXTS.deleteTitle} description={TEXTS.hasQuotes}>
              <DialogActions closeTo={page} focusCancel>
                {null}
              </DialogActions>
            </UrlDialog>
          ) : (
            <DeleteRecordDialog open={dialog === 'delete'} closeTo={page} title={TEXTS.deleteTitle} what={`the client "${client.name}"`} />
          )}
        </>
      }
    >
      <ClientQuotes quotes={quotes} />
      <Timeline moments={[{ label: 'Added', at: client.created_at, covers: ['contact_created'] }]} entries={history.entries} failed={history.failed} />
    </RecordPage>
  );
}

function clientFacts(client: ClientDetail, revenue: string, lastContactAt: string | null): Fact[] {
  return [
    { label: 'Email', value: <a href={`mailto:${client.email}`} className="underline-offset-2 hover:underline">{client.email}</a> },
    { label: 'Phone', value: client.phone },
    { label: 'Company', value: client.company },
    { label: 'Role', value: client.role },
    { label: 'Address', value: client.address ? <span className="whitespace-pre-line">{client.address}</span> : null },
    { label: 'Country', value: client.country ? countryName(client.country) : null },
    { label: 'Revenue', value: revenue },
    { label: 'Last contact', value: lastContactAt ? <time dateTime={lastContactAt}>{formatDateTime(lastContactAt)}</time> : null },
    { label: 'Notes', value: client.notes ? <span className="whitespace-pre-line">{client.notes}</span> : null },
  ];
}

function ClientQuotes({ quotes }: { quotes: ClientQuotesPage }) {
  return (
    <Card className="content-start">
      <CardHeader>
        <SectionHeading id="client-quotes">Quotes</SectionHeading>
      </CardHeader>
      <CardContent>
        {quotes.failed ? (
          <p className="text-sm text-muted-foreground">Failed to fetch quotes</p>
        ) : quotes.rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">No quotes yet.</p>
        ) : (
          <ul aria-labelledby="client-quotes" className="grid divide-y divide-border">
            {quotes.rows.map((quote) => (
              <li key={quote.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <div className="grid">
                  <Link to={quoteHref(quote)} className="font-medium underline-offset-2 hover:underline">
                    {quote.quote_number ?? 'Draft Quote'}
                  </Link>
                  <span className="text-xs text-muted-foreground">{formatShortDate(quote.created_at)}</span>
                </div>
                <div className="flex items-center gap-2">
                  <span>{formatMoney(Number(quote.total), quote.currency)}</span>
                  <StatusBadge status={quote.status} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
