// POST /settings/integrations/carrier-hook: an admin rotates the account's
// carrier hook (decision 077). The answer is the one page that shows the new
// signing secret: it is in this response only, never stored in a cookie or
// read again (carrier_hook() gives the token, never the secret). A GET shows
// no secret, only the way back to Integrations.
import { parseWithZod } from '@conform-to/zod/v4';
import { Link } from 'react-router';
import type { Route } from './+types/settings.carrier-hook';
import { SettingsHeader } from '~/components/settings/settings-header';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import { readFormData } from '~/lib/forms.server';
import { pageTitle } from '~/lib/page-title';
import { refuseSubmission } from '~/lib/records.server';
import { SETTINGS_RESTRICTED } from '~/lib/settings-access';
import { refuseNonAdmin, requireSettingsUser } from '~/lib/settings.server';
import { dataWithError, dataWithSuccess } from '~/lib/toast.server';
import { z } from '~/lib/schemas/zod';
import { HookUrls } from './carrier-hook-card';
import { carrierHookUrls } from './hook-urls.server';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Carrier tracking hook') }];

const LIST = '/settings/integrations';
const rotateSchema = z.object({ intent: z.literal('rotate') });

// Nothing to read: the page shows the secret only as the rotation's answer (a
// redirect here would also replace that answer after the post).
export function loader() {
  return null;
}

export async function action(args: Route.ActionArgs) {
  const user = await requireSettingsUser(args.request, args.context);
  const refused = refuseNonAdmin(args, user, SETTINGS_RESTRICTED.integrations);
  if (refused) return refused;
  const submission = parseWithZod(await readFormData(args.request), { schema: rotateSchema });
  if (submission.status !== 'success') return refuseSubmission(args, submission);
  const { data, error } = await user.supabase.rpc('rotate_carrier_hook').single();
  if (error || !data) {
    console.error(`rotating the carrier hook failed: ${error?.message ?? 'no answer'}`);
    return dataWithError(args, { result: submission.reply({ formErrors: ['The carrier hook could not be rotated'] }) }, 'The carrier hook could not be rotated', {
      status: error?.code === '42501' ? 403 : 400,
    });
  }
  return dataWithSuccess(
    args,
    { rotated: { urls: carrierHookUrls(data.token), secret: data.secret } },
    'Carrier hook rotated: the old URLs and secret no longer work',
    // The secret is in this page: no cache keeps it.
    { headers: { 'Cache-Control': 'no-store' } },
  );
}

export default function CarrierHookRotated({ actionData }: Route.ComponentProps) {
  const rotated = actionData && 'rotated' in actionData ? actionData.rotated : null;
  return (
    <>
      <SettingsHeader title="Carrier tracking hook" description="The new hook URLs and signing secret." />
      <Card>
        <CardContent className="grid gap-4 pt-6">
          {rotated ? (
            <>
              <HookUrls urls={rotated.urls} />
              <div className="grid gap-1 text-sm">
                <p className="text-muted-foreground">Signing secret (EasyPost webhook secret, AfterShip webhook secret)</p>
                <code className="break-all rounded bg-muted px-1.5 py-0.5 text-xs" data-testid="carrier-hook-secret">
                  {rotated.secret}
                </code>
                <p className="font-medium">Copy it now: it is shown only this once.</p>
              </div>
            </>
          ) : (
            <p className="text-sm">The signing secret is shown only once, right after the hook is rotated on Integrations.</p>
          )}
          <Link to={LIST} className={buttonClasses('outline', 'sm')}>
            Back to Integrations
          </Link>
        </CardContent>
      </Card>
    </>
  );
}
