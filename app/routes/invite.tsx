import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useNavigation } from 'react-router';
import { redirectWithError, redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/invite';
import { NewPasswordFields, OwnNameFields } from '~/components/new-account-fields';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card';
import { readFormData } from '~/lib/forms.server';
import { callFunction } from '~/lib/functions.server';
import { homeFor } from '~/lib/navigation';
import { isRole, roleLabel } from '~/lib/roles';
import { roleTone } from '~/lib/tones';
import { acceptInvitationSchema, invitationRefusalToast } from '~/lib/schemas/auth';
import { withRefusalToast } from '~/lib/client-toast';
import { plainFormPage } from '~/lib/page-handle';
import { getRequestSupabase } from '~/lib/supabase.server';
import { dataWithError } from '~/lib/toast.server';
import { refuseSubmission } from '~/lib/records.server';
import { pageTitle } from '~/lib/page-title';

const ACCEPTED_SIGN_IN = 'Your account has been created successfully. Please sign in.';
const INVALID = { message: 'Invalid Invitation', description: 'This invitation is invalid or has expired.' };
/** Tokens are 32 random bytes, hex encoded; anything else is not worth a database round trip. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32,128}$/;

interface OpenInvitation {
  email: string;
  role: string;
  expires_at: string;
  account_name: string;
}

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Accept Invitation') }];

export const handle = plainFormPage;

export async function loader({ params, context }: Route.LoaderArgs) {
  if (!TOKEN_PATTERN.test(params.token)) throw await redirectWithError('/auth', INVALID);
  const { supabase } = getRequestSupabase(context);
  const { data, error } = await supabase
    .rpc('get_open_invitation', { p_token: params.token })
    .maybeSingle<OpenInvitation>();
  if (error) {
    console.error(`invitation load failed: ${error.message}`);
    throw await redirectWithError('/auth', { message: 'Error', description: 'Failed to load invitation' });
  }
  if (!data) throw await redirectWithError('/auth', INVALID);
  return { invitation: data };
}

export async function action(args: Route.ActionArgs) {
  const { request, params, context } = args;
  const submission = parseWithZod(await readFormData(request), { schema: acceptInvitationSchema });
  const hidden = { hideFields: ['password', 'confirm_password'] };
  if (submission.status !== 'success') {
    return refuseSubmission(args, submission, {
      ...hidden,
      toast: invitationRefusalToast,
    });
  }
  const { supabase } = getRequestSupabase(context);
  const { password, first_name, last_name } = submission.value;
  const result = await callFunction<{ user: { id: string; email: string }; role: string }>(supabase, 'accept-invitation', {
    token: params.token,
    password,
    first_name: first_name ?? '',
    last_name: last_name ?? '',
  });
  if (!result.ok) {
    return dataWithError(
      args,
      { result: submission.reply(hidden) },
      { message: 'Error', description: result.message ?? 'Failed to create account' },
      { status: 400 },
    );
  }
  // The password was just chosen: sign the new user in with it, so they land
  // in the workspace they were invited to instead of on a second form.
  const { user, role } = result.data;
  const { error } = await supabase.auth.signInWithPassword({ email: user.email, password });
  if (error) {
    console.error(`invitation: sign-in after acceptance failed: ${error.message}`);
    return redirectWithSuccess('/auth', { message: 'Account Created', description: ACCEPTED_SIGN_IN });
  }
  return redirectWithSuccess(homeFor(role), {
    message: 'Account Created',
    description: 'Your account has been created successfully. Welcome!',
  });
}

export default function Invite({ loaderData, actionData }: Route.ComponentProps) {
  const { invitation } = loaderData;
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    constraint: getZodConstraint(acceptInvitationSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: acceptInvitationSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const expires = new Date(invitation.expires_at).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
  const role = isRole(invitation.role) ? invitation.role : 'client';

  return (
    <main className="flex min-h-screen items-center justify-center bg-muted px-4 py-12">
      <Card className="w-full max-w-md">
        <CardHeader>
          <div>
            <Badge variant={roleTone(role)}>{roleLabel(role)}</Badge>
          </div>
          <CardTitle className="mt-2">Join {invitation.account_name}</CardTitle>
          <CardDescription>Create your account to accept the invitation.</CardDescription>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted-foreground">Email</dt>
            <dd className="font-medium break-all">{invitation.email}</dd>
            <dt className="text-muted-foreground">Role</dt>
            <dd className="font-medium">{roleLabel(role)}</dd>
            <dt className="text-muted-foreground">Expires</dt>
            <dd className="font-medium">
              <time dateTime={invitation.expires_at}>{expires}</time>
            </dd>
          </dl>
        </CardHeader>
        <CardContent>
          <Form method="post" className="grid gap-4" {...withRefusalToast(getFormProps(form), acceptInvitationSchema, invitationRefusalToast)}>
            <OwnNameFields firstName={fields.first_name} lastName={fields.last_name} />
            <NewPasswordFields password={fields.password} confirm={fields.confirm_password} />
            <Button type="submit" disabled={busy} data-pending-label="Creating Account...">
              {busy ? 'Creating Account...' : 'Create Account'}
            </Button>
          </Form>
          <p className="mt-4 text-center text-sm">
            <Link to="/auth" className="text-primary underline-offset-4 hover:underline">
              Already have an account? Sign In
            </Link>
          </p>
        </CardContent>
      </Card>
    </main>
  );
}
