import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { CheckboxField, SelectField, TextField, useSchemaForm, type FormDefaults } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { DOCUMENT_KIND_LABELS, DOCUMENT_KINDS, FIELD_KEYS, FIELDS, type DocumentFields, type FieldKey } from './extraction/fields';
import type { FieldSource } from './extraction/field-source';
import { FieldSourceNote } from './field-source-note';
import { ReadTextButton } from './ocr/read-text-button';
import { reviewSchema } from './schema';

const KIND_OPTIONS = [{ value: '', label: 'Not known' }, ...DOCUMENT_KINDS.map((value) => ({ value, label: DOCUMENT_KIND_LABELS[value] }))];

/** How sure the extractor was, or that a person confirmed it. */
function confidenceNote(fields: DocumentFields, key: FieldKey): string | undefined {
  const found = fields[key];
  if (!found) return FIELDS[key].hint ? `Not found · ${FIELDS[key].hint}` : 'Not found';
  if (found.confidence >= 1) return 'Confirmed by a person';
  // Below 0.8 the extractor is wrong often enough that the person should look (decision 056).
  return `Found with ${Math.round(found.confidence * 100)}% confidence${found.confidence < 0.8 ? ' · please check' : ''}`;
}

/**
 * The name read from the logo put in Supplier, and focus moved there for the
 * person to check it; false (left out) when they typed a supplier meanwhile.
 */
function fillSupplier(inputId: string, fill: () => void): boolean {
  const input = document.getElementById(inputId);
  if (input instanceof HTMLInputElement && input.value.trim() !== '') return false;
  fill();
  requestAnimationFrame(() => document.getElementById(inputId)?.focus());
  return true;
}

/**
 * The extracted fields in a form a person corrects and confirms: a plain post
 * to the document's page (intent review), validated there; ticking "Approve"
 * also moves the document to Approved.
 */
export function ReviewForm({
  documentId,
  fields,
  sources = {},
  lastResult,
  canApprove,
  logo = false,
}: {
  documentId: string;
  fields: DocumentFields;
  /** Where each value was read in the text, shown under its field. */
  sources?: Partial<Record<FieldKey, FieldSource>>;
  lastResult?: SubmissionResult<string[]>;
  canApprove: boolean;
  /** A PDF whose text names no supplier: its logo may (decision 102). */
  logo?: boolean;
}) {
  const defaultValue: FormDefaults = Object.fromEntries(FIELD_KEYS.map((key) => [key, fields[key]?.value ?? '']));
  const [form, inputs] = useSchemaForm(reviewSchema, { id: `review-${documentId}`, lastResult, defaultValue });
  return (
    <Form method="post" action={`/documents/${documentId}`} className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="review" />
      {/* One column: the form sits beside the document's pages. */}
      <div className="grid gap-4">
        {FIELD_KEYS.map((key) =>
          key === 'kind' ? (
            <SelectField key={key} field={inputs.kind} label={FIELDS.kind.label} options={KIND_OPTIONS} hint={confidenceNote(fields, key)} />
          ) : (
            <div key={key} className="grid min-w-0 gap-1">
              <TextField
                field={inputs[key]}
                label={FIELDS[key].label}
                type={FIELDS[key].shape === 'email' ? 'email' : 'text'}
                hint={confidenceNote(fields, key)}
              />
              <FieldSourceNote source={sources[key]} />
              {key === 'supplier_name' && logo ? (
                <ReadTextButton
                  fileUrl={`/documents/${documentId}/image`}
                  source="logo"
                  onText={(name) => fillSupplier(inputs.supplier_name.id, () => form.update({ name: inputs.supplier_name.name, value: name }))}
                  keptText={(name) => `The logo reads “${name}”: Supplier was left as you typed it.`}
                />
              ) : null}
            </div>
          ),
        )}
      </div>
      {canApprove ? <CheckboxField field={inputs.approve} label="Approve the document with these fields" /> : null}
      <div className="flex justify-end">
        <SubmitButton label="Save fields" busyLabel="Saving..." intent="review" />
      </div>
    </Form>
  );
}
