// /auth/forgot-password: asks for the address and has the auth server mail a
// reset link (the project's recovery template links to /auth/confirm, which
// signs the person in and sends them to /auth/reset-password). The answer is
// the same whether or not the address has an account, so the page reveals none.
import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import type { Route } from './+types/forgot-password';
import { forgotPasswordSchema } from './schema';
import { AUTH_LINK_CLASS, RESET_TEXTS } from './texts';
import { AuthFrame } from './auth-frame';
import { TextField, useSchemaForm } from '~/components/form-controls';
import { SubmitButton } from '~/components/submit-button';
import { redirectSignedInToDashboard } from '~/lib/auth.server';
import { readFormData } from '~/lib/forms.server';
import { refuseSubmission } from '~/lib/records.server';
import { getRequestSupabase } from '~/lib/supabase.server';
import { dataWithError, dataWithInfo } from '~/lib/toast.server';
import { siteLink } from '~/lib/site-url.server';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = () => [{ title: pageTitle(RESET_TEXTS.forgotTitle) }];

export async function loader({ context }: Route.LoaderArgs) {
  await redirectSignedInToDashboard(context);
  return null;
}

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const submission = parseWithZod(await readFormData(request), { schema: forgotPasswordSchema });
  if (submission.status !== 'success') return refuseSubmission(args, submission);
  const { supabase } = getRequestSupabase(context);
  const { error } = await supabase.auth.resetPasswordForEmail(submission.value.email, {
    redirectTo: siteLink('/auth/reset-password'),
  });
  if (error) {
    // A refusal of the request itself (a rate limit, the service down), never "no such account".
    return dataWithError(
      args,
      { result: submission.reply({ formErrors: [error.message] }) },
      { message: RESET_TEXTS.sendFailed, description: error.message },
      { status: error.status && error.status >= 400 && error.status < 500 ? error.status : 503 },
    );
  }
  return dataWithInfo(args, { sent: true as const }, RESET_TEXTS.sent);
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  const [form, fields] = useSchemaForm(forgotPasswordSchema, { id: 'forgot-password', lastResult });
  return (
    <AuthFrame title={RESET_TEXTS.forgotTitle} description={RESET_TEXTS.forgotDescription}>
      {actionData && 'sent' in actionData ? (
        <div role="status" className="grid gap-2 text-center">
          <h2 className="text-lg font-semibold">{RESET_TEXTS.sent.message}</h2>
          <p className="text-sm text-muted-foreground">{RESET_TEXTS.sent.description}</p>
        </div>
      ) : (
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          {form.errors?.length ? (
            <p id={form.errorId} role="alert" className="text-sm text-destructive">
              {form.errors.join(' ')}
            </p>
          ) : null}
          <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
          <SubmitButton label={RESET_TEXTS.sendButton} busyLabel={RESET_TEXTS.sending} />
        </Form>
      )}
      <p className="mt-4 text-center text-sm">
        <Link to="/auth" className={AUTH_LINK_CLASS}>
          {RESET_TEXTS.backToSignIn}
        </Link>
      </p>
    </AuthFrame>
  );
}
