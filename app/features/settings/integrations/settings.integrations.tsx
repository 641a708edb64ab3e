import { siteLink } from '~/lib/site-url.server';
import { env } from 'cloudflare:workers';
import { Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/settings.integrations';
import { SmsHookNote } from '~/features/helpdesk/channels/sms-hook-note';
import { EmptyState } from '~/components/settings/empty-state';
import { FailedJobs, type FailedJob } from './failed-jobs';
import { IntegrationForm, type IntegrationValues } from './integration-form';
import { ListPager } from '~/components/list-pager';
import { RestrictedScreen } from '~/components/settings/restricted-screen';
import { DeleteDialog, EditDeleteLinks, SetActiveButton } from '~/components/settings/row-actions';
import { SettingsHeader } from '~/components/settings/settings-header';
import { StatusBadge } from '~/components/status-badge';
import { Badge } from '~/components/ui/badge';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import { UrlDialog } from '~/components/url-dialog';
import { formatShortDate } from '~/lib/dates';
import {
  INTEGRATION_TEXTS,
  integrationActionSchema,
  SECRET_FIELD_NAMES,
  typedDefaults,
} from './schema';
import { readAdminForm, requireSettingsUserWith } from '~/lib/settings.server';
import {
  deleteAndAnswer,
  isUuid,
  listDialog,
  newestFirstPage,
  refuseSubmission,
  saveAndAnswer,
} from '~/lib/records.server';
import { SETTINGS_RESTRICTED } from '~/lib/settings-access';
import {
  INTEGRATION_TYPE_LABELS,
  INTEGRATION_TYPES,
  isIntegrationType,
  prefillConfig,
  type IntegrationType,
} from '~/features/settings/settings-options';
import { blankMaskedSecrets, blankSecrets, isPlainObject, secretsSetOf } from './settings-secrets';
import type { Supabase } from '~/lib/supabase.server';
import { dataWithError } from '~/lib/toast.server';
import { kickJobRunner } from '~/jobs/kick.server';
import { smtpTargetProblemOf } from './smtp-config';
import { providerUrlProblem } from '~/lib/provider-fetch';
import { Button } from '~/components/ui/button';
import { Form } from 'react-router';
import { pageTitle } from '~/lib/page-title';
import { CarrierHookCard } from '~/features/shipments/carriers/carrier-hook-card';
import { readCarrierHook } from '~/features/shipments/carriers/hook-urls.server';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Integrations') }];

const LIST = '/settings/integrations';
const FAILED_JOBS_SHOWN = 10;

interface IntegrationRow {
  id: string;
  name: string;
  type: IntegrationType;
  config: Record<string, unknown>;
  /** Which secrets hold a value ({"api_key": true}); the values never leave the database. */
  secrets_set: Record<string, unknown>;
  is_active: boolean;
  is_default_mail_route: boolean;
  created_at: string;
}

/** The list (never the configs: they hold credentials), and the last test mail of the account's mail server. */
interface MailServer {
  id: string;
  name: string;
  last_test: { status: string; last_error: string | null; created_at: string } | null;
}

/**
 * The email integration an admin made the account's mail route: it carries
 * the account's mail (decision 039), and its last test mail says whether that
 * works. Read on its own, so it is found wherever it sits in the paged list.
 */
async function readMailServer(supabase: Supabase): Promise<MailServer | null> {
  const { data, error } = await supabase.rpc('mail_route_status', undefined, { get: true });
  if (error) console.error(`mail route unreadable: ${error.message}`);
  return (data as unknown as MailServer | null) ?? null;
}

/** The integration the edit or delete dialog names, for admins. */
async function readSelected(supabase: Supabase, url: URL): Promise<IntegrationValues | null> {
  const wanted = url.searchParams.get('edit') ?? url.searchParams.get('delete');
  // Auditors read the list; the dialogs (and the configs they show) are admins' (the loader drops it for anyone else).
  if (!isUuid(wanted)) return null;
  const { data: one } = await supabase
    .from('integrations')
    .select('id, name, type, config, secrets_set')
    .eq('id', wanted)
    .maybeSingle<Pick<IntegrationRow, 'id' | 'name' | 'type' | 'config' | 'secrets_set'>>();
  if (!one) return null;
  // Secrets are write-only: the JSON shows them blank, the fields leave them empty.
  const config = blankSecrets(one.config);
  return {
    id: one.id,
    name: one.name,
    type: one.type,
    config: JSON.stringify(config, null, 2),
    typed: { [one.type]: typedDefaults(one.type, isPlainObject(config) ? config : {}) },
    secretsSet: secretsSetOf(one.secrets_set),
  };
}

/** What the runner gave up on, for admins (the database shows jobs to admins only). */
async function readFailedJobs(supabase: Supabase): Promise<FailedJob[]> {
  const { data: failed, error: failedError } = await supabase
    .from('jobs')
    .select('id, kind, attempts, last_error, updated_at')
    .eq('status', 'failed')
    .order('updated_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(FAILED_JOBS_SHOWN);
  if (failedError) console.error(`failed jobs unreadable: ${failedError.message}`);
  return failed ?? [];
}

export async function loader({ request, context, url }: Route.LoaderArgs) {
  // The four reads wait on nothing, not even the users row: the policies decide
  // what each role reads (only admins read jobs), and the dialogs are admins'.
  const [{ canRead, isAdmin }, [list, mailServer, wanted, failed, carrier]] = await requireSettingsUserWith(request, context, (supabase) =>
    Promise.all([
      newestFirstPage<Omit<IntegrationRow, 'config' | 'secrets_set'>>(supabase, 'integrations', 'id, name, type, is_active, is_default_mail_route, created_at', url),
      readMailServer(supabase),
      readSelected(supabase, url),
      readFailedJobs(supabase),
      // The carrier tracking hook (decision 077): admins only, the secret never.
      readCarrierHook(supabase),
    ]),
  );
  if (!canRead) return { access: 'restricted' as const };
  const selected = isAdmin ? wanted : null;
  const failedJobs = isAdmin ? failed : [];
  const lastTest = mailServer?.last_test ?? null;
  const requestedType = url.searchParams.get('type');
  const newType: IntegrationType = isIntegrationType(requestedType) ? requestedType : 'email';

  return {
    access: 'granted' as const,
    readOnly: !isAdmin,
    list,
    error: list.failed ? INTEGRATION_TEXTS.loadFailed : null,
    mode: isAdmin ? listDialog(url, selected !== null) : null,
    mailServerId: mailServer?.id ?? null,
    lastTest,
    failedJobs,
    carrierHook: isAdmin && !carrier.denied ? { hook: carrier.hook } : null,
    // Where Twilio posts for an SMS integration (decision 076): the site's own origin, never the Host a request names.
    hookOrigin: new URL(siteLink('/')).origin,
    selected,
    blank: {
      name: '',
      type: newType,
      config: prefillConfig(newType),
      typed: Object.fromEntries(INTEGRATION_TYPES.map((type) => [type, typedDefaults(type, null)])),
      secretsSet: {},
    } satisfies IntegrationValues,
  };
}

export async function action(args: Route.ActionArgs) {
  const read = await readAdminForm(args, integrationActionSchema, SETTINGS_RESTRICTED.integrations);
  if ('refused' in read) return read.refused;
  const { user, submission } = read;
  const { supabase, profile } = user;
  // Typed secrets are never sent back (the JSON editor's text is, as typed: it is the person's own document).
  if (submission.status !== 'success') {
    return refuseSubmission(args, submission, { toast: (errors) => errors.config?.[0], hideFields: SECRET_FIELD_NAMES });
  }
  const form = submission.value;

  if (form.intent === 'delete') {
    return deleteAndAnswer(args, supabase, { table: 'integrations', id: form.id, listPath: LIST }, INTEGRATION_TEXTS, submission.reply);
  }

  if (form.intent === 'test-mail') {
    const { error } = await supabase.rpc('request_test_mail', { p_integration_id: form.id });
    if (error) {
      console.error(`test mail refused: ${error.message}`);
      const limited = error.code === '54000';
      return dataWithError(args, { result: submission.reply() }, limited ? INTEGRATION_TEXTS.testMailLimit : INTEGRATION_TEXTS.testMailFailed, {
        status: limited ? 429 : 400,
      });
    }
    kickJobRunner(args.context);
    return redirectWithSuccess(LIST, INTEGRATION_TEXTS.testMailQueued);
  }

  if (form.intent === 'mail-route') {
    const { error } = await supabase.rpc('set_mail_route', { p_integration_id: form.id });
    if (error) {
      console.error(`mail route refused: ${error.message}`);
      return dataWithError(args, { result: submission.reply() }, INTEGRATION_TEXTS.mailRouteFailed, { status: 400 });
    }
    return redirectWithSuccess(LIST, form.id ? INTEGRATION_TEXTS.mailRouteSet : INTEGRATION_TEXTS.mailRouteCleared);
  }

  if (form.intent === 'set-active') {
    const { data: updated, error } = await supabase
      .from('integrations')
      .update({ is_active: form.active })
      .eq('id', form.id)
      .select('id');
    if (error || updated.length === 0) {
      return dataWithError(args, { result: submission.reply() }, INTEGRATION_TEXTS.statusFailed, { status: 400 });
    }
    return redirectWithSuccess(LIST, form.active ? INTEGRATION_TEXTS.activated : INTEGRATION_TEXTS.deactivated);
  }

  // A secret left masked or blank keeps the stored one: the database merges.
  let config = blankMaskedSecrets(form.config);
  // The fields show only their type's keys: a typed save keeps the stored config's others.
  if (form.editor === 'fields' && form.id) {
    const { data: stored } = await supabase.from('integrations').select('type, config').eq('id', form.id).maybeSingle();
    if (stored && stored.type === form.type && isPlainObject(stored.config) && isPlainObject(config)) {
      config = { ...stored.config, ...config };
    }
  }
  // An SMS gateway or an AI provider only at an https URL on a public host (decisions 076, 082), as each is
  // checked again when called: said at the field on saving rather than as a failed message later.
  if ((form.type === 'ai' || form.type === 'sms') && isPlainObject(config) && typeof config.api_url === 'string' && config.api_url.trim() !== '') {
    const problem = providerUrlProblem(config.api_url.trim(), env.PROVIDER_ALLOW_HOSTS);
    if (problem) {
      const message = `Use an https URL of a public server: ${problem}`;
      const field = form.editor === 'fields' ? `${form.type}.api_url` : 'config';
      return dataWithError(args, { result: submission.reply({ fieldErrors: { [field]: [message] }, hideFields: SECRET_FIELD_NAMES }) }, message, { status: 400 });
    }
  }
  // An SMTP server only on an SMTP port at a public address (decision 039): said at the field, nothing saved.
  if (form.type === 'email' && isPlainObject(config)) {
    const problem = smtpTargetProblemOf(config, env.SMTP_ALLOW_HOSTS);
    if (problem) {
      const field = form.editor === 'fields' ? `email.${problem.field}` : 'config';
      return dataWithError(
        args,
        { result: submission.reply({ fieldErrors: { [field]: [problem.message] }, hideFields: SECRET_FIELD_NAMES }) },
        problem.message,
        { status: 400 },
      );
    }
  }
  // A refused save answers with the config as the person typed it (nothing was saved).
  return saveAndAnswer(
    args,
    supabase,
    profile,
    { table: 'integrations', id: form.id, listPath: LIST, values: { name: form.name, type: form.type, config } },
    INTEGRATION_TEXTS,
    submission.reply,
  );
}

export default function SettingsIntegrations({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.access === 'restricted') {
    return <RestrictedScreen title="Integrations" message={SETTINGS_RESTRICTED.integrations} />;
  }
  const { list, error, mode, selected, blank, readOnly, mailServerId, lastTest, failedJobs, carrierHook, hookOrigin } = loaderData;
  const integrations = list.rows;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  return (
    <>
      <SettingsHeader
        title="Integrations"
        description="Connect email, payments, CRM and storage services."
        actions={
          readOnly ? null : (
            <Link to="?new" preventScrollReset className={buttonClasses()}>
              New Integration
            </Link>
          )
        }
      />
      {error ? (
        <EmptyState title={error}>Please try again in a moment.</EmptyState>
      ) : integrations.length === 0 ? (
        <EmptyState title="No integrations yet">Connect your first service to get started.</EmptyState>
      ) : (
        <>
        {mailServerId === null && integrations.some((row) => row.type === 'email' && row.is_active) ? (
          <p className="text-sm text-muted-foreground">{INTEGRATION_TEXTS.noMailRoute}</p>
        ) : null}
        <ul className="grid gap-3" aria-label="Integrations">
          {integrations.map((integration) => (
            <li key={integration.id}>
              <Card>
                <CardContent className="flex flex-wrap items-center justify-between gap-3 pt-6">
                  <div className="grid gap-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <h3 className="font-semibold">{integration.name}</h3>
                      <Badge variant="outline">{INTEGRATION_TYPE_LABELS[integration.type] ?? integration.type}</Badge>
                      <StatusBadge status={integration.is_active ? 'active' : 'inactive'} />
                    </div>
                    {integration.id === mailServerId ? (
                      <MailServerNote lastTest={lastTest} />
                    ) : null}
                    {integration.type === 'sms' ? <SmsHookNote origin={hookOrigin} id={integration.id} /> : null}
                    <p className="text-xs text-muted-foreground">
                      Created{' '}
                      <time dateTime={integration.created_at}>
                        {formatShortDate(integration.created_at)}
                      </time>
                    </p>
                  </div>
                  {readOnly ? null : (
                    <div className="flex flex-wrap gap-2">
                      {integration.id === mailServerId ? (
                        <>
                          <Form method="post" action={LIST}>
                            <input type="hidden" name="intent" value="test-mail" />
                            <input type="hidden" name="id" value={integration.id} />
                            <Button type="submit" variant="outline" size="sm">
                              Send test mail
                            </Button>
                          </Form>
                          <MailRouteButton label="Send mail through OpsHub" />
                        </>
                      ) : integration.type === 'email' && integration.is_active ? (
                        <MailRouteButton id={integration.id} label={`Send all mail through ${integration.name}`} text="Use for all mail" />
                      ) : null}
                      <SetActiveButton action={LIST} id={integration.id} name={integration.name} active={integration.is_active} />
                      <EditDeleteLinks id={integration.id} name={integration.name} />
                    </div>
                  )}
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
        </>
      )}
      <ListPager list={list} pathname={LIST} noun="integrations" />
      <FailedJobs jobs={failedJobs} />
      {carrierHook ? <CarrierHookCard hook={carrierHook.hook} /> : null}

      <UrlDialog
        open={mode === 'new' || mode === 'edit'}
        closeTo={LIST}
        title={mode === 'edit' ? 'Edit Integration' : 'New Integration'}
      >
        {mode === 'new' || mode === 'edit' ? (
          <IntegrationForm
            key={mode === 'edit' ? selected?.id : `new-${blank.type}`}
            values={mode === 'edit' && selected ? selected : blank}
            lastResult={lastResult}
            closeTo={LIST}
          />
        ) : null}
      </UrlDialog>
      <DeleteDialog open={mode === 'delete'} closeTo={LIST} noun="Integration" selected={selected} />
    </>
  );
}

/** Makes an email integration the account's mail route, or (no id) sends its mail through OpsHub again. */
function MailRouteButton({ id, label, text }: { id?: string; label: string; text?: string }) {
  return (
    <Form method="post" action={LIST}>
      <input type="hidden" name="intent" value="mail-route" />
      {id ? <input type="hidden" name="id" value={id} /> : null}
      <Button type="submit" variant="outline" size="sm" aria-label={label}>
        {text ?? label}
      </Button>
    </Form>
  );
}

/** Says that this integration carries the account's mail, and how its last test mail went. */
function MailServerNote({ lastTest }: { lastTest: { status: string; last_error: string | null } | null }) {
  const outcome = !lastTest
    ? null
    : lastTest.status === 'done'
      ? 'Last test mail: delivered to the server'
      : lastTest.status === 'failed'
        ? `Last test mail: delivery failed: ${lastTest.last_error ?? 'unknown error'}`
        : 'Last test mail: waiting to be sent';
  return (
    <div className="grid gap-0.5 text-sm">
      <p>{INTEGRATION_TEXTS.sendsMail}</p>
      {outcome ? (
        <p className={lastTest?.status === 'failed' ? 'text-destructive' : 'text-muted-foreground'} role="status">
          {outcome}
        </p>
      ) : null}
    </div>
  );
}
