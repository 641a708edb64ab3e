import { Form, Link } from 'react-router';
import { SectionHeading } from '~/components/page-header';
import { SubmitButton } from '~/components/submit-button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import type { DocumentStatus } from './schema';
import { RECORDS_FROM_DOCUMENT_TEXTS as TEXTS } from './texts';

/** What was made from a document: its invoice, and the account's contact with its email. */
export interface MadeFromDocument {
  invoice: { id: string; invoice_number: string | null } | null;
  contact: { id: string; name: string } | null;
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
}: {
  documentId: string;
  status: DocumentStatus;
  canWrite: boolean;
  made: MadeFromDocument;
  problems: { field: string; message: string }[];
}) {
  const page = `/documents/${documentId}`;
  const reviewed = status !== 'Pending Review';
  if (!canWrite && !made.invoice && !made.contact) return null;
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
        {made.invoice ? (
          <p>
            {TEXTS.invoiceCreated(made.invoice.invoice_number ?? '')}
            {' · '}
            <Link to={`/invoices/${made.invoice.id}`} className="underline underline-offset-2">
              {TEXTS.invoiceLink(made.invoice.invoice_number ?? '')}
            </Link>
          </p>
        ) : canWrite && reviewed ? (
          <Form method="post" action={page} className="grid gap-2">
            <input type="hidden" name="intent" value="create_invoice" />
            <p className="text-muted-foreground">{TEXTS.invoiceNote}</p>
            <SubmitButton intent="create_invoice" label={TEXTS.createInvoice} busyLabel="Creating..." />
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
