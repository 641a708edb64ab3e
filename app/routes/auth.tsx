import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { data, Form, Link, redirect, redirectDocument, useNavigation } from 'react-router';
import { redirectWithError } from 'remix-toast';
import type { Route } from './+types/auth';
import { TextField } from '~/components/form-controls';
import { FormField } from '~/components/form-field';
import { NewPasswordFields, OwnNameFields } from '~/components/new-account-fields';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card';
import { Input } from '~/components/ui/input';
import { redirectSignedInToDashboard, safeRedirectPath } from '~/lib/auth.server';
import { ALTERED_FORM_MESSAGE, HIDDEN_FIELDS, isAlteredForm, readFormData } from '~/lib/forms.server';
import { refuseSubmission } from '~/lib/records.server';
import { authFormSchema, CHECK_YOUR_EMAIL, signInSchema, signUpSchema } from '~/lib/schemas/auth';
import { clearFailedSignIns, recordFailedSignIn, signInWaitSeconds, tooManyAttempts } from '~/lib/sign-in-throttle.server';
import { BRAND_NAME, TAGLINE } from '~/lib/site';
import { getRequestSupabase, hasSessionCookie } from '~/lib/supabase.server';
import { dataWithError, dataWithInfo } from '~/lib/toast.server';
import { plainFormPage } from '~/lib/page-handle';
import { cn } from '~/lib/utils';
import { FormAlert } from '~/components/form-alert';
import { AUTH_LINK_CLASS, RESET_TEXTS } from '~/features/password-reset/texts';
import { siteLink } from '~/lib/site-url.server';

