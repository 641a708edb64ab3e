// A quote's page (README, Screens: /quotes/:id): its number, status, client,
// line items and amounts, its moments (sent, viewed, signed, declined), its
// history, and the actions its status allows: Edit, Send and Delete a draft;
// Resend and Copy client link on an open sent quote (the new link is shown on
// the page); Revise a quote that was sent, viewed, declined or expired. Auditors and
// clients read it; a client only a quote addressed to them.
import { DeleteRecordDialog } from '~/components/records/delete-record-dialog';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import { redirectWithSuccess, redirectWithToast } from 'remix-toast';
import type { Route } from './+types/quote-detail';
import { LineItemsTable } from '~/components/records/line-items-table';
import { FactsPanel, Truncated, type Fact } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { Timeline, type Moment } from '~/components/records/timeline';
import { SectionHeading } from '~/components/page-header';
import { StatusBadge } from '~/components/status-badge';
import { SubmitButton } from '~/components/submit-button';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { kickJobRunner } from '~/jobs/kick.server';
import { formatDateTime, formatShortDate } from '~/lib/dates';
import { HIDDEN_FIELDS, readFormData } from '~/lib/forms.server';
import { recordDialog, recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { deleteAndAnswer, refuseSubmission, refuseWrite } from '~/lib/records.server';
import { canWriteBusiness, isStaff } from '~/lib/roles';
import { dataWithSuccess, redirectWithCreated } from '~/lib/toast.server';
import { ClientLinkActions } from '~/features/client-links/client-link-actions';
import { CopyableLink } from '~/components/copyable-link';
import { renewClientLink, resendRecord } from '~/features/client-links/client-links.server';
import { CLIENT_LINK_TEXTS } from '~/features/client-links/texts';
import { INVOICE_TEXTS } from '~/features/invoices/texts';
import { convertQuoteToInvoice, loadQuote, reviseQuote, sendQuote, type QuoteDetail } from './quote-queries.server';
import { RecordTotals } from '~/components/records/record-totals';
import { quoteActionSchema } from './schema';
import { QUOTE_DETAIL_TEXTS as TEXTS } from './texts';
import { pageTitle } from '~/lib/page-title';

/** The statuses a quote is revised from: it was sent and is not signed (revising supersedes it). */
export const REVISABLE = ['sent', 'viewed', 'declined', 'expired'];

/** Revised already: the revision is revised instead, unless it was deleted as a draft. */
const revisable = (quote: QuoteDetail) => REVISABLE.includes(quote.status) || (quote.status === 'superseded' && !quote.superseded_by);

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? pageTitle(loaderData.quote.quote_number ?? TEXTS.draftNumber, 'Quotes') : pageTitle(TEXTS.notFound) },
];

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  // Everything alongside the users row (one round trip). The history is read
  // for anyone and shown to staff: an outsider's read of it answers nothing.
  const { profile, found: read } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, (supabase, id) =>
    loadQuote(supabase, id, { history: true }),
  );
  const staff = isStaff(profile?.role);
  const found = staff ? read : { ...read, history: { entries: [], failed: false } };
  const canWrite = canWriteBusiness(profile?.role);
  const dialog = recordDialog(url, canWrite) === 'delete' && found.quote.status === 'draft' ? ('delete' as const) : null;
  // Names this render's Resend press (the job's idempotency key): a double post sends one mail.
  return { ...found, staff, canWrite, dialog, linkOpen: isLinkOpen(found.quote), requestId: crypto.randomUUID() };
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const writer = await recordWriter(args, '/quotes', TEXTS.notFound);
    const { supabase, id, page } = writer;
    const submission = parseWithZod(await readFormData(args.request), { schema: quoteActionSchema });
    // Resend's request id is a hidden field the page fills in: any other value was not typed by a person.
    if (submission.status !== 'success') return refuseSubmission(args, submission, { hiddenFields: [...HIDDEN_FIELDS, 'request'] });

    switch (submission.value.intent) {
      case 'send': {
        const { data: email, error } = await sendQuote(supabase, id);
        if (error || !email) return refuseWrite(args, submission, error, TEXTS.sendFailed);
        // The mail goes out from the jobs runner; kick it so it need not wait for the next tick.
        kickJobRunner(args.context);
        return redirectWithSuccess(page, TEXTS.sentTo(email));
      }
      case 'revise': {
        const { data: revision, error } = await reviseQuote(supabase, id);
        if (error || !revision) return refuseWrite(args, submission, error, TEXTS.reviseFailed);
        return redirectWithSuccess(`/quotes/${revision.id}/edit`, TEXTS.revised(revision.quote_number));
      }
      case 'convert': {
        const { data: invoice, error } = await convertQuoteToInvoice(supabase, id);
        // Converted before (a second click, another tab): say so, and link to that invoice.
        if (error?.code === '23505' && error.details && error.hint) {
          return redirectWithToast(page, {
            type: 'info',
            message: TEXTS.alreadyConverted(error.hint),
            link: { href: `/invoices/${error.details}`, label: TEXTS.invoiceLink(error.hint) },
          });
        }
        if (error || !invoice) return refuseWrite(args, submission, error, INVOICE_TEXTS.createFailed);
        return redirectWithCreated(`/invoices/${invoice.id}`, INVOICE_TEXTS.created, {
          href: `/invoices/${invoice.id}`,
          label: TEXTS.invoiceLink(invoice.invoice_number ?? ''),
        });
      }
      case 'resend': {
        const { data: email, error } = await resendRecord(supabase, 'quote', id, submission.value.request);
        if (error || !email) return refuseWrite(args, submission, error, CLIENT_LINK_TEXTS.resendFailed);
        kickJobRunner(args.context);
        return redirectWithSuccess(page, CLIENT_LINK_TEXTS.resent(email));
      }
      case 'copy_link': {
        // Not a redirect: the link is shown once, in this answer, and kept in no cookie or URL.
        const { link, error } = await renewClientLink(supabase, 'quote', id);
        if (!link) return refuseWrite(args, submission, error, CLIENT_LINK_TEXTS.linkFailed);
        return dataWithSuccess(args, { clientLink: link }, CLIENT_LINK_TEXTS.linkMade, { headers: { 'Cache-Control': 'private, no-store' } });
      }
      case 'delete':
        return deleteAndAnswer(args, supabase, { table: 'quotes', id, listPath: '/quotes' }, TEXTS, submission.reply);
    }
  });
}

