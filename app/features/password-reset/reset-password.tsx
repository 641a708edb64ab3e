// /auth/reset-password: the page the reset link lands on. /auth/confirm has
// already checked the link with the auth server and signed the person in, so
// this page sets the new password on that session and goes on to the
// dashboard, still signed in. Without a session (a stale tab, a link opened
// twice) it sends them to ask for a new link.
import { isAuthRetryableFetchError } from '@supabase/supabase-js';
import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form } from 'react-router';
import { redirectWithError, redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/reset-password';
import { newPasswordSchema } from './schema';
import { RESET_TEXTS } from './texts';
import { AuthFrame } from './auth-frame';
import { useSchemaForm } from '~/components/form-controls';
import { NewPasswordFields } from '~/components/new-account-fields';
import { SubmitButton } from '~/components/submit-button';
import { readFormData } from '~/lib/forms.server';
import { refuseSubmission } from '~/lib/records.server';
import { CONFIRMATION_FAILED } from '~/lib/schemas/auth';
import { getRequestSupabase, serviceUnavailable } from '~/lib/supabase.server';
import { dataWithError } from '~/lib/toast.server';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = () => [{ title: pageTitle(RESET_TEXTS.newTitle) }];

async function requireLinkSession(context: Route.LoaderArgs['context']) {
  const { supabase } = getRequestSupabase(context);
  // Asked of the auth server, not only the token's signature: a recovery
  // session signed out since the link was opened must not set a password.
  // A rare page, so the round trip costs little.
  const { data, error } = await supabase.auth.getUser();
  if (error && isAuthRetryableFetchError(error)) throw serviceUnavailable();
  if (!data.user) throw await redirectWithError('/auth/forgot-password', CONFIRMATION_FAILED);
  return supabase;
}

export async function loader({ context }: Route.LoaderArgs) {
  await requireLinkSession(context);
  return null;
}

export async function action(args: Route.ActionArgs) {
  const supabase = await requireLinkSession(args.context);
  const hidden = { hideFields: ['password', 'confirm_password'] };
  const submission = parseWithZod(await readFormData(args.request), { schema: newPasswordSchema });
  if (submission.status !== 'success') return refuseSubmission(args, submission, hidden);
  const { error } = await supabase.auth.updateUser({ password: submission.value.password });
  if (error) {
    // The auth server's own reason (the same password again, too weak) goes under the field.
    return dataWithError(
      args,
      { result: submission.reply({ ...hidden, fieldErrors: { password: [error.message] } }) },
      { message: RESET_TEXTS.updateFailed, description: error.message },
      { status: 400 },
    );
  }
  return redirectWithSuccess('/dashboard', RESET_TEXTS.updated);
}

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const [form, fields] = useSchemaForm(newPasswordSchema, { id: 'reset-password', lastResult: actionData?.result });
  return (
    <AuthFrame title={RESET_TEXTS.newTitle} description={RESET_TEXTS.newDescription}>
      <Form method="post" className="grid gap-4" {...getFormProps(form)}>
        <NewPasswordFields password={fields.password} confirm={fields.confirm_password} />
        <SubmitButton label={RESET_TEXTS.saveButton} busyLabel={RESET_TEXTS.saving} />
      </Form>
    </AuthFrame>
  );
}
