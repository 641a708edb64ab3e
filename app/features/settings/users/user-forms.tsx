import { getFormProps, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { Form } from 'react-router';
import { DialogActions, SelectField, TextField, useSchemaForm } from '~/components/form-controls';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { ROLES, roleLabel } from '~/lib/roles';
import { editUserSchema, inviteUserSchema } from './schema';
import { SubmitButton } from '~/components/submit-button';

const ROLE_OPTIONS = ROLES.map((value) => ({ value, label: roleLabel(value) }));

export type InviteValues = { email: string; role: string; first_name: string; last_name: string };

/** Invite by email with a role (member unless chosen) and optional names (docs/product-guide.md). */
export function InviteUserForm({
  values,
  lastResult,
  closeTo,
}: {
  values: InviteValues;
  lastResult: SubmissionResult<string[]> | undefined;
  closeTo: string;
}) {
  const [form, fields] = useSchemaForm(inviteUserSchema, { id: 'invite-user', lastResult, defaultValue: values });
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="invite" />
      <TextField field={fields.email} label="Email" type="email" autoComplete="off" />
      <SelectField field={fields.role} label="Role" options={ROLE_OPTIONS} />
      <NameFields firstName={fields.first_name} lastName={fields.last_name} />
      <DialogActions closeTo={closeTo}>
        <SubmitButton intent="invite" label="Send Invitation" busyLabel="Sending..." />
      </DialogActions>
    </Form>
  );
}

export type EditUserValues = { id: string; email: string; role: string; first_name: string; last_name: string };

/** Edit a member's role and names; the email is shown but locked (docs/product-guide.md). */
export function EditUserForm({
  values,
  lastResult,
  closeTo,
}: {
  values: EditUserValues;
  lastResult: SubmissionResult<string[]> | undefined;
  closeTo: string;
}) {
  const [form, fields] = useSchemaForm(editUserSchema, { id: `edit-user-${values.id}`, lastResult, defaultValue: values });
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="id" value={values.id} />
      <div className="grid gap-2">
        <Label htmlFor="edit-user-email">Email</Label>
        {/* Not a form field: the email cannot be changed here. */}
        <Input id="edit-user-email" type="email" value={values.email} readOnly aria-readonly="true" className="bg-muted" />
      </div>
      <SelectField field={fields.role} label="Role" options={ROLE_OPTIONS} />
      <NameFields firstName={fields.first_name} lastName={fields.last_name} />
      <DialogActions closeTo={closeTo}>
        <SubmitButton intent="update" label="Update User" busyLabel="Updating..." />
      </DialogActions>
    </Form>
  );
}

function NameFields({ firstName, lastName }: { firstName: FieldMetadata<unknown>; lastName: FieldMetadata<unknown> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField field={firstName} label="First name" autoComplete="off" />
      <TextField field={lastName} label="Last name" autoComplete="off" />
    </div>
  );
}
