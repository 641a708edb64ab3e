import { Form, Link } from 'react-router';
import { SectionHeading } from '~/components/page-header';
import { SubmitButton } from '~/components/submit-button';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import type { DocumentParty } from './document-party';
import type { DocumentStatus } from './schema';
import { RECORDS_FROM_DOCUMENT_TEXTS as TEXTS } from './texts';

/** What was made from a document: its invoice, and the account's contact with its email. */
export interface MadeFromDocument {
  invoice: { id: string; invoice_number: string | null } | null;
  contact: { id: string; name: string } | null;
  bill: { id: string; supplier_name: string; number: string | null } | null;
}

/** What the page offers: a bill for a supplier's invoice, an invoice for the account's own sale, or the question. */
export function offeredRecord(party: DocumentParty, choice: 'bill' | 'sale' | null): 'bill' | 'sale' | 'ask' {
  return choice ?? (party === 'unsure' ? 'ask' : party);
}

/**
 * Create invoice / Create contact on a document's page: plain posts to the
 * page (intent create_invoice, create_contact), offered to those who may
 * write once the document is approved; what was made is linked instead.
 * `problems`: the fields that stopped the last try, also marked under each
 * field of the review form (listed here for a final document, which has none).
 */
export function RecordsFromDocument({
  documentId,
  status,
  canWrite,
  made,
  problems,
  party,
  choice,
  supplier,
}: {
  documentId: string;
  status: DocumentStatus;
  canWrite: boolean;
  made: MadeFromDocument;
  problems: { field: string; message: string }[];
  /** Whose document it is, by its fields (document-party.ts). */
  party: DocumentParty;
  /** The person's own choice (?as=bill or ?as=sale), over the fields' answer. */
  choice: 'bill' | 'sale' | null;
  supplier: string | null;
}) {
  const page = `/documents/${documentId}`;
  const reviewed = status !== 'Pending Review';
  if (!canWrite && !made.invoice && !made.contact && !made.bill) return null;
  const offered = offeredRecord(party, choice);
  const mayCreate = canWrite && reviewed && !made.invoice && !made.bill;
  return (
    <Card>
      <CardHeader>
        <SectionHeading>{TEXTS.heading}</SectionHeading>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        {problems.length > 0 ? (
          <div role="alert" className="grid gap-1 text-destructive">
            <p>{TEXTS.problemsIntro}</p>
            <ul className="list-disc pl-5">
              {problems.map((problem) => (
                <li key={problem.field}>
                  {problem.field}: {problem.message}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {made.bill ? (
          <p>
            {TEXTS.billRecorded}
            {' · '}
            <Link to={`/bills/${made.bill.id}`} className="underline underline-offset-2">
              {TEXTS.billLink}
            </Link>
          </p>
        ) : null}
        {made.invoice ? (
          <p>
            {TEXTS.invoiceCreated(made.invoice.invoice_number ?? '')}
            {' · '}
            <Link to={`/invoices/${made.invoice.id}`} className="underline underline-offset-2">
              {TEXTS.invoiceLink(made.invoice.invoice_number ?? '')}
            </Link>
          </p>
        ) : null}
        {mayCreate && offered === 'ask' ? (
          <div className="grid gap-2">
            <p>{TEXTS.partyQuestion}</p>
            <PartyChoices page={page} />
          </div>
        ) : null}
        {mayCreate && offered === 'bill' ? (
          <Form method="post" action={page} className="grid gap-2">
            <input type="hidden" name="intent" value="create_bill" />
            <p className="text-muted-foreground">{TEXTS.billNote(supplier)}</p>
            <div className="flex flex-wrap items-center gap-3">
              <SubmitButton intent="create_bill" label={TEXTS.recordBill} busyLabel="Recording..." />
              <Link to={`${page}?as=sale`} preventScrollReset className="underline underline-offset-2">
                {TEXTS.chooseSale}
              </Link>
            </div>
          </Form>
        ) : null}
        {mayCreate && offered === 'sale' ? (
          <Form method="post" action={page} className="grid gap-2">
            <input type="hidden" name="intent" value="create_invoice" />
            {/* Chosen by the person, or the account's own name on it: either way it is the account's sale. */}
            <input type="hidden" name="own_sale" value="on" />
            <p className="text-muted-foreground">{choice === 'sale' && party !== 'sale' ? TEXTS.ownSaleNote : TEXTS.invoiceNote}</p>
            <div className="flex flex-wrap items-center gap-3">
              <SubmitButton intent="create_invoice" label={TEXTS.createInvoice} busyLabel="Creating..." />
              <Link to={`${page}?as=bill`} preventScrollReset className="underline underline-offset-2">
                {TEXTS.chooseBill}
              </Link>
            </div>
          </Form>
        ) : null}
        {made.contact ? (
          <p>
            {TEXTS.contactOnFile(made.contact.name)}
            {' · '}
            <Link to={`/clients/${made.contact.id}`} className="underline underline-offset-2">
              {TEXTS.contactLink(made.contact.name)}
            </Link>
          </p>
        ) : canWrite && reviewed ? (
          <Form method="post" action={page} className="grid gap-2">
            <input type="hidden" name="intent" value="create_contact" />
            <p className="text-muted-foreground">{TEXTS.contactNote}</p>
            <SubmitButton intent="create_contact" label={TEXTS.createContact} busyLabel="Creating..." variant="outline" />
          </Form>
        ) : null}
        {canWrite && !reviewed ? <p className="text-muted-foreground">{TEXTS.approveFirst}</p> : null}
      </CardContent>
    </Card>
  );
}

/** The two answers to "whose document is it?", as links (no JavaScript needed). */
function PartyChoices({ page }: { page: string }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Link to={`${page}?as=bill`} preventScrollReset className={buttonClasses('outline', 'sm')}>
        {TEXTS.chooseBill}
      </Link>
      <Link to={`${page}?as=sale`} preventScrollReset className={buttonClasses('outline', 'sm')}>
        {TEXTS.chooseSale}
      </Link>
    </div>
  );
}
