import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { TextareaField, useSchemaForm } from '~/components/form-controls';
import { FactList } from '~/components/records/facts-panel';
import { SubmitButton } from '~/components/submit-button';
import type { FieldSource } from './extraction/field-source';
import { DOCUMENT_KIND_LABELS, FIELD_KEYS, FIELDS, type DocumentFields, type DocumentKind, type FieldKey } from './extraction/fields';
import { FieldSourceNote } from './field-source-note';
import { ReadTextButton, type OcrSource } from './ocr/read-text-button';
import { pastedTextSchema } from './schema';

/** The fields found, read-only (for auditors, a final document, or before extraction is done), and the line items. */
export function ExtractedFields({
  fields,
  sources = {},
  itemsOnly = false,
}: {
  fields: DocumentFields;
  /** Where each value was read in the text, shown under it. */
  sources?: Partial<Record<FieldKey, FieldSource>>;
  itemsOnly?: boolean;
}) {
  const items = fields.line_items?.value ?? [];
  return (
    <>
      {itemsOnly ? null : (
        <FactList
          facts={FIELD_KEYS.filter((key) => fields[key]).map((key) => ({
            label: FIELDS[key].label,
            value: (
              <span className="grid gap-0.5">
                <span>
                  {`${key === 'kind' ? DOCUMENT_KIND_LABELS[fields[key]!.value as DocumentKind] ?? fields[key]!.value : fields[key]!.value}${
                    fields[key]!.confidence < 1 ? ` (${Math.round(fields[key]!.confidence * 100)}%)` : ''
                  }`}
                </span>
                <FieldSourceNote source={sources[key]} />
              </span>
            ),
          }))}
        />
      )}
      {items.length > 0 ? (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="mb-2 text-left font-medium">Line items</caption>
            <thead>
              <tr className="border-b text-left text-muted-foreground">
                <th scope="col" className="py-1 pr-2 font-normal">Description</th>
                <th scope="col" className="py-1 pr-2 text-right font-normal">Quantity</th>
                <th scope="col" className="py-1 pr-2 text-right font-normal">Unit price</th>
                <th scope="col" className="py-1 text-right font-normal">Amount</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item, index) => (
                <tr key={index} className="border-b last:border-0">
                  <td className="py-1 pr-2">{item.description}</td>
                  <td className="py-1 pr-2 text-right tabular-nums">{item.quantity ?? '—'}</td>
                  <td className="py-1 pr-2 text-right tabular-nums">{item.unit_price ?? '—'}</td>
                  <td className="py-1 text-right tabular-nums">{item.amount ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

/**
 * The text of a document extraction could not read (an image, a scan), pasted
 * by a person; extraction runs on it. For an image or a scanned PDF (`ocr`),
 * with JavaScript on, the text can first be read from it in the browser (OCR)
 * and checked here.
 */
export function PasteTextForm({ documentId, lastResult, ocr = null }: { documentId: string; lastResult?: SubmissionResult<string[]>; ocr?: OcrSource | null }) {
  const [form, fields] = useSchemaForm(pastedTextSchema, { id: `text-${documentId}`, lastResult });
  return (
    <Form method="post" action={`/documents/${documentId}`} className="grid gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="text" />
      {ocr ? <ReadTextButton fileUrl={`/documents/${documentId}/image`} source={ocr} onText={(text) => form.update({ name: fields.text.name, value: text })} /> : null}
      <TextareaField field={fields.text} label="Text of the document" rows={8} hint="Paste or type the document's text; its fields are then extracted from it." />
      <div className="flex justify-end">
        <SubmitButton intent="text" label="Extract fields" busyLabel="Extracting..." />
      </div>
    </Form>
  );
}
