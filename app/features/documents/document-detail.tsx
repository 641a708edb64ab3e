// A document's page (docs/product-guide.md, Documents: a document's page): its
// file (downloaded through a short-lived signed link), its review status, the
// fields extraction found beside the text they came from, a form to correct
// and confirm them, a box for the text of a document that had none (images:
// OCR runs only in a browser), delete (row and file) and its history.
import { DeleteRecordDialog } from '~/components/records/delete-record-dialog';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/document-detail';
import { SectionHeading } from '~/components/page-header';
import { FactsPanel, Truncated, type Fact } from '~/components/records/facts-panel';
import { RecordPage } from '~/components/records/record-page';
import { Timeline } from '~/components/records/timeline';
import { StatusBadge } from '~/components/status-badge';
import { SubmitButton } from '~/components/submit-button';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { kickJobRunner } from '~/jobs/kick.server';
import { formatDateTime } from '~/lib/dates';
import { readFormData } from '~/lib/forms.server';
import { recordDialog, recordNotFound, recordAction, recordWriter, requireUserWithRecord } from '~/lib/record-page.server';
import { refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { findFieldSource, type FieldSource } from './extraction/field-source';
import { FIELD_KEYS, FIELDS, type DocumentFields, type FieldKey } from './extraction/fields';
import { VIEWABLE_TYPES } from './viewable';
import { TEXT_REASONS } from './extraction/reasons';
import { loadDocument, rerunDocumentExtraction, saveReviewedFields, setDocumentStatus, submitDocumentText, type DocumentDetail } from './queries.server';
import { ExtractedFields, PasteTextForm } from './document-extraction';
import { ocrSource } from './ocr/image-types';
import { ReviewForm } from './review-form';
import { RecordsFromDocument } from './records-from-document';
import { documentParty } from './document-party';
import {
  createBillFromDocument,
  createContactFromDocument,
  createInvoiceFromDocument,
  loadAccountIdentity,
  loadBillFromDocument,
  loadDocumentContact,
  loadInvoiceFromDocument,
} from './records-from-document.server';
import { DOCUMENT_TYPE_LABELS, documentActionSchema, formatFileSize, MAX_DOCUMENT_FORM_BYTES, type DocumentStatus, type DocumentType, type Review } from './schema';
import { deleteDocument } from './store.server';
import { DOCUMENT_DETAIL_TEXTS as TEXTS, EXTRACTION_LABELS, uploaderName } from './texts';
import { pageTitle } from '~/lib/page-title';

/** The moves of review: Pending Review → Approved → Final, and an approval taken back. */
const NEXT_STATUSES: Record<DocumentStatus, { status: DocumentStatus; label: string }[]> = {
  'Pending Review': [{ status: 'Approved', label: 'Approve' }],
  Approved: [
    { status: 'Final', label: 'Mark as final' },
    { status: 'Pending Review', label: 'Back to review' },
  ],
  Final: [],
};

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData ? pageTitle(loaderData.document.title, 'Documents') : pageTitle(TEXTS.notFound) }];

export async function loader({ request, context, params, url }: Route.LoaderArgs) {
  // The records made from the document, and the client its email names, are read with it (one round trip).
  const { profile, found } = await requireUserWithRecord({ request, context, params }, TEXTS.notFound, async (supabase, id) => {
    const [document, invoice, bill, account, contact] = await Promise.all([
      loadDocument(supabase, id),
      loadInvoiceFromDocument(supabase, id),
      loadBillFromDocument(supabase, id),
      loadAccountIdentity(supabase),
      loadDocumentContact(supabase, id),
    ]);
    return document && { ...document, invoice, bill, account, contact };
  });
  const canWrite = canWriteBusiness(profile?.role);
  const { text, ...document } = found.document;
  const made = { invoice: found.invoice, bill: found.bill, contact: found.contact };
  // A supplier's invoice is a bill to pay, the account's own a sale (decision 048); ?as= is the person's choice.
  const party = documentParty(document.fields, found.account);
  const as = url.searchParams.get('as');
  const choice: 'bill' | 'sale' | null = as === 'bill' || as === 'sale' ? as : null;
  // The page shows the text's start; the file itself is one click away, and framed beside the fields.
  return {
    document,
    sources: fieldSources(document.fields, text),
    viewable: VIEWABLE_TYPES.includes(document.mime_type),
    text: text ? text.slice(0, 20_000) : null,
    textCut: (text?.length ?? 0) > 20_000,
    history: found.history,
    canWrite,
    made,
    party,
    choice,
    dialog: recordDialog(url, canWrite),
  };
}

