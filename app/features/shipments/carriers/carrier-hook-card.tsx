// Settings → Integrations: the carrier tracking hook (issue 36, decisions 061,
// 077). Each provider's hook URL and when the token was last rotated; admins
// rotate it (the old token and secret stop working at once). The secret is
// never shown here: only on the page the rotation answers, once.
import { Form } from 'react-router';
import { Button } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import { formatDateTime } from '~/lib/dates';

export const CARRIER_HOOK_ROTATE_PATH = '/settings/integrations/carrier-hook';

const PROVIDER_LABELS: Record<string, string> = { easypost: 'EasyPost', aftership: 'AfterShip' };

export interface CarrierHookView {
  urls: { provider: string; url: string }[];
  rotatedAt: string | null;
}

export function HookUrls({ urls }: { urls: CarrierHookView['urls'] }) {
  return (
    <dl className="grid gap-2 text-sm">
      {urls.map(({ provider, url }) => (
        <div key={provider} className="grid gap-0.5">
          <dt className="text-muted-foreground">{PROVIDER_LABELS[provider] ?? provider} hook URL</dt>
          <dd>
            <code className="break-all rounded bg-muted px-1.5 py-0.5 text-xs">{url}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function CarrierHookCard({ hook }: { hook: CarrierHookView | null }) {
  return (
    <Card>
      <CardContent className="grid gap-3 pt-6">
        <div className="grid gap-1">
          <h3 className="font-semibold">Carrier tracking hook</h3>
          <p className="text-sm text-muted-foreground">
            Paste these URLs into EasyPost (Webhooks) or AfterShip (Notifications → Webhooks) with the signing secret: their
            tracking events then update your shipments.
          </p>
        </div>
        {hook ? (
          <>
            <HookUrls urls={hook.urls} />
            <p className="text-xs text-muted-foreground">
              Token last rotated {hook.rotatedAt ? formatDateTime(hook.rotatedAt) : 'never'}. The signing secret was shown once, when it
              was made; rotate to get a new one.
            </p>
          </>
        ) : (
          <p className="text-sm">No carrier hook yet. Create one to receive tracking events.</p>
        )}
        <Form method="post" action={CARRIER_HOOK_ROTATE_PATH}>
          <input type="hidden" name="intent" value="rotate" />
          <Button type="submit" variant="outline" size="sm">
            {hook ? 'Rotate token and secret' : 'Create carrier hook'}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
