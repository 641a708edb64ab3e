// A draft invoice's edit page (/invoices/:id/edit). Only a draft is edited,
// and only by those who may write: anyone else, or an invoice that has left
// draft, is sent back to the invoice's page saying why; another account's
// invoice is a 404. Saving hands the whole draft to save_invoice_draft, which
// checks it again and computes the amounts; a crafted total in the post is
// not even read.
import { parseWithZod } from '@conform-to/zod/v4';
import { data } from 'react-router';
import { redirectWithError, redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/invoice-edit';
import { BackLink } from '~/components/records/back-link';
import { PageHeader } from '~/components/page-header';
import { Card, CardContent } from '~/components/ui/card';
import { centsToInput } from '~/lib/money';
import { ALTERED_FORM_MESSAGE, readFormData } from '~/lib/forms.server';
import { recordNotFound, recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { READ_ONLY_MESSAGE, refuseSubmission, refuseWrite } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { InvoiceEditForm, type InvoiceEditDefaults } from './invoice-edit-form';
import { loadInvoiceDraft, saveInvoiceDraft, type InvoiceDetail } from './queries.server';
import { editInvoiceSchema, PAST_DUE_DATE_MESSAGE } from './schema';
import { INVOICE_DETAIL_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

const NOT_DRAFT = 'Only a draft invoice can be edited';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? pageTitle(`Edit ${loaderData.invoice.invoice_number}`, 'Invoices') : pageTitle(TEXTS.notFound) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { profile, id, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, loadInvoiceDraft);
  const page = `/invoices/${id}`;
  if (!canWriteBusiness(profile?.role)) throw await redirectWithError(page, READ_ONLY_MESSAGE);
  if (found.invoice.status !== 'draft') throw await redirectWithError(page, TEXTS.notDraft);
  return { invoice: found.invoice, defaults: editDefaults(found.invoice, found.items) };
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const writer = await recordWriter(args, '/invoices', TEXTS.notFound);
    const { supabase, id, page } = writer;
    const formData = await readFormData(args.request);
    let submission;
    try {
      submission = parseWithZod(formData, { schema: editInvoiceSchema });
    } catch {
      // A list button's value that is not JSON, or names no list: no form of ours sends that.
      return dataWithError(args, { result: undefined }, ALTERED_FORM_MESSAGE, { status: 400 });
    }
    // Add, remove or move a line without JavaScript (Conform's list buttons): the form comes back changed, nothing saved.
    if (submission.status === undefined) return data({ result: submission.reply() });
    if (submission.status !== 'success') return refuseSubmission(args, submission);
    const { error } = await saveInvoiceDraft(supabase, id, submission.value);
    if (error) {
      // Another account's invoice, or none: the page's 404, whatever was posted.
      if (error.code === 'P0002') throw recordNotFound(TEXTS.notFound);
      // Sent meanwhile (in another tab): the page says why it cannot be edited.
      if (error.message === NOT_DRAFT) return redirectWithError(page, TEXTS.notDraft);
      // Past in the account's time zone (the form's own check allows for every zone): said under the field.
      if (error.message === PAST_DUE_DATE_MESSAGE) {
        return dataWithError(args, { result: submission.reply({ fieldErrors: { due_date: [error.message] } }) }, error.message, { status: 400 });
      }
      console.error(`invoice save failed: ${error.message}`);
      return refuseWrite(args, submission, error, TEXTS.saveFailed, { inForm: true });
    }
    return redirectWithSuccess(page, TEXTS.saved);
  });
}

/** The saved draft as the form's starting values: cents as decimals, rates and counts as text. */
function editDefaults(invoice: InvoiceDetail, items: { description: string; qty: number; unit_price: number }[]): InvoiceEditDefaults {
  return {
    due_date: invoice.due_date,
    notes: invoice.notes ?? '',
    tax_rate: String(Number(invoice.tax_rate)),
    discount: String(Number(invoice.discount)),
    items: items.map((item) => ({
      description: item.description,
      quantity: String(item.qty),
      unit_price: centsToInput(Number(item.unit_price), invoice.currency),
    })),
  };
}

export default function InvoiceEditPage({ loaderData, actionData }: Route.ComponentProps) {
  const { invoice, defaults } = loaderData;
  const page = `/invoices/${invoice.id}`;
  return (
    <>
      <BackLink to={page}>{`Back to ${invoice.invoice_number}`}</BackLink>
      <PageHeader
        title={`Edit ${invoice.invoice_number}`}
        description={`${invoice.client_name} · prices in ${invoice.currency}. Only a draft can be edited. Totals are computed when you save.`}
      />
      <Card>
        <CardContent className="pt-6">
          <InvoiceEditForm action={`${page}/edit`} cancelTo={page} currency={invoice.currency} lastResult={actionData?.result} defaultValue={defaults} />
        </CardContent>
      </Card>
    </>
  );
}
