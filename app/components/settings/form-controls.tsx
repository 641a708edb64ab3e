// Small pieces the settings forms share: a native select wired by Conform, a
// submit button with the pending label, and dialog actions with a Cancel link.
import type * as React from 'react';
import { getSelectProps, type FieldMetadata } from '@conform-to/react';
import { Link, useNavigation } from 'react-router';
import { FormField } from '~/components/form-field';
import { Button, buttonClasses } from '~/components/ui/button';
import { NativeSelect } from '~/components/ui/input';
import type { Option } from '~/lib/settings-options';

/** True while a form with this intent is being posted, through the redirect that follows. */
export function useIntentBusy(intent: string): boolean {
  const navigation = useNavigation();
  return navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
}

export function SubmitButton({
  intent,
  label,
  busyLabel,
  variant,
}: {
  intent: string;
  label: string;
  busyLabel: string;
  variant?: 'default' | 'destructive';
}) {
  const busy = useIntentBusy(intent);
  return (
    <Button type="submit" variant={variant} disabled={busy} aria-disabled={busy || undefined}>
      {busy ? busyLabel : label}
    </Button>
  );
}

export function DialogActions({ closeTo, children }: { closeTo: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
      <Link to={closeTo} replace preventScrollReset className={buttonClasses('outline')}>
        Cancel
      </Link>
      {children}
    </div>
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any form's field of any value type
type AnyField = FieldMetadata<any, any, string[]>;

export function SelectField({
  field,
  label,
  options,
  hint,
  onChange,
}: {
  field: AnyField;
  label: string;
  options: Option[];
  hint?: string;
  onChange?: React.ChangeEventHandler<HTMLSelectElement>;
}) {
  return (
    <FormField label={label} htmlFor={field.id} errorId={field.errorId} errors={field.errors} hint={hint}>
      <NativeSelect {...getSelectProps(field)} onChange={onChange}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}
