import { getFormProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form } from 'react-router';
import { DialogActions, SelectField, TextareaField, TextField } from '~/components/form-controls';
import { INTEGRATION_FIELDS, integrationFormSchema, integrationSaveInput, type ConfigField } from './schema';
import {
  INTEGRATION_TYPE_LABELS,
  INTEGRATION_TYPES,
  isIntegrationType,
  prefillConfig,
  type IntegrationType,
} from '~/features/settings/settings-options';
import { SaveButton, SaveIntent } from '~/components/settings/save-controls';

// A type alias, not an interface: Conform's field names want an index-signature-compatible shape.
export type IntegrationValues = {
  id?: string;
  name: string;
  type: string;
  /** The JSON editor's text: the config with every secret blank. */
  config: string;
  /** The typed fields' values per type (never a secret's). */
  typed: Partial<Record<IntegrationType, Record<string, string>>>;
  /** Which secrets hold a saved value ({"api_key": true}). */
  secretsSet: Record<string, boolean>;
};

const TYPE_OPTIONS = INTEGRATION_TYPES.map((value) => ({ value, label: INTEGRATION_TYPE_LABELS[value] }));
const PREFILLS = new Set(INTEGRATION_TYPES.map(prefillConfig));

const INPUT_TYPES = { text: 'text', port: 'number', email: 'email', url: 'text' } as const;

/**
 * Create or edit an integration: the fields of its type (a password input
 * for each secret, never prefilled), or, as an advanced option, its config
 * as JSON. Which fields show (the chosen type's, or the JSON editor) is
 * decided by CSS from the type select and the editor choice
 * (`[data-integration-form]` in app.css), so it works without JavaScript;
 * the server reads only the chosen type's fields.
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
  // Conform's useForm itself (not useSchemaForm): the typed fields are nested objects, one per type.
  const [form, fields] = useForm({
    id: `integration-${values.id ?? 'new'}`,
    lastResult,
    defaultValue: { name: values.name, type: values.type, editor: 'fields', config: values.config, ...values.typed },
    constraint: getZodConstraint(integrationSaveInput),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: integrationFormSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const editing = Boolean(values.id);
  const editor = fields.editor.value ?? 'fields';
  return (
    <Form method="post" className="grid gap-4" data-integration-form="" {...getFormProps(form)}>
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
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Settings</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {(['fields', 'json'] as const).map((choice) => (
            <label key={choice} className="flex items-center gap-2">
              <input
                type="radio"
                name={fields.editor.name}
                value={choice}
                defaultChecked={editor === choice}
                className="size-4 accent-primary"
              />
              {choice === 'fields' ? 'Fields' : 'JSON (advanced)'}
            </label>
          ))}
        </div>
      </fieldset>
      {INTEGRATION_TYPES.map((type) => (
        <div key={type} data-config-group={type} className="grid gap-4">
          {INTEGRATION_FIELDS[type].map((configField) => (
            <ConfigInput
              key={configField.key}
              type={type}
              configField={configField}
              field={(fields[type].getFieldset() as Record<string, FieldMetadata<unknown>>)[configField.key]!}
              saved={editing && values.type === type && values.secretsSet[configField.key] === true}
            />
          ))}
        </div>
      ))}
      <div data-config-group="json" className="grid">
        <TextareaField
          field={fields.config}
          label="Config (JSON)"
          hint="Secrets are never shown: a blank secret keeps the saved one; a secret key left out is removed."
          rows={8}
          className="font-mono"
          spellCheck={false}
        />
      </div>
      <DialogActions closeTo={closeTo}>
        <SaveButton editing={editing} noun="Integration" />
      </DialogActions>
    </Form>
  );
}

function ConfigInput({
  type,
  configField,
  field,
  saved,
}: {
  type: IntegrationType;
  configField: ConfigField;
  field: FieldMetadata<unknown>;
  saved: boolean;
}) {
  if (configField.secret) {
    return (
      <TextField
        field={field}
        label={configField.label}
        type="password"
        // Write-only: the saved value never comes back to the browser, so the input starts empty.
        hint={saved ? 'Saved. Leave blank to keep it, or type a new one.' : undefined}
        autoComplete="new-password"
        data-config-type={type}
      />
    );
  }
  return (
    <TextField
      field={field}
      label={configField.label}
      type={INPUT_TYPES[configField.kind]}
      inputMode={configField.kind === 'url' ? 'url' : configField.kind === 'port' ? 'numeric' : undefined}
      autoComplete="off"
      data-config-type={type}
    />
  );
}
