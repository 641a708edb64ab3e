import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { withRefusalToast } from '~/lib/client-toast';
import {
  ACCEPT_ATTRIBUTE,
  ACCEPTED_EXTENSIONS,
  DOCUMENT_TYPE_OPTIONS,
  documentRefusalToast,
  MAX_UPLOAD_LABEL,
  uploadDocumentSchema,
} from './schema';

/** The Upload Document dialog's form: a plain multipart post to /documents?new, so it works without JavaScript. */
export function UploadForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(uploadDocumentSchema, {
    id: 'upload-document',
    lastResult,
    defaultValue: { type: 'other' },
  });
  return (
    <Form
      method="post"
      action="/documents?new"
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
      <DialogActions closeTo="/documents">
        <SubmitButton label="Upload Document" busyLabel="Uploading..." />
      </DialogActions>
    </Form>
  );
}
