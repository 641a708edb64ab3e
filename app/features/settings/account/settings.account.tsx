import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { Form, Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/settings.account';
import { SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { EmptyState } from '~/components/settings/empty-state';
import { RestrictedScreen } from '~/components/settings/restricted-screen';
import { SubmitButton } from '~/components/submit-button';
import { SettingsHeader } from '~/components/settings/settings-header';
import { StatusBadge } from '~/components/status-badge';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import { formatShortDate } from '~/lib/dates';
import { ACCOUNT_TEXTS, accountSettingsSchema } from './schema';
import { SETTINGS_RESTRICTED } from '~/lib/settings-access';
import { refuseNonAdmin, requireSettingsUser, requireSettingsUserWith } from '~/lib/settings.server';
import { readFormData } from '~/lib/forms.server';
import { LOGO_FORM_BYTES, LOGO_INTENTS, saveLogo } from './logo-upload.server';
import { parseWithZod } from '@conform-to/zod/v4';
import { refuseSubmission } from '~/lib/records.server';
import { ACCOUNT_CURRENCY_OPTIONS, ACCOUNT_TIMEZONE_OPTIONS, withCurrent } from '~/features/settings/settings-options';
import { dataWithError } from '~/lib/toast.server';
import { COUNTRY_OPTIONS, formatIban, type Seller } from '~/lib/seller';
import { inspectLogo, LOGO_LIMITS } from '~/lib/logo-image';
import { pageTitle } from '~/lib/page-title';
import { GOALS_INTENT, type GoalTargets } from '~/features/analytics/goals';
import { GoalsForm } from '~/features/analytics/goals-form';
import { saveGoals } from '~/features/analytics/goals.server';

// The seller columns this screen edits (the logo has its own form).
const SELLER_COLUMNS =
  'address_line1, address_line2, postal_code, city, region, country, tax_id, company_registration, iban, bic, bank_details, payment_terms, logo_path, accent_color';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Account Settings') }];

interface AccountBase {
  name: string;
  billing_email: string | null;
  default_currency: string;
  timezone: string;
  country: string | null;
  analytics_goals: GoalTargets;
  subscription_status: string;
  trial_ends_at: string | null;
}

type AccountRow = AccountBase & Omit<Seller, 'name'>;

export async function loader({ request, context }: Route.LoaderArgs) {
  // The account's row alongside the users row: staff read only their own account.
  const [{ supabase, profile, isAdmin, canRead }, { data: account, error }] = await requireSettingsUserWith(request, context, (supabase) =>
    supabase
      .from('accounts')
      .select(`name, billing_email, default_currency, timezone, analytics_goals, subscription_status, trial_ends_at, ${SELLER_COLUMNS}`)
      .maybeSingle<AccountRow>(),
  );
  if (!canRead) return { access: 'restricted' as const };
  if (!profile?.account_id) return { access: 'granted' as const, account: null, isAdmin, error: ACCOUNT_TEXTS.loadFailed };
  if (error || !account) {
    if (error) console.error(`account: ${error.message}`);
    return { access: 'granted' as const, account: null, isAdmin, error: ACCOUNT_TEXTS.loadFailed };
  }
  return { access: 'granted' as const, account, isAdmin, error: null, logoSrc: await logoDataUrl(supabase, account.logo_path) };
}

/** The stored logo as a data URL (the page's CSP allows images from itself and data: only); null when none. */
async function logoDataUrl(supabase: Awaited<ReturnType<typeof requireSettingsUser>>['supabase'], path: string | null) {
  if (!path) return null;
  const { data, error } = await supabase.storage.from('branding').download(path);
  if (error || !data || data.size > LOGO_LIMITS.maxBytes) return null;
  const bytes = new Uint8Array(await data.arrayBuffer());
  const image = inspectLogo(bytes);
  if ('error' in image) return null;
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:image/${image.kind};base64,${btoa(binary)}`;
}

export async function action(args: Route.ActionArgs) {
  const user = await requireSettingsUser(args.request, args.context);
  const refused = refuseNonAdmin(args, user, SETTINGS_RESTRICTED.account);
  if (refused) return refused;
  // A logo comes as a file (multipart), up to 512 KB; the settings as a small form.
  const multipart = (args.request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data');
  const formData = await readFormData(args.request, multipart ? LOGO_FORM_BYTES : undefined);
  const intent = formData.get('intent');
  if (typeof intent === 'string' && (LOGO_INTENTS as readonly string[]).includes(intent)) return saveLogo(args, user, formData);
  // Monthly Goals (the analytics module's form on this screen).
  if (intent === GOALS_INTENT) return saveGoals(args, user.supabase, user.profile?.account_id, formData);
  const submission = parseWithZod(formData, { schema: accountSettingsSchema });
  const { supabase, profile } = user;
  if (submission.status !== 'success') return refuseSubmission(args, submission);
  const form = submission.value;
  // Row-level security lets only an admin update their own account: anyone
  // else's update matches no row.
  const { data: updated, error } = await supabase
    .from('accounts')
    .update({
      name: form.name,
      billing_email: form.billing_email ?? null,
      default_currency: form.default_currency,
      timezone: form.timezone,
      address_line1: form.address_line1 || null,
      address_line2: form.address_line2 || null,
      postal_code: form.postal_code || null,
      city: form.city || null,
      region: form.region || null,
      country: form.country || null,
      tax_id: form.tax_id || null,
      company_registration: form.company_registration || null,
      iban: form.iban || null,
      bic: form.bic || null,
      bank_details: form.bank_details || null,
      payment_terms: form.payment_terms || null,
      accent_color: form.accent_color || null,
    })
    .eq('id', profile?.account_id ?? '00000000-0000-0000-0000-000000000000')
    .select('id');
  if (error || updated.length === 0) {
    if (error) console.error(`account: update failed: ${error.message}`);
    return dataWithError(args, { result: submission.reply() }, ACCOUNT_TEXTS.saveFailed, { status: error ? 400 : 403 });
  }
  return redirectWithSuccess('/settings/account', ACCOUNT_TEXTS.saved);
}

export default function SettingsAccount({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.access === 'restricted') {
    return <RestrictedScreen title="Account Settings" message={SETTINGS_RESTRICTED.account} />;
  }
  const { account, isAdmin, error } = loaderData;
  const logoSrc = 'logoSrc' in loaderData ? loaderData.logoSrc : null;
  const logoError = actionData && 'logoError' in actionData ? actionData.logoError : null;
  return (
    <>
      <SettingsHeader title="Account Settings" description="Your organisation's details and subscription." />
      {error || !account ? (
        <EmptyState title={error ?? ACCOUNT_TEXTS.loadFailed}>Please try again in a moment.</EmptyState>
      ) : (
        <div className="grid gap-6">
          <SubscriptionCard account={account} />
          <AccountForm account={account} isAdmin={isAdmin} lastResult={actionData && 'result' in actionData ? actionData.result : undefined} />
          <LogoCard logoSrc={logoSrc ?? null} isAdmin={isAdmin} error={logoError ?? null} />
          <GoalsForm
            targets={account.analytics_goals ?? {}}
            isAdmin={isAdmin}
            lastResult={actionData && 'goalsResult' in actionData ? actionData.goalsResult : undefined}
          />
        </div>
      )}
    </>
  );
}

function SubscriptionCard({ account }: { account: AccountRow }) {
  const trial = account.subscription_status === 'trial';
  return (
    <Card>
      <CardContent className="flex flex-wrap items-center justify-between gap-4 pt-6">
        <div className="grid gap-1">
          <div className="flex items-center gap-2">
            <h3 className="font-semibold">Subscription</h3>
            <StatusBadge status={account.subscription_status} />
          </div>
          {trial ? (
            <p className="text-sm text-muted-foreground">
              {account.trial_ends_at ? (
                <>
                  Your free trial ends on{' '}
                  <time dateTime={account.trial_ends_at}>{formatShortDate(account.trial_ends_at)}</time>.
                </>
              ) : (
                'You are on a free trial.'
              )}{' '}
              Upgrade to keep your modules running after the trial.
            </p>
          ) : null}
        </div>
        {/* The account's own plan: its modules and what each costs, not the public price list. */}
        {trial ? (
          <Link to="/settings/modules" className={buttonClasses()}>
            Upgrade Now
          </Link>
        ) : null}
      </CardContent>
    </Card>
  );
}

function AccountForm({
  account,
  isAdmin,
  lastResult,
}: {
  account: AccountRow;
  isAdmin: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useSchemaForm(accountSettingsSchema, {
    id: 'account-settings',
    lastResult,
    defaultValue: {
      name: account.name,
      billing_email: account.billing_email ?? '',
      default_currency: account.default_currency,
      timezone: account.timezone,
      address_line1: account.address_line1 ?? '',
      address_line2: account.address_line2 ?? '',
      postal_code: account.postal_code ?? '',
      city: account.city ?? '',
      region: account.region ?? '',
      country: account.country ?? '',
      tax_id: account.tax_id ?? '',
      company_registration: account.company_registration ?? '',
      iban: account.iban ? formatIban(account.iban) : '',
      bic: account.bic ?? '',
      bank_details: account.bank_details ?? '',
      payment_terms: account.payment_terms ?? '',
      accent_color: account.accent_color ?? '',
    },
  });
  return (
    <Card>
      <CardContent className="pt-6">
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="save" />
          <TextField field={fields.name} label="Account name" autoComplete="organization" />
          <TextField field={fields.billing_email} label="Billing email" type="email" autoComplete="email" />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              field={fields.default_currency}
              label="Default currency"
              options={withCurrent(ACCOUNT_CURRENCY_OPTIONS, account.default_currency)}
            />
            <SelectField
              field={fields.timezone}
              label="Timezone"
              options={withCurrent(ACCOUNT_TIMEZONE_OPTIONS, account.timezone)}
            />
          </div>
          <fieldset className="grid gap-4">
            <legend className="mb-1 font-semibold">Seller details</legend>
            <p className="text-sm text-muted-foreground">Printed on your quotes and invoices, their mails and their public pages.</p>
            <TextField field={fields.address_line1} label="Address line 1" autoComplete="address-line1" />
            <TextField field={fields.address_line2} label="Address line 2" autoComplete="address-line2" />
            <div className="grid gap-4 sm:grid-cols-3">
              <TextField field={fields.postal_code} label="Postal code" autoComplete="postal-code" />
              <TextField field={fields.city} label="City" autoComplete="address-level2" />
              <TextField field={fields.region} label="Region" autoComplete="address-level1" />
            </div>
            <SelectField field={fields.country} label="Country" options={COUNTRY_OPTIONS} />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField field={fields.tax_id} label="Tax ID" hint="VAT, GST or tax number as printed" />
              <TextField field={fields.company_registration} label="Company registration" />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField field={fields.iban} label="IBAN" spellCheck={false} />
              <TextField field={fields.bic} label="BIC" spellCheck={false} />
            </div>
            <TextareaField field={fields.bank_details} label="Bank details" hint="For banks without an IBAN: account name, number, routing code" />
            <TextareaField field={fields.payment_terms} label="Payment terms" hint="Printed on every invoice" />
            <TextField field={fields.accent_color} label="Accent colour" hint="As #rrggbb; used on your documents and public pages" placeholder="#1a7f5a" />
          </fieldset>
          {isAdmin ? (
            <div>
              <SubmitButton intent="save" label="Save Changes" busyLabel="Saving..." />
            </div>
          ) : (
            // The database lets only admins change the account; say so rather than offer a save that fails.
            <p className="text-sm text-muted-foreground">Only administrators can change the account settings.</p>
          )}
        </Form>
      </CardContent>
    </Card>
  );
}

/** The logo printed on documents: its own form (a file, intent upload-logo) and Remove (intent remove-logo). */
function LogoCard({ logoSrc, isAdmin, error }: { logoSrc: string | null; isAdmin: boolean; error: string | null }) {
  return (
    <Card>
      <CardContent className="grid gap-4 pt-6">
        <div className="grid gap-1">
          <h3 className="font-semibold">Logo</h3>
          <p className="text-sm text-muted-foreground">Printed on your quote and invoice PDFs. PNG or JPEG, at most 512 KB and 1024 × 1024 pixels.</p>
        </div>
        {logoSrc ? (
          <img src={logoSrc} alt="Your current logo" className="max-h-14 max-w-40 object-contain object-left" />
        ) : (
          <p className="text-sm text-muted-foreground">No logo yet.</p>
        )}
        {isAdmin ? (
          <div className="flex flex-wrap items-end gap-4">
            <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
              <input type="hidden" name="intent" value="upload-logo" />
              <div className="grid gap-1">
                <label htmlFor="logo-file" className="text-sm font-medium">
                  Logo file
                </label>
                <input
                  id="logo-file"
                  name="logo"
                  type="file"
                  accept="image/png,image/jpeg"
                  required
                  className="text-sm"
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? 'logo-file-error' : undefined}
                />
                {error ? (
                  <p id="logo-file-error" className="text-sm text-destructive">
                    {error}
                  </p>
                ) : null}
              </div>
              <SubmitButton intent="upload-logo" label="Upload logo" busyLabel="Uploading..." variant="outline" />
            </Form>
            {logoSrc ? (
              <Form method="post">
                <input type="hidden" name="intent" value="remove-logo" />
                <SubmitButton intent="remove-logo" label="Remove logo" busyLabel="Removing..." variant="outline" />
              </Form>
            ) : null}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
