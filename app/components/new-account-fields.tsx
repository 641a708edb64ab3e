// The fields a person fills in to make their own account, at sign-up and when
// accepting an invitation: their name (the browser may fill it in) and a new
// password (typed twice where the form asks for it), with the rule the schema checks.
import type { FieldMetadata } from '@conform-to/react';
import { TextField } from '~/components/form-controls';
import { PASSWORD_MIN_LENGTH } from '~/lib/pricing';

type Field = FieldMetadata<unknown>;

export function OwnNameFields({ firstName, lastName }: { firstName: Field; lastName: Field }) {
  return (
    <div className="grid grid-cols-2 gap-4">
      <TextField field={firstName} label="First name" autoComplete="given-name" />
      <TextField field={lastName} label="Last name" autoComplete="family-name" />
    </div>
  );
}

export function NewPasswordFields({
  password,
  confirm,
  label = 'Password',
}: {
  password: Field;
  confirm?: Field;
  label?: string;
}) {
  return (
    <>
      <TextField
        field={password}
        label={label}
        type="password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
        autoComplete="new-password"
      />
      {confirm ? <TextField field={confirm} label="Confirm password" type="password" autoComplete="new-password" /> : null}
    </>
  );
}
