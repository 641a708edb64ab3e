import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Clock, FileCheck, FileText, HardDrive, Upload } from 'lucide-react';
import { Form, Link, useSearchParams } from 'react-router';
import type { Route } from './+types/documents';
import { PreviewBanner, SampleBadge } from '~/components/preview-banner';
import { PageHeader, SectionHeading } from '~/components/page-header';
import {
  DialogActions,
  SelectField,
  TextareaField,
  TextField,
  useSchemaForm,
} from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { DOCUMENT_SUMMARY, SAMPLE_DOCUMENTS, type SampleDocument } from '~/lib/samples/documents';
import { formatShortDate } from '~/lib/dates';
import {
  ACCEPT_ATTRIBUTE,
  ACCEPTED_EXTENSIONS,
  DOCUMENT_TYPE_LABELS,
  DOCUMENT_TYPE_OPTIONS,
  formatFileSize,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_LABEL,
  NO_FILE_MESSAGE,
  documentRefusalToast,
  TOO_LARGE_MESSAGE,
  uploadDocumentSchema,
} from '~/lib/schemas/documents';
import { SIMULATED_ACTIONS } from '~/lib/simulated';
import { fieldErrorResult, readUploadFormData } from '~/lib/simulated-upload.server';
import { simulatedCreate, type FormRead } from '~/lib/simulated.server';
import { withRefusalToast } from '~/lib/client-toast';
import { BRAND_NAME } from '~/lib/site';

const LIST_PATH = '/documents';

export const meta: Route.MetaFunction = () => [{ title: `Documents — ${BRAND_NAME}` }];

async function readUpload(request: Request): Promise<FormRead> {
  const read = await readUploadFormData(request, MAX_UPLOAD_BYTES);
  if (read.ok) return { formData: read.formData };
  if (read.reason === 'too-large') return { rejected: fieldErrorResult('file', TOO_LARGE_MESSAGE), status: 413 };
  return { rejected: fieldErrorResult('file', NO_FILE_MESSAGE), status: 400 };
}

export async function action(args: Route.ActionArgs) {
  return simulatedCreate(args, {
    action: 'document',
    schema: uploadDocumentSchema,
    listPath: LIST_PATH,
    readForm: readUpload,
    hideFields: ['file'],
    invalidToast: documentRefusalToast,
  });
}

export default function Documents({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  return (
    <>
      <PreviewBanner />
      <PageHeader
        title="Documents"
        description="Upload documents and extract their data without templates."
        actions={
          <Link to="?new" preventScrollReset className={buttonClasses()}>
            <Upload className="size-4" aria-hidden="true" />
            Upload Document
          </Link>
        }
      />
      <StatGrid label="Document summary">
        <StatCard label="Total Documents" value={DOCUMENT_SUMMARY.total.toLocaleString('en-US')} note={DOCUMENT_SUMMARY.totalNote} icon={FileText} />
        <StatCard label="Processed" value={DOCUMENT_SUMMARY.processed.toLocaleString('en-US')} note={DOCUMENT_SUMMARY.processedNote} icon={FileCheck} />
        <StatCard label="Pending Review" value={DOCUMENT_SUMMARY.pendingReview} note={DOCUMENT_SUMMARY.pendingReviewNote} icon={Clock} />
        <StatCard label="Storage Used" value={DOCUMENT_SUMMARY.storageUsed} note={DOCUMENT_SUMMARY.storageNote} icon={HardDrive} />
      </StatGrid>
      <Card>
        <CardHeader>
          <SectionHeading>Recent Documents</SectionHeading>
          <p className="text-sm text-muted-foreground">Sample documents of this demonstration screen.</p>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-4">
            {SAMPLE_DOCUMENTS.map((document) => (
              <DocumentRow key={document.id} document={document} />
            ))}
          </ul>
        </CardContent>
      </Card>
      <UrlDialog
        open={searchParams.has('new')}
        closeTo={LIST_PATH}
        title="Upload Document"
        description={`Accepted types: ${ACCEPTED_EXTENSIONS.join(', ')}. Up to ${MAX_UPLOAD_LABEL}.`}
      >
        <UploadForm lastResult={actionData?.result} />
      </UrlDialog>
    </>
  );
}

function DocumentRow({ document }: { document: SampleDocument }) {
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-border p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <FileText className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
        <div className="grid min-w-0 gap-1">
          <h3 className="break-all font-medium">{document.name}</h3>
          <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
            <div className="flex gap-1">
              <dt>Type:</dt>
              <dd>{DOCUMENT_TYPE_LABELS[document.type]}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Size:</dt>
              <dd>{formatFileSize(document.size)}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Uploaded by:</dt>
              <dd>{document.uploadedBy}</dd>
            </div>
            <div className="flex gap-1">
              <dt>Date:</dt>
              <dd>
                <time dateTime={document.uploadedAt}>{formatShortDate(document.uploadedAt)}</time>
              </dd>
            </div>
          </dl>
        </div>
      </div>
      <div className="flex items-center gap-2 self-start sm:self-center">
        <SampleBadge />
        <StatusBadge status={document.status} />
      </div>
    </li>
  );
}

function UploadForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(uploadDocumentSchema, {
    id: 'upload-document',
    lastResult,
    defaultValue: { type: 'other' },
  });
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="grid gap-4"
      {...withRefusalToast(getFormProps(form), uploadDocumentSchema, documentRefusalToast)}
    >
      <TextField
        field={fields.file}
        label="File"
        type="file"
        accept={ACCEPT_ATTRIBUTE}
        hint={`${ACCEPTED_EXTENSIONS.join(', ')}; up to ${MAX_UPLOAD_LABEL}.`}
        className="h-auto py-1.5"
      />
      <TextField field={fields.title} label="Title" />
      <SelectField field={fields.type} label="Document type" options={DOCUMENT_TYPE_OPTIONS} />
      <TextareaField field={fields.description} label="Description (optional)" rows={3} />
      <DialogActions closeTo={LIST_PATH}>
        <SubmitButton label="Upload Document" busyLabel={SIMULATED_ACTIONS.document.busyLabel} />
      </DialogActions>
    </Form>
  );
}
