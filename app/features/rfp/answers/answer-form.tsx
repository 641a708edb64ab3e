// An answer's form (issue 38; decision 091): title, answer and tags, new or edited; a plain post validated
// on the server again (works without JavaScript).
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { TextareaField, TextField, useSchemaForm, type FormDefaults } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { answerFieldsSchema } from './schema';
import { ANSWER_TEXTS as TEXTS } from './texts';

export function AnswerForm({ id, answerId, defaultValue, lastResult }: {
  id: string; answerId?: string; defaultValue?: FormDefaults; lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useSchemaForm(answerFieldsSchema, { id, lastResult, defaultValue });
  const intent = answerId ? 'update' : 'create';
  return (
    <Form method="post" className="grid max-w-2xl gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={intent} />
      {answerId ? <input type="hidden" name="id" value={answerId} /> : null}
      {form.errors?.length ? (
        <div id={form.errorId} role="alert" className="text-sm text-destructive">
          {form.errors.map((error) => <p key={error}>{error}</p>)}
        </div>
      ) : null}
      <TextField field={fields.title} label="Title" maxLength={200} />
      <TextareaField field={fields.body} label="Answer" rows={5} maxLength={10000} />
      <TextField field={fields.tags} label="Tags (optional)" hint="Separated by commas, e.g. security, insurance" />
      <SubmitButton intent={intent} label={answerId ? TEXTS.save : TEXTS.create} busyLabel="Saving..." className="justify-self-start" />
    </Form>
  );
}
