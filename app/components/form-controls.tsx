// The controls every form of the app is made of (docs/product-guide.md): labelled
// fields wired by Conform, and a Cancel link back to the list. The fields come
// from the schema's Conform metadata, so labels, aria-invalid, aria-describedby
// and the error texts are right with or without JavaScript.
import type * as React from 'react';
import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Link } from 'react-router';
import type { z } from 'zod';
import { FormField } from '~/components/form-field';
import { buttonClasses } from '~/components/ui/button';
import { Input, NativeSelect, Textarea } from '~/components/ui/input';
import type { Option } from '~/lib/schemas/fields';
import { cn } from '~/lib/utils';

type Field = FieldMetadata<unknown>;

/** A form's starting values: a checkbox group's are a list. */
export type FormDefaults = Record<string, string | boolean | string[] | undefined>;

/** Conform's useForm with the habits of the product: the schema validates in the browser too, on blur. */
export function useSchemaForm<Schema extends z.ZodObject | z.ZodPipe | z.ZodType>(
  schema: Schema,
  options: { id: string; lastResult?: SubmissionResult<string[]>; defaultValue?: FormDefaults },
) {
  return useForm({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
}

/**
 * Cancel (a link back to the list, so it works without JavaScript) and the
 * submit button. `focusCancel`: a destructive confirmation starts on Cancel,
 * so Enter pressed by habit never deletes (autoFocus without JavaScript;
 * UrlDialog honours data-autofocus with it).
 */
export function DialogActions({
  closeTo,
  focusCancel = false,
  children,
}: {
  closeTo: string;
  focusCancel?: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
      <Link
        to={closeTo}
        replace
        preventScrollReset
        className={buttonClasses('outline')}
        autoFocus={focusCancel || undefined}
        data-autofocus={focusCancel || undefined}
      >
        Cancel
      </Link>
      {children}
    </div>
  );
}

type InputType = 'text' | 'email' | 'password' | 'date' | 'number' | 'tel' | 'file' | 'datetime-local';

export function TextField({
  field,
  label,
  type = 'text',
  hint,
  ...rest
}: {
  field: Field;
  label: string;
  type?: InputType;
  hint?: string;
} & Omit<React.ComponentProps<'input'>, 'type' | 'name' | 'id' | 'form' | 'defaultValue'>) {
  const { key, ...props } = getInputProps(field, { type, ariaDescribedBy: hint ? `${field.id}-hint` : undefined });
  return (
    <FormField label={label} htmlFor={field.id} errorId={field.errorId} errors={field.errors} hint={hint} hintId={`${field.id}-hint`}>
      <Input key={key} {...props} {...rest} />
    </FormField>
  );
}

export function TextareaField({
  field,
  label,
  hint,
  rows = 3,
  className,
  ...rest
}: {
  field: Field;
  label: string;
  hint?: string;
} & Omit<React.ComponentProps<'textarea'>, 'name' | 'id' | 'form' | 'defaultValue'>) {
  const { key, ...props } = getTextareaProps(field, { ariaDescribedBy: hint ? `${field.id}-hint` : undefined });
  return (
    <FormField label={label} htmlFor={field.id} errorId={field.errorId} errors={field.errors} hint={hint} hintId={`${field.id}-hint`}>
      <Textarea key={key} {...props} {...rest} rows={rows} className={cn('min-h-20', className)} />
    </FormField>
  );
}

export function SelectField({
  field,
  label,
  options,
  hint,
  onChange,
}: {
  field: Field;
  label: string;
  options: readonly Option[];
  hint?: string;
  onChange?: React.ChangeEventHandler<HTMLSelectElement>;
}) {
  const { key, ...props } = getSelectProps(field, { ariaDescribedBy: hint ? `${field.id}-hint` : undefined });
  return (
    <FormField label={label} htmlFor={field.id} errorId={field.errorId} errors={field.errors} hint={hint} hintId={`${field.id}-hint`}>
      <NativeSelect key={key} {...props} onChange={onChange}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}

export function CheckboxField({ field, label }: { field: Field; label: string }) {
  const { key, ...props } = getInputProps(field, { type: 'checkbox' });
  return (
    <div className="grid gap-1">
      <div className="flex items-center gap-2">
        <input key={key} {...props} className="size-4 rounded border-input accent-primary" />
        <label htmlFor={field.id} className="text-sm font-medium">
          {label}
        </label>
      </div>
      <div id={field.errorId} className="text-sm text-destructive" aria-live="polite">
        {field.errors?.map((error) => <p key={error}>{error}</p>)}
      </div>
    </div>
  );
}
