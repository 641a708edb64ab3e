import { Form, Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/settings.modules';
import { EmptyState } from '~/components/settings/empty-state';
import { RestrictedScreen } from '~/components/settings/restricted-screen';
import { SettingsHeader } from '~/components/settings/settings-header';
import { StatusBadge } from '~/components/status-badge';
import { ConfirmDialog } from '~/components/settings/confirm-dialog';
import { Button, buttonClasses } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import { formatMoney } from '~/lib/money';
import { MODULE_TEXTS, nextModuleStatus, toggleModuleSchema } from './schema';
import { SETTINGS_RESTRICTED } from '~/lib/settings-access';
import { readAdminForm, requireSettingsUserWith } from '~/lib/settings.server';
import { dataWithError } from '~/lib/toast.server';
import { pageTitle } from '~/lib/page-title';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Modules') }];

interface ModuleRow {
  id: string;
  key: string;
  name: string;
  description: string;
  monthly_price: number;
  setup_fee: number;
  features: Record<string, string>;
  account_modules: { status: string; start_at: string; end_at: string | null }[];
}

const LIST = '/settings/modules';

export async function loader({ request, context, url }: Route.LoaderArgs) {
  // The catalogue joined with this account's subscriptions (RLS keeps other accounts' out), alongside the users row.
  const [{ canRead, isAdmin }, { data, error }] = await requireSettingsUserWith(request, context, (supabase) =>
    supabase
      .from('modules')
      .select('id, key, name, description, monthly_price, setup_fee, features, account_modules(status, start_at, end_at)')
      .order('sort_order')
      .returns<ModuleRow[]>(),
  );
  if (!canRead) return { access: 'restricted' as const };
  if (error) {
    console.error(`modules: ${error.message}`);
    return { access: 'granted' as const, readOnly: !isAdmin, modules: [], error: MODULE_TEXTS.loadFailed, activating: null };
  }
  const modules = data.map(({ account_modules, ...module }) => ({ ...module, subscription: account_modules[0] ?? null }));
  // ?activate=<id>: the confirmation, with the price, before a module that costs money is switched on.
  const wanted = url.searchParams.get('activate');
  const activating = isAdmin
    ? (modules.find((module) => module.id === wanted && nextModuleStatus(module.subscription?.status) === 'active') ?? null)
    : null;
  return {
    access: 'granted' as const,
    // Auditors see the subscriptions; activating and pausing (billing) is admins'.
    readOnly: !isAdmin,
    modules,
    error: null,
    activating,
  };
}

export async function action(args: Route.ActionArgs) {
  const read = await readAdminForm(args, toggleModuleSchema, SETTINGS_RESTRICTED.modules);
  if ('refused' in read) return read.refused;
  const { user, submission } = read;
  const { supabase, profile } = user;
  if (submission.status !== 'success' || !profile?.account_id) {
    return dataWithError(args, null, MODULE_TEXTS.failed, { status: 400 });
  }
  const { module_id, status } = submission.value;
  const { data: updated, error } = await supabase
    .from('account_modules')
    .update({ status })
    .eq('account_id', profile.account_id)
    .eq('module_id', module_id)
    .select('id');
  let failed = Boolean(error);
  if (!error && updated.length === 0) {
    // Not subscribed yet: activating starts the subscription.
    const { error: insertError } = await supabase
      .from('account_modules')
      .insert({ account_id: profile.account_id, module_id, status });
    failed = Boolean(insertError);
    if (insertError) console.error(`modules: subscribe failed: ${insertError.message}`);
  } else if (error) {
    console.error(`modules: status update failed: ${error.message}`);
  }
  if (failed) return dataWithError(args, null, MODULE_TEXTS.failed, { status: 400 });
  return redirectWithSuccess(LIST, status === 'active' ? MODULE_TEXTS.activated : MODULE_TEXTS.paused);
}

export default function SettingsModules({ loaderData }: Route.ComponentProps) {
  if (loaderData.access === 'restricted') return <RestrictedScreen title="Modules" message={SETTINGS_RESTRICTED.modules} />;
  const { modules, error, readOnly, activating } = loaderData;
  return (
    <>
      <SettingsHeader title="Modules" description="Turn the modules of your subscription on or off." />
      {error ? (
        <EmptyState title={error}>Please try again in a moment.</EmptyState>
      ) : modules.length === 0 ? (
        <EmptyState title="No modules available" />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2" aria-label="Modules">
          {modules.map((module) => {
            const status = module.subscription?.status ?? null;
            const next = nextModuleStatus(status);
            return (
              <li key={module.id}>
                <Card className="h-full">
                  <CardContent className="flex h-full flex-col gap-3 pt-6">
                    <div className="flex items-start justify-between gap-2">
                      <h3 className="font-semibold">{module.name}</h3>
                      {status ? <StatusBadge status={status} /> : <StatusBadge status="inactive" label="Not subscribed" />}
                    </div>
                    <p className="text-sm text-muted-foreground">{module.description}</p>
                    <ul className="list-inside list-disc text-sm text-muted-foreground">
                      {Object.values(module.features ?? {}).map((feature) => (
                        <li key={feature}>{feature}</li>
                      ))}
                    </ul>
                    <p className="text-sm">
                      {formatMoney(module.monthly_price)}/month · setup {formatMoney(module.setup_fee)}
                    </p>
                    {readOnly ? null : next === 'active' && needsConfirmation(module) ? (
                      <Link
                        to={`?activate=${module.id}`}
                        preventScrollReset
                        className={`${buttonClasses()} mt-auto self-start`}
                        aria-label={`Activate ${module.name}`}
                      >
                        Activate
                      </Link>
                    ) : (
                      <Form method="post" className="mt-auto">
                        <input type="hidden" name="intent" value="toggle" />
                        <input type="hidden" name="module_id" value={module.id} />
                        <input type="hidden" name="status" value={next} />
                        <Button
                          type="submit"
                          variant={next === 'paused' ? 'outline' : 'default'}
                          aria-label={`${next === 'paused' ? 'Pause' : 'Activate'} ${module.name}`}
                        >
                          {next === 'paused' ? 'Pause' : 'Activate'}
                        </Button>
                      </Form>
                    )}
                  </CardContent>
                </Card>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={activating !== null}
        closeTo={LIST}
        title={MODULE_TEXTS.confirmTitle}
        description={
          activating
            ? MODULE_TEXTS.confirmDescription(activating.name, formatMoney(activating.monthly_price), formatMoney(activating.setup_fee))
            : ''
        }
        intent="toggle"
        fields={{ module_id: activating?.id ?? '', status: 'active' }}
        confirmLabel={MODULE_TEXTS.confirmLabel}
        busyLabel={MODULE_TEXTS.confirmBusy}
        variant="default"
      />
    </>
  );
}

/** A module that costs something is switched on only after its price is confirmed. */
function needsConfirmation(module: { monthly_price: number; setup_fee: number }): boolean {
  return module.monthly_price > 0 || module.setup_fee > 0;
}
