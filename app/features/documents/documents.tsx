// The Documents screen (docs/product-guide.md, Documents): the account's
// documents, searched (title and extracted text), filtered by review status
// and paged by URL, with the upload dialog at ?new. An upload stores the file
// in Storage as the signed-in user (Storage's policies decide), writes its
// row, and the database queues its extraction; the runner is kicked at once.
import { parseWithZod } from '@conform-to/zod/v4';
import { Clock, FileCheck, FileText, HardDrive } from '~/components/icons';
import { Link } from 'react-router';
import type { Route } from './+types/documents';
import { ListScreen } from '~/components/list-screen';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { kickJobRunner } from '~/jobs/kick.server';
import { requireUser, requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readListQuery, statusOptions } from '~/lib/list-query';
import { ACCOUNT_NOT_FOUND, refuseReadOnly, refuseSubmission } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { BRAND_NAME } from '~/lib/site';
import { fieldErrorResult, readUploadFormData } from '~/lib/simulated-upload.server';
import { dataWithError, redirectWithCreated } from '~/lib/toast.server';
import { loadDocuments, type DocumentRow } from './queries.server';
import {
  DOCUMENT_STATUSES,
  DOCUMENT_TYPE_LABELS,
  documentRefusalToast,
  formatFileSize,
  MAX_DOCUMENT_BYTES,
  NO_FILE_MESSAGE,
  TOO_LARGE_MESSAGE,
  uploadDocumentSchema,
  type DocumentType,
} from './schema';
import { storeDocument } from './store.server';
import { DOCUMENT_LIST_TEXTS as TEXTS, documentUploadedToast, EXTRACTION_LABELS, uploaderName } from './texts';
import { UploadForm } from './upload-form';

const LIST = '/documents';
const STATUS_OPTIONS = statusOptions(DOCUMENT_STATUSES);

export const meta: Route.MetaFunction = () => [{ title: `${TEXTS.title} — ${BRAND_NAME}` }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, DOCUMENT_STATUSES);
  const [{ profile }, list] = await requireUserWith(request, context, (supabase) => loadDocuments(supabase, query));
  return { canWrite: canWriteBusiness(profile?.role), ...list };
}

export async function action(args: Route.ActionArgs) {
  const { supabase, profile } = await requireUser(args.request, args.context);
  const refused = refuseReadOnly(args, profile);
  if (refused) return refused;
  const read = await readUploadFormData(args.request, MAX_DOCUMENT_BYTES);
  if (!read.ok) {
    const tooLarge = read.reason === 'too-large';
    return dataWithError(args, { result: fieldErrorResult('file', tooLarge ? TOO_LARGE_MESSAGE : NO_FILE_MESSAGE) }, tooLarge ? TOO_LARGE_MESSAGE : NO_FILE_MESSAGE, {
      status: tooLarge ? 413 : 400,
    });
  }
  const submission = parseWithZod(read.formData, { schema: uploadDocumentSchema });
  if (submission.status !== 'success') {
    return refuseSubmission(args, submission, { toast: documentRefusalToast, hideFields: ['file'] });
  }
  if (!profile?.account_id) {
    return dataWithError(args, { result: submission.reply({ hideFields: ['file'] }) }, ACCOUNT_NOT_FOUND, { status: 403 });
  }
  const { file, title, type, description } = submission.value;
  const stored = await storeDocument(supabase, {
    accountId: profile.account_id,
    title,
    type,
    description: description ?? null,
    fileName: file.name,
    bytes: new Uint8Array(await file.arrayBuffer()),
  });
  if (!stored.ok) {
    if (stored.field === 'file') {
      return dataWithError(args, { result: submission.reply({ fieldErrors: { file: [stored.message] }, hideFields: ['file'] }) }, stored.message, {
        status: 400,
      });
    }
    return dataWithError(args, { result: submission.reply({ hideFields: ['file'] }) }, stored.message, { status: 500 });
  }
  kickJobRunner(args.context);
  const toast = documentUploadedToast(stored);
  return redirectWithCreated(LIST, toast.message, toast.link);
}

export default function Documents({ loaderData, actionData }: Route.ComponentProps) {
  const { summary, list, canWrite } = loaderData;
  return (
    <ListScreen
      pathname={LIST}
      texts={TEXTS}
      list={list}
      canWrite={canWrite}
      statuses={STATUS_OPTIONS}
      summary={
        <StatGrid label="Document summary">
          <StatCard label="Total Documents" value={summary.total.toLocaleString('en-US')} note="All documents of your account" icon={FileText} />
          <StatCard label="Processed" value={summary.processed.toLocaleString('en-US')} note="Text and fields extracted" icon={FileCheck} />
          <StatCard label="Pending Review" value={summary.pendingReview.toLocaleString('en-US')} note="Waiting for a person to check" icon={Clock} />
          <StatCard label="Storage Used" value={formatFileSize(summary.storageBytes)} note="Files of your account" icon={HardDrive} />
        </StatGrid>
      }
      form={<UploadForm lastResult={actionData?.result} />}
    >
      {list.rows.map((document) => (
        <DocumentItem key={document.id} document={document} />
      ))}
    </ListScreen>
  );
}

function DocumentItem({ document }: { document: DocumentRow }) {
  const uploader = uploaderName(document.uploader);
  return (
    <li className="grid gap-2 py-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 items-start gap-3">
          <FileText className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-medium">
              <Link to={`/documents/${document.id}`} className="break-words underline-offset-2 hover:underline">
                {document.title}
              </Link>
            </p>
            <p className="break-all text-sm text-muted-foreground">{document.file_name}</p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={document.extraction_status} label={EXTRACTION_LABELS[document.extraction_status as keyof typeof EXTRACTION_LABELS]} />
          <StatusBadge status={document.status} />
        </div>
      </div>
      <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
        <div className="flex gap-1">
          <dt>Type:</dt>
          <dd>{DOCUMENT_TYPE_LABELS[document.type as DocumentType] ?? document.type}</dd>
        </div>
        <div className="flex gap-1">
          <dt>Size:</dt>
          <dd>{formatFileSize(document.file_size)}</dd>
        </div>
        <div className="flex gap-1">
          <dt>Uploaded by:</dt>
          <dd>{uploader ?? '—'}</dd>
        </div>
        <div className="flex gap-1">
          <dt>Date:</dt>
          <dd>
            <time dateTime={document.created_at}>{formatShortDate(document.created_at)}</time>
          </dd>
        </div>
      </dl>
    </li>
  );
}
