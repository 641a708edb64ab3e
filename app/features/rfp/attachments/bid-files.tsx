// A bid's files on its page (issue 38; decision 091): each a download link (a redirect to a link signed
// for a minute) with its size, a Remove button for writers, and the upload form: a multipart post, so it
// works without JavaScript; the file's type is decided by its bytes on the server.
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { SectionHeading } from '~/components/page-header';
import { SubmitButton } from '~/components/submit-button';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { useSchemaForm } from '~/components/form-controls';
import { formatShortDate } from '~/lib/dates';
import { ACCEPT_ATTRIBUTE, MAX_UPLOAD_LABEL } from '~/features/documents/values';
import type { BidFile } from '../bid-extras.server';
import { attachSchema } from './schema';

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

export function BidFiles({ page, files, failed, canWrite, lastResult }: {
  page: string; files: BidFile[]; failed: boolean; canWrite: boolean; lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useSchemaForm(attachSchema, { id: 'attach-file', lastResult });
  return (
    <Card>
      <CardHeader>
        <SectionHeading>Documents</SectionHeading>
      </CardHeader>
      <CardContent className="grid gap-4">
        {failed ? <p className="text-sm text-destructive">Failed to fetch the documents</p> : null}
        {!failed && files.length === 0 ? <p className="text-sm text-muted-foreground">No documents attached yet.</p> : null}
        {files.length > 0 ? (
          <ul className="grid gap-2 text-sm" aria-label="Documents">
            {files.map((file) => (
              <li key={file.id} className="flex flex-wrap items-center justify-between gap-2">
                <span className="min-w-0 [overflow-wrap:anywhere]">
                  <a href={`${page}/files/${file.id}`} className="font-medium underline underline-offset-2">{file.file_name}</a>
                  <span className="text-muted-foreground"> · {size(file.file_size)} · {formatShortDate(file.created_at)}</span>
                </span>
                {canWrite ? (
                  <Form method="post" action={page}>
                    <input type="hidden" name="intent" value="remove-file" />
                    <input type="hidden" name="file_id" value={file.id} />
                    <Button type="submit" variant="ghost" size="sm">Remove<span className="sr-only"> {file.file_name}</span></Button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        ) : null}
        {canWrite ? (
          <Form method="post" action={page} encType="multipart/form-data" className="grid gap-3" {...getFormProps(form)}>
            <input type="hidden" name="intent" value="attach" />
            {form.errors?.length ? (
              <div id={form.errorId} role="alert" className="text-sm text-destructive">
                {form.errors.map((error) => <p key={error}>{error}</p>)}
              </div>
            ) : null}
            <div className="grid gap-1">
              <label htmlFor={fields.file.id} className="text-sm font-medium">File (PDF, Word, Excel, text, CSV, JPEG or PNG; {MAX_UPLOAD_LABEL} at most)</label>
              <input id={fields.file.id} name={fields.file.name} type="file" accept={ACCEPT_ATTRIBUTE} aria-describedby={fields.file.errorId} className="text-sm" />
              <div id={fields.file.errorId} className="text-sm text-destructive">
                {(fields.file.errors ?? []).map((error) => <p key={error}>{error}</p>)}
              </div>
            </div>
            <SubmitButton intent="attach" label="Attach File" busyLabel="Uploading..." className="justify-self-start" />
          </Form>
        ) : null}
      </CardContent>
    </Card>
  );
}
