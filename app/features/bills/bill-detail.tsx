// A bill's page (decision 048): what the supplier billed, its document, Mark
// paid (a day neither in the future nor before the bill's issue date), and
// for a bill to pay an edit and a delete dialog opened by URL (?edit,
// ?delete); a paid bill is kept as it was paid. Works without JavaScript.
import { DeleteRecordDialog } from '~/components/records/delete-record-dialog';
import { parseWithZod } from '@conform-to/zod/v4';
import { Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/bill-detail';
import { SectionHeading } from '~/components/page-header';
import { FactsPanel, Truncated } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { Timeline } from '~/components/records/timeline';
import { StatusBadge } from '~/components/status-badge';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { formatShortDate } from '~/lib/dates';
import { readFormData } from '~/lib/forms.server';
import { formatMoney } from '~/lib/money';
import { recordDialog, recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { EditBillForm, PayBillForm } from './bill-forms';
import { deleteBill, loadBill, markBillPaid, updateBill } from './queries.server';
import { BILL_STATUS_LABELS, billActionSchema, type BillStatus } from './schema';
import { BILL_DETAIL_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData ? pageTitle(loaderData.bill.supplier_name, 'Bills') : pageTitle(TEXTS.notFound) }];

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  const { profile, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, loadBill);
  const canWrite = canWriteBusiness(profile?.role);
  const toPay = found.bill.status === 'to_pay';
  return { ...found, canWrite, dialog: toPay ? recordDialog(url, canWrite) : null, today: new Date().toISOString().slice(0, 10) };
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const writer = await recordWriter(args, '/bills', TEXTS.notFound);
    const { supabase, id, page } = writer;
    const submission = parseWithZod(await readFormData(args.request), { schema: billActionSchema });
    if (submission.status !== 'success') return refuseSubmission(args, submission);
    const form = submission.value;
    const failed = (error: { code?: string; message?: string } | null, fallback: string) =>
      dataWithError(args, { result: submission.reply({ formErrors: [serverMessage(error, fallback)] }) }, serverMessage(error, fallback), { status: 400 });

    switch (form.intent) {
      case 'pay': {
        const { data: paid, error } = await markBillPaid(supabase, id, form.paid_on);
        if (error?.code === 'P0002') return failed(null, TEXTS.notFound);
        // The database's refusals (in the future, before the issue date, already paid) are said under the date.
        if (error?.code === '22023') {
          return dataWithError(args, { result: submission.reply({ fieldErrors: { paid_on: [error.message] } }) }, error.message, { status: 400 });
        }
        if (error || !paid) return failed(error, TEXTS.payFailed);
        return redirectWithSuccess(page, TEXTS.paid);
      }
      case 'update': {
        const { data: saved, error } = await updateBill(supabase, id, form);
        if (error?.code === '23505') {
          return dataWithError(args, { result: submission.reply({ fieldErrors: { number: [TEXTS.exists] } }) }, TEXTS.exists, { status: 409 });
        }
        // No row: paid meanwhile (row-level security keeps a paid bill), or gone.
        if (error || !saved) return failed(error, error ? TEXTS.saveFailed : TEXTS.paidIsHistory);
        return redirectWithSuccess(page, TEXTS.saved);
      }
      case 'delete': {
        const { data: deleted, error } = await deleteBill(supabase, id);
        if (error || !deleted) return failed(error, error ? TEXTS.deleteFailed : TEXTS.paidIsHistory);
        return redirectWithSuccess('/bills', TEXTS.deleted);
      }
    }
  });
}

const amount = (cents: number | null) => (cents === null ? '' : (Number(cents) / 100).toFixed(2));

export default function BillPage({ loaderData, actionData }: Route.ComponentProps) {
  const { bill, history, document, canWrite, dialog, today } = loaderData;
  const page = `/bills/${bill.id}`;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  const intent = (lastResult?.initialValue as { intent?: unknown } | undefined)?.intent;
  const toPay = bill.status === 'to_pay';
  return (
    <RecordPage
      back={{ to: '/bills', label: TEXTS.back }}
      title={bill.supplier_name}
      status={<StatusBadge status={bill.status} label={BILL_STATUS_LABELS[bill.status as BillStatus]} />}
      subtitle={bill.number ? `Bill ${bill.number}` : 'Bill'}
      actions={
        canWrite && toPay ? (
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
          <FactsPanel
            facts={[
              { label: 'Supplier', value: bill.supplier_name },
              { label: 'Supplier email', value: bill.supplier_email ? <Truncated>{bill.supplier_email}</Truncated> : null },
              { label: 'Supplier tax ID', value: bill.supplier_tax_id },
              { label: 'Number', value: bill.number },
              { label: 'Issue date', value: bill.issue_date ? formatShortDate(bill.issue_date) : null },
              { label: 'Due date', value: bill.due_date ? formatShortDate(bill.due_date) : null },
              { label: 'Subtotal', value: bill.subtotal === null ? null : formatMoney(Number(bill.subtotal), bill.currency) },
              { label: 'Tax', value: bill.tax === null ? null : formatMoney(Number(bill.tax), bill.currency) },
              { label: 'Total', value: formatMoney(Number(bill.total), bill.currency) },
              { label: 'Paid on', value: bill.paid_on ? formatShortDate(bill.paid_on) : null },
              {
                label: 'Made from',
                value: document ? (
                  <Link to={`/documents/${document.id}`} className="underline underline-offset-2">
                    {document.title}
                  </Link>
                ) : null,
              },
              { label: 'Notes', value: bill.notes ? <span className="whitespace-pre-line">{bill.notes}</span> : null },
            ]}
          />
          {canWrite && toPay ? (
            <Card>
              <CardHeader>
                <SectionHeading>Payment</SectionHeading>
              </CardHeader>
              <CardContent>
                <PayBillForm action={page} today={today} lastResult={intent === 'pay' ? lastResult : undefined} />
              </CardContent>
            </Card>
          ) : null}
        </>
      }
      dialogs={
        <>
          <UrlDialog open={dialog === 'edit'} closeTo={page} title={TEXTS.editTitle} description={TEXTS.editDescription}>
            {dialog === 'edit' ? (
              <EditBillForm
                action={`${page}?edit`}
                lastResult={intent === 'update' ? lastResult : undefined}
                defaultValue={{
                  supplier_name: bill.supplier_name,
                  supplier_email: bill.supplier_email ?? '',
                  supplier_tax_id: bill.supplier_tax_id ?? '',
                  number: bill.number ?? '',
                  issue_date: bill.issue_date ?? '',
                  due_date: bill.due_date ?? '',
                  currency: bill.currency,
                  subtotal: amount(bill.subtotal),
                  tax: amount(bill.tax),
                  total: amount(bill.total),
                  notes: bill.notes ?? '',
                }}
              />
            ) : null}
          </UrlDialog>
          <DeleteRecordDialog open={dialog === 'delete'} closeTo={page} title={TEXTS.deleteTitle} what={`the bill from "${bill.supplier_name}"`} />
        </>
      }
    >
      <Timeline moments={[{ label: 'Recorded', at: bill.created_at, covers: ['bill_created'] }]} entries={history.entries} failed={history.failed} />
    </RecordPage>
  );
}
