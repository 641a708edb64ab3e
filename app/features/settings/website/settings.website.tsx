import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/settings.website';
import { SelectField, TextareaField, TextField, useSchemaForm } from '~/components/form-controls';
import { AccessRestricted } from '~/components/settings/access-restricted';
import { SubmitButton } from '~/components/submit-button';
import { SettingsHeader } from '~/components/settings/settings-header';
import { Card, CardContent } from '~/components/ui/card';
import { purgeMarketingPages } from '~/lib/edge-cache.server';
import { readFormData } from '~/lib/forms.server';
import { WEBSITE_TEXTS, websiteSettingsSchema } from './schema';
import { requireSettingsUser, requireSettingsUserWith } from '~/lib/settings.server';
import { refuseSubmission, serverMessage } from '~/lib/records.server';
import { WEBSITE_CURRENCY_OPTIONS, WEBSITE_TIMEZONE_OPTIONS, withCurrent } from '~/features/settings/settings-options';
import { TAGLINE } from '~/lib/site';
import { dataWithError } from '~/lib/toast.server';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Website Settings') }];

interface WebsiteValues {
  company_name: string;
  contact_email: string;
  description: string;
  timezone: string;
  currency: string;
}

type Access =
  | { access: 'restricted' }
  | { access: 'denied'; message: string }
  | { access: 'granted'; settings: WebsiteValues };

export async function loader({ request, context }: Route.LoaderArgs): Promise<Access> {
  // Both reads alongside the users row: the database knows whose account it is.
  const [{ profile, isAdmin }, [master, accountRead]] = await requireSettingsUserWith(request, context, (supabase) =>
    Promise.all([
      // As docs/product-guide.md says: the master account is the earliest created; the database answers.
      supabase.rpc('current_account_is_master'),
      supabase.from('accounts').select('name, billing_email, description, timezone, default_currency').maybeSingle(),
    ]),
  );
  if (!isAdmin || !profile?.account_id) return { access: 'restricted' };
  if (master.error) return { access: 'denied', message: serverMessage(master.error, WEBSITE_TEXTS.loadFailed) };
  if (!master.data) return { access: 'denied', message: WEBSITE_TEXTS.deniedOnLoad };
  const { data: account, error } = accountRead;
  if (error || !account) return { access: 'denied', message: serverMessage(error, WEBSITE_TEXTS.loadFailed) };
  return {
    access: 'granted',
    settings: {
      company_name: account.name,
      contact_email: account.billing_email ?? '',
      description: account.description ?? TAGLINE,
      timezone: account.timezone,
      currency: account.default_currency,
    },
  };
}

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const { supabase } = await requireSettingsUser(request, context);
  const submission = parseWithZod(await readFormData(request), { schema: websiteSettingsSchema });
  if (submission.status !== 'success') return refuseSubmission(args, submission);

  const form = submission.value;
  // The database refuses anyone but the master account's admin (update_website_settings).
  const { error } = await supabase.rpc('update_website_settings', {
    p_company_name: form.company_name,
    p_contact_email: form.contact_email,
    p_description: form.description ?? '',
    p_timezone: form.timezone,
    p_default_currency: form.currency,
  });
  if (error) {
    return dataWithError(
      args,
      { result: submission.reply() },
      serverMessage(error, WEBSITE_TEXTS.saveFailed),
      { status: error.code === '42501' ? 403 : 400 },
    );
  }
  // The landing page shows these settings; drop its edge-cached copies.
  try {
    await purgeMarketingPages(new URL(request.url).origin);
  } catch (purgeError) {
    console.error(`website settings: edge cache purge failed: ${String(purgeError)}`);
  }
  return redirectWithSuccess('/settings/website', WEBSITE_TEXTS.saved);
}

export default function SettingsWebsite({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <>
      <SettingsHeader title="Website Settings" description="What visitors of the public website see." />
      {loaderData.access === 'restricted' ? (
        <AccessRestricted title={WEBSITE_TEXTS.restrictedTitle} message={WEBSITE_TEXTS.restricted} />
      ) : loaderData.access === 'denied' ? (
        <AccessRestricted title={WEBSITE_TEXTS.deniedTitle} message={loaderData.message} />
      ) : (
        <WebsiteForm settings={loaderData.settings} lastResult={actionData?.result} />
      )}
    </>
  );
}

function WebsiteForm({
  settings,
  lastResult,
}: {
  settings: WebsiteValues;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useSchemaForm(websiteSettingsSchema, { id: 'website-settings', lastResult, defaultValue: { ...settings } });
  return (
    <Card>
      <CardContent className="pt-6">
        <Form method="post" className="grid gap-4" {...getFormProps(form)}>
          <input type="hidden" name="intent" value="save" />
          <TextField field={fields.company_name} label="Company name" autoComplete="organization" />
          <TextField field={fields.contact_email} label="Contact email" type="email" autoComplete="email" />
          <TextareaField
            field={fields.description}
            label="Description"
            hint="Shown under the company name on the landing page."
            className="min-h-24"
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              field={fields.timezone}
              label="Timezone"
              options={withCurrent(WEBSITE_TIMEZONE_OPTIONS, settings.timezone)}
            />
            <SelectField
              field={fields.currency}
              label="Currency"
              options={withCurrent(WEBSITE_CURRENCY_OPTIONS, settings.currency)}
            />
          </div>
          <div>
            <SubmitButton intent="save" label="Save Changes" busyLabel="Saving..." />
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
