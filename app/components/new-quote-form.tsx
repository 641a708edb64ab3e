import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form } from 'react-router';
import { FormField } from '~/components/form-field';
import { SubmitButton } from '~/components/submit-button';
import { Input, NativeSelect, Textarea } from '~/components/ui/input';
import {
  DEFAULT_QUOTE_CURRENCY,
  DEFAULT_QUOTE_EXPIRY_DAYS,
  newQuoteSchema,
  QUOTE_CURRENCY_OPTIONS,
  QUOTE_EXPIRY_OPTIONS,
} from '~/lib/schemas/quotes';

/** The create-quote dialog's form (spec §5). Posts to /quotes?new, so a failure re-renders it open and filled in. */
export function NewQuoteForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: 'new-quote',
    lastResult,
    defaultValue: { quantity: '1', currency: DEFAULT_QUOTE_CURRENCY, expires_in_days: String(DEFAULT_QUOTE_EXPIRY_DAYS) },
    constraint: getZodConstraint(newQuoteSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newQuoteSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const field = (name: keyof typeof fields) => ({
    htmlFor: fields[name].id,
    errorId: fields[name].errorId,
    errors: fields[name].errors,
  });
  return (
    <Form method="post" action="/quotes?new" className="grid gap-4" {...getFormProps(form)}>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Contact name" {...field('contact_name')}>
          <Input {...getInputProps(fields.contact_name, { type: 'text' })} autoComplete="name" />
        </FormField>
        <FormField label="Contact email" {...field('contact_email')}>
          <Input {...getInputProps(fields.contact_email, { type: 'email' })} autoComplete="email" />
        </FormField>
      </div>
      <FormField label="Company" {...field('company')}>
        <Input {...getInputProps(fields.company, { type: 'text' })} autoComplete="organization" />
      </FormField>
      <FormField label="Description" {...field('description')}>
        <Textarea {...getTextareaProps(fields.description)} rows={3} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Unit price" {...field('unit_price')}>
          <Input {...getInputProps(fields.unit_price, { type: 'number' })} step="0.01" min="0" inputMode="decimal" />
        </FormField>
        <FormField label="Quantity" {...field('quantity')}>
          <Input {...getInputProps(fields.quantity, { type: 'number' })} step="1" min="1" />
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Currency" {...field('currency')}>
          <NativeSelect {...getSelectProps(fields.currency)}>
            {QUOTE_CURRENCY_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField label="Expires in" {...field('expires_in_days')}>
          <NativeSelect {...getSelectProps(fields.expires_in_days)}>
            {QUOTE_EXPIRY_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        </FormField>
      </div>
      <FormField label="Notes" {...field('notes')}>
        <Textarea {...getTextareaProps(fields.notes)} rows={2} />
      </FormField>
      <SubmitButton idle="Create Quote" busy="Creating..." />
    </Form>
  );
}
