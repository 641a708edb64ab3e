// The Documents screen (docs/product-guide.md, Documents): the account's
// documents, searched (title and extracted text), filtered by review status
// and paged by URL, with the upload dialog at ?new. An upload stores the file
// in Storage as the signed-in user (Storage's policies decide), writes its
// row, and the database queues its extraction; the runner is kicked at once.
import { parseWithZod } from '@conform-to/zod/v4';
import { Clock, FileCheck, FileText, HardDrive } from '~/components/icons';
import type { Route } from './+types/documents';
import { ListScreen } from '~/components/list-screen';
import { RecordTable, type RecordColumn } from '~/components/records/record-table';
import { StatCard, StatGrid } from '~/components/stat-card';
import { StatusBadge } from '~/components/status-badge';
import { kickJobRunner } from '~/jobs/kick.server';
import { requireUser, requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readListQuery, statusOptions } from '~/lib/list-query';
import { ACCOUNT_NOT_FOUND, refuseReadOnly, refuseSubmission } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
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
import { pageTitle } from '~/lib/page-title';

const LIST = '/documents';
const STATUS_OPTIONS = statusOptions(DOCUMENT_STATUSES);
/** The columns the list sorts by: each has an account-first index (migration 20261202800001). */
const DOCUMENT_SORTS = ['title', 'created_at'] as const;

const typeLabel = (document: DocumentRow) => DOCUMENT_TYPE_LABELS[document.type as DocumentType] ?? document.type;

const COLUMNS: RecordColumn<DocumentRow>[] = [
  { id: 'title', header: 'Title', cell: (document) => document.title, sort: { key: 'title' }, className: 'md:max-w-64' },
  { id: 'file', header: 'File', cell: (document) => document.file_name, className: 'max-w-48 truncate text-muted-foreground' },
  { id: 'type', header: 'Type', cell: typeLabel, className: 'whitespace-nowrap' },
  {
    id: 'extraction',
    header: 'Extraction',
    cell: (document) => (
      <StatusBadge status={document.extraction_status} label={EXTRACTION_LABELS[document.extraction_status as keyof typeof EXTRACTION_LABELS]} />
    ),
  },
  { id: 'status', header: 'Status', cell: (document) => <StatusBadge status={document.status} />, phone: true },
  { id: 'size', header: 'Size', cell: (document) => formatFileSize(document.file_size), numeric: true },
  { id: 'uploader', header: 'Uploaded by', cell: (document) => uploaderName(document.uploader) ?? '—', className: 'max-w-40 truncate' },
  {
    id: 'created',
    header: 'Date',
    cell: (document) => <time dateTime={document.created_at}>{formatShortDate(document.created_at)}</time>,
    sort: { key: 'created_at', first: 'desc' },
    className: 'whitespace-nowrap text-muted-foreground',
  },
];

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const query = readListQuery(url, DOCUMENT_STATUSES, DOCUMENT_SORTS);
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
      <RecordTable
        caption={TEXTS.title}
        pathname={LIST}
        query={list.query}
        rows={list.rows}
        columns={COLUMNS}
        rowKey={(document) => document.id}
        href={(document) => `/documents/${document.id}`}
        phoneLine={(document) => `${typeLabel(document)} · ${formatShortDate(document.created_at)}`}
      />
    </ListScreen>
  );
}