export default function QuotePage({ loaderData, actionData }: Route.ComponentProps) {
  const { quote, items, history, staff, canWrite, dialog, invoice, linkOpen, requestId } = loaderData;
  const clientLink = actionData && 'clientLink' in actionData ? actionData.clientLink : null;
  const page = `/quotes/${quote.id}`;
  const number = quote.quote_number ?? TEXTS.draftNumber;
  const contact = quote.contact;
  return (
    <RecordPage
      back={{ to: '/quotes', label: TEXTS.back }}
      title={number}
      status={<StatusBadge status={quote.status} />}
      subtitle={contact ? `${contact.name}${contact.company ? ` · ${contact.company}` : ''}` : undefined}
      actions={
        <>
          {canWrite ? <QuoteActions quote={quote} invoice={invoice} linkOpen={linkOpen} requestId={requestId} /> : null}
          {/* A resource route (the file), so a full request, never client navigation. */}
          <a href={`${page}/pdf`} download className={buttonClasses('outline')}>
            Download PDF
          </a>
        </>
      }
      notices={
        <>
          {clientLink ? <CopyableLink id="client-link" label={CLIENT_LINK_TEXTS.fieldLabel} note={CLIENT_LINK_TEXTS.fieldNote} link={clientLink} className="mb-6 rounded-md border border-border p-3" /> : null}
          {quote.delivery_error ? (
            <div role="alert" className="mb-6 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm text-destructive">
              {TEXTS.deliveryFailed(quote.delivery_error)}
            </div>
          ) : null}
        </>
      }
      facts={<FactsPanel facts={quoteFacts(quote, staff)} />}
      dialogs={
        <DeleteRecordDialog open={dialog === 'delete'} closeTo={page} title={TEXTS.deleteTitle} what={`the draft ${number}`} />
      }
    >
      <Card>
        <CardHeader>
          <SectionHeading id="items-heading">Line items</SectionHeading>
        </CardHeader>
        <CardContent className="grid gap-4">
          <LineItemsTable items={items} currency={quote.currency} labelledBy="items-heading" />
          <RecordTotals amounts={quote} />
        </CardContent>
      </Card>
      {staff ? <Timeline moments={quoteMoments(quote)} entries={history.entries} failed={history.failed} /> : null}
    </RecordPage>
  );
}

