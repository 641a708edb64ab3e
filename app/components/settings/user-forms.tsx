import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form } from 'react-router';
import { FormField } from '~/components/form-field';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { ROLES, roleLabel } from '~/lib/roles';
import { editUserSchema, inviteUserSchema } from '~/lib/schemas/settings-users';
import { DialogActions, SelectField, SubmitButton } from './form-controls';

const ROLE_OPTIONS = ROLES.map((value) => ({ value, label: roleLabel(value) }));

export type InviteValues = { email: string; role: string; first_name: string; last_name: string };

/** Invite by email with a role (client unless chosen) and optional names (spec §5, §6). */
export function InviteUserForm({
  values,
  lastResult,
  closeTo,
}: {
  values: InviteValues;
  lastResult: SubmissionResult<string[]> | undefined;
  closeTo: string;
}) {
  const [form, fields] = useForm({
    id: 'invite-user',
    lastResult,
    defaultValue: values,
    constraint: getZodConstraint(inviteUserSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inviteUserSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <Form method="post" className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="invite" />
      <FormField label="Email" htmlFor={fields.email.id} errorId={fields.email.errorId} errors={fields.email.errors}>
        <Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="off" />
      </FormField>
      <SelectField field={fields.role} label="Role" options={ROLE_OPTIONS} />
      <NameFields fields={fields} />
      <DialogActions closeTo={closeTo}>
        <SubmitButton intent="invite" label="Send Invitation" busyLabel="Sending..." />
      </DialogActions>
    </Form>
  );
}

export type EditUserValues = { id: string; email: string; role: string; first_name: string; last_name: string };

/** Edit a member's role and names; the email is shown but locked (spec §7). */
export function EditUserForm({
  values,
  lastResult,
  closeTo,
}: {
  values: EditUserValues;
  lastResult: SubmissionResult<string[]> | undefined;
  closeTo: string;
}) {
  const [form, fields] = useForm({
    id: `edit-user-${values.id}`,
    lastResult,
    defaultValue: values,
    constraint: getZodConstraint(editUserSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: editUserSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
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
      <NameFields fields={fields} />
      <DialogActions closeTo={closeTo}>
        <SubmitButton intent="update" label="Update User" busyLabel="Updating..." />
      </DialogActions>
    </Form>
  );
}

type NameFieldMeta = ReturnType<typeof useForm<{ first_name: string; last_name: string }>>[1];

function NameFields({ fields }: { fields: Pick<NameFieldMeta, 'first_name' | 'last_name'> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <FormField
        label="First name"
        htmlFor={fields.first_name.id}
        errorId={fields.first_name.errorId}
        errors={fields.first_name.errors}
      >
        <Input {...getInputProps(fields.first_name, { type: 'text' })} autoComplete="off" />
      </FormField>
      <FormField
        label="Last name"
        htmlFor={fields.last_name.id}
        errorId={fields.last_name.errorId}
        errors={fields.last_name.errors}
      >
        <Input {...getInputProps(fields.last_name, { type: 'text' })} autoComplete="off" />
      </FormField>
    </div>
  );
}
