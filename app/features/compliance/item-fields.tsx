import type { FieldMetadata } from '@conform-to/react';
import { SelectField, TextareaField, TextField } from '~/components/form-controls';
import { COMPLIANCE_CATEGORY_OPTIONS, FREQUENCY_OPTIONS, RISK_LEVEL_OPTIONS } from './schema';

type Field = FieldMetadata<unknown>;

/**
 * A requirement's fields, as the New Assessment dialog and the item page's
 * edit dialog lay them out. Only the review date differs: a new item asks
 * for its next review (spec §3), an existing one for the first review its
 * schedule counts from.
 */
export function ItemFields({
  fields,
  owners,
  reviewDate,
}: {
  fields: Record<string, Field>;
  owners: { value: string; label: string }[];
  reviewDate: { field: Field; label: string };
}) {
  return (
    <>
      <TextField field={fields.title} label="Title" />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField field={fields.category} label="Category" options={COMPLIANCE_CATEGORY_OPTIONS} />
        <SelectField field={fields.risk_level} label="Risk level" options={RISK_LEVEL_OPTIONS} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField field={fields.responsible_team} label="Responsible team" />
        <SelectField field={fields.owner_id} label="Owner" options={[{ value: '', label: 'No owner' }, ...owners]} />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField field={reviewDate.field} label={reviewDate.label} type="date" />
        <SelectField field={fields.frequency} label="Frequency" options={FREQUENCY_OPTIONS} />
        <TextField field={fields.interval_months} label="Months between reviews (custom)" type="number" />
      </div>
      <TextareaField field={fields.description} label="Description" rows={3} />
      <TextareaField field={fields.requirements} label="Requirements (optional)" rows={3} />
    </>
  );
}