type Tab = 'signin' | 'signup';

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.tab === 'signup' ? 'Sign Up' : 'Sign In'} — ${BRAND_NAME}` },
];

export const handle = plainFormPage;

export async function loader({ url, context }: Route.LoaderArgs) {
  await redirectSignedInToDashboard(context);
  const tab: Tab = url.searchParams.get('tab') === 'signup' ? 'signup' : 'signin';
  return { tab, redirectTo: safeRedirectPath(url.searchParams.get('redirectTo'), '') };
}

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const submission = parseWithZod(await readFormData(request), { schema: authFormSchema });
  if (submission.status !== 'success') {
    const hiddenFields = [...HIDDEN_FIELDS, 'redirectTo'];
    // A signed-in visitor (signing out) would be sent on to the dashboard by
    // the loader, the refusal unseen: they get an error page instead.
    if (hasSessionCookie(request) && isAlteredForm(submission, hiddenFields)) {
      throw data({ error: ALTERED_FORM_MESSAGE }, { status: 400 });
    }
    return refuseSubmission(args, submission, { hideFields: ['password'], hiddenFields });
  }
  const { supabase } = getRequestSupabase(context);
  const form = submission.value;

  if (form.intent === 'signout') {
    const { error } = await supabase.auth.signOut();
    if (error) return redirectWithError('/dashboard', { message: 'Sign out failed', description: error.message });
    // A whole page load: the sign-in page runs without the framework, and
    // nothing of the signed-out session stays in the browser's memory.
    return redirectDocument('/auth');
  }

  if (form.intent === 'signin') {
    // Everything typed but the password comes back, whatever the answer; the
    // reason is shown beside the form as well as in the toast, which fades.
    const refuse = (description: string, status: number) =>
      dataWithError(
        args,
        { result: submission.reply({ hideFields: ['password'], formErrors: [description] }) },
        { message: 'Sign in failed', description },
        { status },
      );
    const wait = await signInWaitSeconds(request, supabase, form.email);
    if (wait > 0) return refuse(tooManyAttempts(wait), 429);
    const { error } = await supabase.auth.signInWithPassword({ email: form.email, password: form.password });
    if (error) {
      const lockedFor = error.code === 'invalid_credentials' ? await recordFailedSignIn(supabase, form.email) : 0;
      return lockedFor > 0 ? refuse(tooManyAttempts(lockedFor), 429) : refuse(error.message, 400);
    }
    await clearFailedSignIns(supabase);
    return redirect(safeRedirectPath(form.redirectTo));
  }

  // The company names the new account (the database's sign-up trigger reads
  // it); the person's names go only when given (docs/product-guide.md).
  const metadata = {
    company_name: form.company_name,
    ...(form.first_name ? { first_name: form.first_name } : {}),
    ...(form.last_name ? { last_name: form.last_name } : {}),
  };
  const { data: signUp, error } = await supabase.auth.signUp({
    email: form.email,
    password: form.password,
    options: {
      emailRedirectTo: siteLink('/'),
      data: metadata,
    },
  });
  if (error) {
    return dataWithError(
      args,
      { result: submission.reply({ hideFields: ['password'] }) },
      { message: 'Sign up failed', description: error.message },
      { status: 400 },
    );
  }
  if (signUp.session) return redirect('/dashboard');
  // The address is someone's once they follow the mailed link. The auth server
  // answers a registered address like a new one, and so does this page.
  return dataWithInfo(args, { result: submission.reply({ resetForm: true }), checkEmail: true }, CHECK_YOUR_EMAIL);
}

export default function Auth({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, redirectTo } = loaderData;
  return (
    <main className="flex min-h-screen items-center justify-center bg-muted px-4 py-12">
      <div className="w-full max-w-md">
        <div className="mb-6 text-center">
          <Link to="/" className="text-2xl font-bold tracking-tight">
            {BRAND_NAME}
          </Link>
          <p className="mt-1 text-sm text-muted-foreground">{TAGLINE}</p>
        </div>
        <Card>
          <CardHeader>
            <nav aria-label="Sign in or sign up" className="grid grid-cols-2 rounded-lg bg-muted p-1">
              <TabLink tab="signin" current={tab} redirectTo={redirectTo}>
                Sign In
              </TabLink>
              <TabLink tab="signup" current={tab} redirectTo={redirectTo}>
                Sign Up
              </TabLink>
            </nav>
            <CardTitle className="mt-4">{tab === 'signin' ? 'Welcome back' : 'Create your account'}</CardTitle>
            <CardDescription>
              {tab === 'signin'
                ? 'Sign in with your email and password.'
                : 'Start your free trial. No credit card required.'}
            </CardDescription>
          </CardHeader>
          <CardContent>
            {tab === 'signin' ? (
              <SignInForm lastResult={actionData?.result} redirectTo={redirectTo} />
            ) : actionData && 'checkEmail' in actionData ? (
              <CheckYourEmail />
            ) : (
              <SignUpForm lastResult={actionData?.result} />
            )}
          </CardContent>
        </Card>
      </div>
    </main>
  );
}

function TabLink({
  tab,
  current,
  redirectTo,
  children,
}: {
  tab: Tab;
  current: Tab;
  redirectTo: string;
  children: React.ReactNode;
}) {
  const params = new URLSearchParams();
  if (tab === 'signup') params.set('tab', 'signup');
  if (redirectTo) params.set('redirectTo', redirectTo);
  const search = params.toString();
  const selected = tab === current;
  return (
    <Link
      to={`/auth${search ? `?${search}` : ''}`}
      aria-current={selected ? 'page' : undefined}
      replace
      data-replace
      className={cn(
        'rounded-md px-3 py-1.5 text-center text-sm font-medium transition-colors',
        selected ? 'bg-background shadow-sm' : 'text-muted-foreground hover:text-foreground',
      )}
    >
      {children}
    </Link>
  );
}

/** Shown after a sign-up, in place of the form (the toast says it too). */
function CheckYourEmail() {
  return (
    <div role="status" className="grid gap-2 text-center">
      <h2 className="text-lg font-semibold">{CHECK_YOUR_EMAIL.message}</h2>
      <p className="text-sm text-muted-foreground">{CHECK_YOUR_EMAIL.description}</p>
    </div>
  );
}

type LastResult = SubmissionResult<string[]> | undefined;

/**
 * Pending while the framework posts the form: when /auth is reached inside
 * the app (a client-side navigation). Served as its own page it has no
 * framework, and its inline script shows `data-pending-label` instead.
 */
function useBusy(intent: Tab) {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
}

function SignInForm({ lastResult, redirectTo }: { lastResult: LastResult; redirectTo: string }) {
  const [form, fields] = useForm({
    id: 'signin',
    lastResult: lastResult?.initialValue?.intent === 'signin' ? lastResult : undefined,
    constraint: getZodConstraint(signInSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signInSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const busy = useBusy('signin');
  return (
    <Form method="post" action="/auth" className="grid gap-4" {...getFormProps(form)}>
      <FormAlert id={form.errorId} title="Sign in failed" errors={form.errors} />
      <input type="hidden" name="intent" value="signin" />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <FormField label="Email" htmlFor={fields.email.id} errorId={fields.email.errorId} errors={fields.email.errors}>
        <Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" />
      </FormField>
      <FormField
        label="Password"
        htmlFor={fields.password.id}
        errorId={fields.password.errorId}
        errors={fields.password.errors}
      >
        <Input {...getInputProps(fields.password, { type: 'password' })} autoComplete="current-password" />
      </FormField>
      <p className="-mt-2 text-right text-sm">
        <Link to="/auth/forgot-password" className={AUTH_LINK_CLASS}>
          {RESET_TEXTS.forgotLink}
        </Link>
      </p>
      <Button type="submit" disabled={busy} data-pending-label="Signing In...">
        {busy ? 'Signing In...' : 'Sign In'}
      </Button>
    </Form>
  );
}

function SignUpForm({ lastResult }: { lastResult: LastResult }) {
  const [form, fields] = useForm({
    id: 'signup',
    lastResult: lastResult?.initialValue?.intent === 'signup' ? lastResult : undefined,
    constraint: getZodConstraint(signUpSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signUpSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const busy = useBusy('signup');
  return (
    <Form method="post" action="/auth?tab=signup" className="grid gap-4" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="signup" />
      <TextField field={fields.company_name} label="Company name" autoComplete="organization" />
      <OwnNameFields firstName={fields.first_name} lastName={fields.last_name} />
      <FormField label="Email" htmlFor={fields.email.id} errorId={fields.email.errorId} errors={fields.email.errors}>
        <Input {...getInputProps(fields.email, { type: 'email' })} autoComplete="email" />
      </FormField>
      <NewPasswordFields password={fields.password} />
      <Button type="submit" disabled={busy} data-pending-label="Creating Account...">
        {busy ? 'Creating Account...' : 'Create Account'}
      </Button>
    </Form>
  );
}