/** The fields as the person corrected them: confirmed (confidence 1), the line items kept as found. */
function reviewedFields(previous: DocumentFields, review: Review): DocumentFields {
  const fields: DocumentFields = {};
  for (const key of FIELD_KEYS) {
    const value = review[key];
    if (value) fields[key] = { value, confidence: 1 };
  }
  if (previous.line_items) fields.line_items = previous.line_items;
  return fields;
}

export function action(args: Route.ActionArgs) {
  return recordAction(args, async () => {
    const writer = await recordWriter(args, '/documents', TEXTS.notFound);
    const { supabase, id, page } = writer;
    const submission = parseWithZod(await readFormData(args.request, MAX_DOCUMENT_FORM_BYTES), { schema: documentActionSchema });
    // The status buttons have no place for an error under them: their refusal is a toast.
    if (submission.status !== 'success') return refuseSubmission(args, submission, { toast: (errors) => errors.status?.[0] });
    const form = submission.value;
    const failed = (error: { message?: string } | null, fallback: string) =>
      dataWithError(args, { result: submission.reply() }, serverMessage(error, fallback), { status: 400 });

    switch (form.intent) {
      case 'status': {
        const { data: saved, error } = await setDocumentStatus(supabase, id, form.status);
        if (error || !saved) return failed(error, TEXTS.saveFailed);
        return redirectWithSuccess(page, TEXTS.statusUpdated);
      }
      case 'review': {
        const found = await loadDocument(supabase, id);
        if (!found) throw recordNotFound(TEXTS.notFound);
        const approve = form.approve === 'on' && found.document.status === 'Pending Review';
        const { data: saved, error } = await saveReviewedFields(supabase, id, reviewedFields(found.document.fields, form), approve);
        if (error || !saved) return failed(error, TEXTS.saveFailed);
        return redirectWithSuccess(page, approve ? TEXTS.approved : TEXTS.reviewed);
      }
      case 'text': {
        const { outcome, error } = await submitDocumentText(supabase, id, form.text);
        if (outcome === 'missing') throw recordNotFound(TEXTS.notFound);
        if (outcome !== 'queued') return failed(error, error ? TEXTS.saveFailed : TEXTS.textNotNeeded);
        kickJobRunner(args.context);
        return redirectWithSuccess(page, TEXTS.textQueued);
      }
      case 'rerun': {
        const { outcome, error } = await rerunDocumentExtraction(supabase, id);
        if (outcome === 'missing') throw recordNotFound(TEXTS.notFound);
        if (outcome !== 'queued') return failed(error, TEXTS.saveFailed);
        kickJobRunner(args.context);
        return redirectWithSuccess(page, TEXTS.rerunQueued);
      }
      case 'delete': {
        if (!(await deleteDocument(supabase, id))) return failed(null, TEXTS.deleteFailed);
        return redirectWithSuccess('/documents', TEXTS.deleted);
      }
      case 'create_invoice':
      case 'create_contact':
      case 'create_bill': {
        const found = await loadDocument(supabase, id);
        if (!found) throw recordNotFound(TEXTS.notFound);
        if (form.intent === 'create_invoice') return createInvoiceFromDocument(args, supabase, found.document, page, form.own_sale === 'on');
        if (form.intent === 'create_bill') return createBillFromDocument(args, supabase, found.document, page);
        return createContactFromDocument(args, supabase, found.document, page);
      }
    }
  });
}

