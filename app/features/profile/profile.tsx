// /profile: the signed-in person's own name, password and email address,
// whatever their role (behind the avatar menu's Profile item). Three forms on
// one page, told apart by `intent`; each works without JavaScript.
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form } from 'react-router';
import { redirectWithInfo, redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/profile';
import { checkCurrentPassword, saveOwnName } from './queries.server';
import { profileEmailSchema, profileNameSchema, profilePasswordSchema, type ProfileIntent } from './schema';
import { PROFILE_TEXTS } from './texts';
import { TextField, useSchemaForm } from '~/components/form-controls';
import { NewPasswordFields } from '~/components/new-account-fields';
import { SubmitButton } from '~/components/submit-button';
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card';
import { requireUser, requireUserWith } from '~/lib/auth.server';
import { ALTERED_FORM_MESSAGE, readFormData } from '~/lib/forms.server';
import { refuseSubmission } from '~/lib/records.server';
import { dataWithError } from '~/lib/toast.server';
import { siteLink } from '~/lib/site-url.server';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = () => [{ title: pageTitle(PROFILE_TEXTS.title) }];

export async function loader({ request, context }: Route.LoaderArgs) {
  // The session's claims do not carry a pending address change: this page alone
  // asks the auth server, alongside the users row.
  const [{ authUser, profile }, { data: current }] = await requireUserWith(request, context, (supabase) => supabase.auth.getUser());
  return {
    firstName: profile?.first_name ?? '',
    lastName: profile?.last_name ?? '',
    email: authUser.email ?? profile?.email ?? '',
    // The address waiting for its confirmation links, if a change was asked for.
    pendingEmail: current.user?.new_email ?? null,
  };
}

const SCHEMAS = { name: profileNameSchema, password: profilePasswordSchema, email: profileEmailSchema } as const;

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const { supabase, authUser } = await requireUser(request, context);
  const formData = await readFormData(request);
  const intent = formData.get('intent');
  if (intent !== 'name' && intent !== 'password' && intent !== 'email') {
    return dataWithError(args, { result: undefined }, ALTERED_FORM_MESSAGE, { status: 400 });
  }
  const hidden = intent === 'password' ? { hideFields: ['current_password', 'password', 'confirm_password'] } : {};
  const submission = parseWithZod(formData, { schema: SCHEMAS[intent] });
  if (submission.status !== 'success') return refuseSubmission(args, submission, hidden);
  const refuse = (message: string, fieldErrors: Record<string, string[]>, status = 400) =>
    dataWithError(
      args,
      { result: submission.reply({ ...hidden, fieldErrors }) },
      { message, description: Object.values(fieldErrors).flat()[0] },
      { status },
    );

  if (submission.value.intent === 'name') {
    const saved = await saveOwnName(supabase, authUser.id, submission.value);
    if (!saved) return refuse(PROFILE_TEXTS.nameFailed, { first_name: [PROFILE_TEXTS.nameFailed] });
    return redirectWithSuccess('/profile', PROFILE_TEXTS.nameSaved);
  }

  if (submission.value.intent === 'password') {
    const wrong = await checkCurrentPassword(request, supabase, authUser.email ?? '', submission.value.current_password);
    if (wrong) return refuse(PROFILE_TEXTS.passwordFailed, { current_password: [wrong] });
    const { error } = await supabase.auth.updateUser({ password: submission.value.password });
    if (error) return refuse(PROFILE_TEXTS.passwordFailed, { password: [error.message] });
    return redirectWithSuccess('/profile', PROFILE_TEXTS.passwordSaved);
  }

  const { error } = await supabase.auth.updateUser(
    { email: submission.value.email },
    { emailRedirectTo: siteLink('/profile') },
  );
  if (error) return refuse(PROFILE_TEXTS.emailFailed, { email: [error.message] });
  return redirectWithInfo('/profile', PROFILE_TEXTS.emailSent);
}

type LastResult = SubmissionResult<string[]> | undefined;

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  // Each answer carries the intent it was posted with: it goes back to that form only.
  const resultFor = (intent: ProfileIntent): LastResult =>
    actionData?.result?.initialValue?.intent === intent ? actionData.result : undefined;
  return (
    <div className="mx-auto grid max-w-2xl gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-bold tracking-tight">{PROFILE_TEXTS.title}</h1>
        <p className="text-sm text-muted-foreground">{PROFILE_TEXTS.description}</p>
      </div>
      <NameCard firstName={loaderData.firstName} lastName={loaderData.lastName} lastResult={resultFor('name')} />
      <PasswordCard lastResult={resultFor('password')} />
      <EmailCard email={loaderData.email} pendingEmail={loaderData.pendingEmail} lastResult={resultFor('email')} />
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <Card aria-labelledby={id}>
      <CardHeader>
        <CardTitle>
          <span id={id}>{title}</span>
        </CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

function NameCard({ firstName, lastName, lastResult }: { firstName: string; lastName: string; lastResult: LastResult }) {
  const [form, fields] = useSchemaForm(profileNameSchema, {
    id: 'profile-name',
    lastResult,
    defaultValue: { first_name: firstName, last_name: lastName },
  });
  return (
    <Section id="profile-name-heading" title={PROFILE_TEXTS.nameHeading}>
      <Form method="post" className="grid gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="name" />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField field={fields.first_name} label="First name" autoComplete="given-name" />
          <TextField field={fields.last_name} label="Last name" autoComplete="family-name" />
        </div>
        <div>
          <SubmitButton label={PROFILE_TEXTS.saveName} busyLabel={PROFILE_TEXTS.saving} intent="name" />
        </div>
      </Form>
    </Section>
  );
}

function PasswordCard({ lastResult }: { lastResult: LastResult }) {
  const [form, fields] = useSchemaForm(profilePasswordSchema, { id: 'profile-password', lastResult });
  return (
    <Section id="profile-password-heading" title={PROFILE_TEXTS.passwordHeading}>
      <Form method="post" className="grid gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="password" />
        <TextField field={fields.current_password} label="Current password" type="password" autoComplete="current-password" />
        <NewPasswordFields password={fields.password} confirm={fields.confirm_password} label="New password" />
        <p className="text-xs text-muted-foreground">{PROFILE_TEXTS.passwordHint}</p>
        <div>
          <SubmitButton label={PROFILE_TEXTS.savePassword} busyLabel={PROFILE_TEXTS.saving} intent="password" />
        </div>
      </Form>
    </Section>
  );
}

function EmailCard({ email, pendingEmail, lastResult }: { email: string; pendingEmail: string | null; lastResult: LastResult }) {
  const [form, fields] = useSchemaForm(profileEmailSchema, { id: 'profile-email', lastResult });
  return (
    <Section id="profile-email-heading" title={PROFILE_TEXTS.emailHeading}>
      <p className="mb-4 text-sm">
        <span className="text-muted-foreground">Current: </span>
        <span className="font-medium break-all">{email}</span>
      </p>
      {pendingEmail ? (
        <p role="status" className="mb-4 rounded-md bg-muted p-3 text-sm">
          {PROFILE_TEXTS.emailPending(pendingEmail)}
        </p>
      ) : null}
      <Form method="post" className="grid gap-4" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="email" />
        <TextField field={fields.email} label="New email" type="email" autoComplete="email" hint={PROFILE_TEXTS.emailHint} />
        <div>
          <SubmitButton label={PROFILE_TEXTS.saveEmail} busyLabel={PROFILE_TEXTS.saving} intent="email" />
        </div>
      </Form>
    </Section>
  );
}