/** What the quote's status allows a writer: a draft is edited, sent or deleted; a sent one revised. */
function QuoteActions({
  quote,
  invoice,
  linkOpen,
  requestId,
}: {
  quote: QuoteDetail;
  invoice: { id: string; invoice_number: string | null } | null;
  linkOpen: boolean;
  requestId: string;
}) {
  const page = `/quotes/${quote.id}`;
  if (quote.status === 'signed') {
    return invoice ? (
      <Link to={`/invoices/${invoice.id}`} className={buttonClasses('outline')}>
        {TEXTS.invoiceLink(invoice.invoice_number ?? '')}
      </Link>
    ) : (
      <Form method="post" action={page}>
        <input type="hidden" name="intent" value="convert" />
        <SubmitButton intent="convert" label={TEXTS.convert} busyLabel="Converting..." />
      </Form>
    );
  }
  if (quote.status === 'draft') {
    return (
      <>
        <Link to={`${page}/edit`} className={buttonClasses('outline')}>
          Edit
        </Link>
        <Form method="post" action={page}>
          <input type="hidden" name="intent" value="send" />
          <SubmitButton intent="send" label="Send" busyLabel="Sending..." />
        </Form>
        <Link to="?delete" preventScrollReset className={buttonClasses('ghost')}>
          Delete
        </Link>
      </>
    );
  }
  if (revisable(quote)) {
    return (
      <>
        {linkOpen ? <ClientLinkActions page={page} requestId={requestId} /> : null}
        <Form method="post" action={page}>
          <input type="hidden" name="intent" value="revise" />
          <SubmitButton intent="revise" label="Revise" busyLabel="Revising..." variant="outline" />
        </Form>
      </>
    );
  }
  return null;
}

/** A sent quote the client can still open: its mail can be sent again and its link renewed (decided on the server: the clock). */
const isLinkOpen = (quote: QuoteDetail) =>
  (quote.status === 'sent' || quote.status === 'viewed') && (!quote.expires_at || Date.parse(quote.expires_at) > Date.now());

const moment = (at: string | null) => (at ? <time dateTime={at}>{formatDateTime(at)}</time> : null);

/** Who signed, as the quote keeps it. */
const signer = (quote: QuoteDetail) => (quote.signer_name ? `${quote.signer_name}${quote.signer_email ? ` (${quote.signer_email})` : ''}` : null);

/** The quote's lifecycle, from its columns; the audit rows that tell the same moment (with who) win. */
function quoteMoments(quote: QuoteDetail): Moment[] {
  const client = quote.contact?.name ? `${quote.contact.name}, client` : 'the client';
  return [
    { label: 'Created', at: quote.created_at, covers: ['quote_created'] },
    { label: 'Sent', at: quote.sent_at, covers: ['quote_sent'] },
    { label: 'Viewed', at: quote.viewed_at, actor: client, covers: ['quote_viewed'] },
    { label: 'Signed', at: quote.signed_at, actor: quote.signer_name ? `${signer(quote)}, client` : client, covers: ['quote_signed', 'quote_accepted'] },
    { label: 'Declined', at: quote.declined_at, actor: client, covers: ['quote_declined'] },
  ];
}

/**
 * The facts that have a value. Staff read the moments in the timeline; a
 * client, who has no history, reads them here.
 */
function quoteFacts(quote: QuoteDetail, staff: boolean): Fact[] {
  const contact = quote.contact;
  return [
    {
      label: 'Client',
      value: contact ? (
        <span className="grid min-w-0">
          {/* Clients and suppliers have no client pages. */}
          {staff ? (
            <Link to={`/clients/${quote.contact_id}`} className="underline-offset-2 hover:underline">
              {contact.name}
            </Link>
          ) : (
            contact.name
          )}
          {/* Cut to the column with an ellipsis; the whole address on hover and to screen readers. */}
          {contact.email ? <Truncated className="text-muted-foreground">{contact.email}</Truncated> : null}
        </span>
      ) : null,
    },
    { label: 'Currency', value: quote.currency },
    { label: 'Expires', value: quote.expires_at ? <time dateTime={quote.expires_at}>{formatShortDate(quote.expires_at)}</time> : 'No expiry' },
    ...(staff
      ? []
      : [
          { label: 'Sent', value: moment(quote.sent_at) },
          { label: 'Viewed', value: moment(quote.viewed_at) },
          { label: 'Signed', value: moment(quote.signed_at) },
          { label: 'Declined', value: moment(quote.declined_at) },
        ]),
    { label: 'Signed by', value: signer(quote) },
    { label: 'Decline reason', value: quote.decline_reason ? <span className="whitespace-pre-line">{quote.decline_reason}</span> : null },
    {
      label: 'Revision of',
      value: quote.revision_of ? (
        <Link to={`/quotes/${quote.revision_of}`} className="underline-offset-2 hover:underline">
          The quote it revises
        </Link>
      ) : null,
    },
    {
      label: 'Replaced by',
      value: quote.superseded_by ? (
        <Link to={`/quotes/${quote.superseded_by}`} className="underline-offset-2 hover:underline">
          {TEXTS.supersededBy}
        </Link>
      ) : null,
    },
    { label: 'Notes', value: quote.notes ? <span className="whitespace-pre-line">{quote.notes}</span> : null },
  ];
}
