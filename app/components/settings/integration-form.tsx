import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import { FormField } from '~/components/form-field';
import { Input, Textarea } from '~/components/ui/input';
import { integrationFormSchema } from '~/lib/schemas/settings-integrations';
import {
  INTEGRATION_TYPE_LABELS,
  INTEGRATION_TYPES,
  isIntegrationType,
  prefillConfig,
} from '~/lib/settings-options';
import { DialogActions, SelectField, SubmitButton } from './form-controls';

// A type alias, not an interface: Conform's field names want an index-signature-compatible shape.
export type IntegrationValues = {
  id?: string;
  name: string;
  type: string;
  config: string;
};

const TYPE_OPTIONS = INTEGRATION_TYPES.map((value) => ({ value, label: INTEGRATION_TYPE_LABELS[value] }));
const PREFILLS = new Set(INTEGRATION_TYPES.map(prefillConfig));

/**
 * Create or edit an integration. A new one's config starts from its type's
 * prefill (spec §9): with JavaScript, choosing another type swaps an untouched
 * prefill; without it, the type links reload the dialog prefilled.
 */
export function IntegrationForm({
  values,
  lastResult,
  closeTo,
}: {
  values: IntegrationValues;
  lastResult: SubmissionResult<string[]> | undefined;
  closeTo: string;
}) {
  const [form, fields] = useForm({
    id: `integration-${values.id ?? 'new'}`,
    lastResult,
    defaultValue: values,
    constraint: getZodConstraint(integrationFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: integrationFormSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const editing = Boolean(values.id);
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="save" />
      {values.id ? <input type="hidden" name="id" value={values.id} /> : null}
      <FormField label="Name" htmlFor={fields.name.id} errorId={fields.name.errorId} errors={fields.name.errors}>
        <Input {...getInputProps(fields.name, { type: 'text' })} />
      </FormField>
      <SelectField
        field={fields.type}
        label="Type"
        options={TYPE_OPTIONS}
        onChange={(event) => {
          const type = event.currentTarget.value;
          const current = (fields.config.value ?? '').trim();
          if (!editing && isIntegrationType(type) && (current === '' || PREFILLS.has(current))) {
            form.update({ name: fields.config.name, value: prefillConfig(type) });
          }
        }}
      />
      {editing ? null : (
        <p className="-mt-2 text-xs text-muted-foreground">
          Start from:{' '}
          {INTEGRATION_TYPES.map((type, index) => (
            <span key={type}>
              {index > 0 ? ' · ' : null}
              <Link to={`?new&type=${type}`} replace preventScrollReset className="underline underline-offset-2">
                {INTEGRATION_TYPE_LABELS[type]}
              </Link>
            </span>
          ))}
        </p>
      )}
      <FormField
        label="Config (JSON)"
        htmlFor={fields.config.id}
        errorId={fields.config.errorId}
        errors={fields.config.errors}
        hint={editing ? 'Secrets are shown masked; leave a masked value as it is to keep it.' : undefined}
      >
        <Textarea {...getTextareaProps(fields.config)} rows={8} className="font-mono" spellCheck={false} />
      </FormField>
      <DialogActions closeTo={closeTo}>
        <SubmitButton
          intent="save"
          label={editing ? 'Update Integration' : 'Create Integration'}
          busyLabel={editing ? 'Updating...' : 'Creating...'}
        />
      </DialogActions>
    </Form>
  );
}