export default function DocumentPage({ loaderData, actionData }: Route.ComponentProps) {
  const { document, sources, viewable, text, textCut, history, canWrite, made, party, choice, dialog } = loaderData;
  const page = `/documents/${document.id}`;
  const result = actionData && 'result' in actionData ? actionData.result : undefined;
  const intent = (result?.initialValue as { intent?: unknown } | undefined)?.intent;
  const problems = (actionData as { problems?: { field: string; message: string }[] } | undefined)?.problems ?? [];
  const status = document.status as DocumentStatus;
  return (
    <RecordPage
      back={{ to: '/documents', label: TEXTS.back }}
      title={document.title}
      status={<StatusBadge status={document.status} />}
      subtitle={DOCUMENT_TYPE_LABELS[document.type as DocumentType] ?? document.type}
      actions={
        <>
          {/* The moves of review the status allows. */}
          {canWrite
            ? NEXT_STATUSES[status].map((next) => (
                <Form key={next.status} method="post" action={page}>
                  <input type="hidden" name="intent" value="status" />
                  <input type="hidden" name="status" value={next.status} />
                  <SubmitButton intent="status" label={next.label} busyLabel="Saving..." variant={next.status === 'Pending Review' ? 'outline' : 'default'} />
                </Form>
              ))
            : null}
          <a href={`${page}/download`} className={buttonClasses('outline')} download>
            {TEXTS.download}
          </a>
          {canWrite ? (
            <Link to="?delete" preventScrollReset className={buttonClasses('ghost')}>
              Delete
            </Link>
          ) : null}
        </>
      }
      facts={<FactsPanel title="File" facts={fileFacts(document)} />}
      wide={
        // The page the fields were read from, beside them; it stays in view while the fields scroll.
        <div className={viewable ? 'grid gap-6 lg:grid-cols-2' : 'grid gap-6'}>
          {viewable ? <DocumentFrame document={document} /> : null}
          <Card className="min-w-0">
            <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
              <SectionHeading>Extracted fields</SectionHeading>
              <StatusBadge status={document.extraction_status} label={EXTRACTION_LABELS[document.extraction_status as keyof typeof EXTRACTION_LABELS]} />
            </CardHeader>
            <CardContent className="grid gap-4">
              {extractionNote(document) ? (
                <p role="status" className="text-sm">
                  {extractionNote(document)}
                </p>
              ) : null}
              {document.extraction_status === 'queued' ? (
                <p className="text-sm text-muted-foreground">The text and fields are being extracted. Reload the page in a moment.</p>
              ) : null}
              {canWrite && status !== 'Final' && (document.extraction_status !== 'queued' || intent === 'review') ? (
                <ReviewForm
                  documentId={document.id}
                  fields={document.fields}
                  sources={sources}
                  lastResult={intent === 'review' ? result : undefined}
                  canApprove={status === 'Pending Review'}
                  logo={document.mime_type === 'application/pdf' && document.extraction_status === 'done' && !document.fields.supplier_name}
                />
              ) : (
                <ExtractedFields fields={document.fields} sources={sources} />
              )}
              {document.fields.line_items ? <ExtractedFields fields={{ line_items: document.fields.line_items }} itemsOnly /> : null}
              {canWrite && (document.extraction_status === 'needs_text' || document.extraction_status === 'failed' || intent === 'text') ? (
                <PasteTextForm documentId={document.id} lastResult={intent === 'text' ? result : undefined} ocr={ocrSource(document)} />
              ) : null}
              {/* A file too complex to read is not read again: its text is pasted instead. */}
              {canWrite && status !== 'Final' && document.extraction_status === 'failed' && !document.extraction_too_complex ? (
                <Form method="post" action={page} className="flex justify-end">
                  <input type="hidden" name="intent" value="rerun" />
                  <SubmitButton intent="rerun" label={TEXTS.rerun} busyLabel="Extracting..." variant="outline" />
                </Form>
              ) : null}
            </CardContent>
          </Card>
        </div>
      }
      dialogs={
        <DeleteRecordDialog open={dialog === 'delete'} closeTo={page} title={TEXTS.deleteTitle} what={`the document "${document.title}" and its file`} />
      }
    >
      {document.extraction_status === 'done' ? (
        <RecordsFromDocument
          documentId={document.id}
          status={status}
          canWrite={canWrite}
          made={made}
          problems={problems}
          party={party}
          choice={choice}
          supplier={document.fields.supplier_name?.value.trim() || null}
        />
      ) : null}
      {text ? (
        <Card>
          <CardHeader>
            <SectionHeading>Extracted text</SectionHeading>
          </CardHeader>
          <CardContent>
            <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-words rounded-md bg-muted p-3 text-sm" tabIndex={0} aria-label="Extracted text">
              {text}
            </pre>
            {textCut ? <p className="mt-2 text-sm text-muted-foreground">The text continues in the file.</p> : null}
          </CardContent>
        </Card>
      ) : null}
      <Timeline moments={[{ label: 'Uploaded', at: document.created_at, covers: ['document_uploaded', 'document_created'] }]} entries={history.entries} failed={history.failed} />
    </RecordPage>
  );
}

