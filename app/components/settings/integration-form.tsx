import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, Link } from 'react-router';
import { DialogActions, SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { integrationFormSchema } from '~/lib/schemas/settings-integrations';
import {
  INTEGRATION_TYPE_LABELS,
  INTEGRATION_TYPES,
  isIntegrationType,
  prefillConfig,
} from '~/lib/settings-options';
import { SaveButton, SaveIntent } from '~/components/settings/save-controls';

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
 * prefill (docs/product-guide.md): with JavaScript, choosing another type swaps an untouched
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
  const [form, fields] = useSchemaForm(integrationFormSchema, {
    id: `integration-${values.id ?? 'new'}`,
    lastResult,
    defaultValue: values,
  });
  const editing = Boolean(values.id);
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <SaveIntent id={values.id} />
      <TextField field={fields.name} label="Name" />
      <SelectField
        field={fields.type}
        label="Type"
        options={TYPE_OPTIONS}
        onChange={(event) => {
          const type = event.currentTarget.value;
          const current = String(fields.config.value ?? '').trim();
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
      <TextareaField
        field={fields.config}
        label="Config (JSON)"
        hint={editing ? 'Saved secrets are never shown: leave a secret masked or blank to keep it.' : undefined}
        rows={8}
        className="font-mono"
        spellCheck={false}
      />
      <DialogActions closeTo={closeTo}>
        <SaveButton editing={editing} noun="Integration" />
      </DialogActions>
    </Form>
  );
}