/**
 * The document's file from our own origin (documents/:id/view, sandboxed): a PDF in the browser's
 * viewer, an image as itself. Without a viewer (some phones) the link opens or saves it.
 */
function DocumentFrame({ document }: { document: { id: string; title: string; mime_type: string } }) {
  const src = `/documents/${document.id}/view`;
  return (
    <Card className="min-w-0 self-start overflow-hidden lg:sticky lg:top-4" data-testid="document-frame">
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 pb-3">
        <SectionHeading>Pages</SectionHeading>
        <a href={src} target="_blank" rel="noopener" className="text-sm underline underline-offset-2">
          Open the file
        </a>
      </CardHeader>
      <CardContent>
        {document.mime_type === 'application/pdf' ? (
          <iframe src={src} title={`The pages of ${document.title}`} className="h-[70vh] min-h-96 w-full rounded-md border border-border bg-muted" />
        ) : (
          <img src={src} alt={`The page of ${document.title}`} className="h-auto w-full rounded-md border border-border" />
        )}
      </CardContent>
    </Card>
  );
}

/** Where each field came from in the text the page holds, looked for once per render on the server. */
function fieldSources(fields: DocumentFields, text: string | null | undefined): Partial<Record<FieldKey, FieldSource>> {
  const sources: Partial<Record<FieldKey, FieldSource>> = {};
  for (const key of FIELD_KEYS) {
    const source = findFieldSource(text, fields[key]?.value, FIELDS[key].shape);
    if (source) sources[key] = source;
  }
  return sources;
}

/** Why the document has no fields yet, if it has none: the job's reason, or an image's (it never reaches the job). */
function extractionNote(document: { extraction_status: string; extraction_error: string | null; mime_type: string }): string | null {
  if (document.extraction_error) return document.extraction_error;
  if (document.extraction_status === 'needs_text' && document.mime_type.startsWith('image/')) return TEXT_REASONS.image;
  return null;
}

function fileFacts(document: Omit<DocumentDetail, 'text'>): Fact[] {
  return [
    { label: 'File name', value: document.file_name },
    { label: 'Size', value: formatFileSize(document.file_size) },
    { label: 'Type', value: document.mime_type },
    { label: 'Uploaded by', value: uploaderName(document.uploader) },
    { label: 'Uploaded', value: <time dateTime={document.created_at}>{formatDateTime(document.created_at)}</time> },
    { label: 'Description', value: document.description ? <span className="whitespace-pre-line">{document.description}</span> : null },
    // The file's fingerprint, cut to the column; the whole of it on hover.
    { label: 'SHA-256', value: <Truncated className="font-mono text-xs">{document.sha256}</Truncated> },
  ];
}
