// /rfp/radar/settings (issue 38; decision 079): the feeds the radar reads every hour (with when each was
// last read and its last error) and the saved searches it matches them against; each added, edited (its
// form filled in at ?source=<id> or ?search=<id>) or deleted by a plain post, validated on the server. A
// feed's address is checked as the job checks it: a private, loopback or link-local address is refused.
import { parseWithZod } from '@conform-to/zod/v4';
import { env } from 'cloudflare:workers';
import { Form, Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/rfp-radar-settings';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { SubmitButton } from '~/components/submit-button';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { allowedHosts } from '~/lib/address-policy';
import { requireUser, requireUserWith } from '~/lib/auth.server';
import { readFormData } from '~/lib/forms.server';
import { centsToInput, formatMoney } from '~/lib/money';
import { pageTitle } from '~/lib/page-title';
import { refuseReadOnly, refuseSubmission, serverMessage, statusOfRefusal } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { feedUrlProblem } from './feeds/fetch-feed.server';
import { deleteRadarRow, firstError, loadRadarSettings, saveSearch, saveSource } from './radar.server';
import { FEED_FORMAT_LABELS, radarSettingsActionSchema } from './radar-schema';
import { SearchForm, SourceForm } from './radar-forms';
import { RfpTabs } from './rfp-tabs';
import { RADAR_TEXTS as TEXTS } from './texts';

const PAGE = '/rfp/radar/settings';

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.settingsTitle, 'RFP Radar') }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const [{ profile }, settings] = await requireUserWith(request, context, loadRadarSettings);
  const canWrite = canWriteBusiness(profile?.role);
  const editingSource = canWrite ? settings.sources.find((s) => s.id === url.searchParams.get('source')) ?? null : null;
  const editingSearch = canWrite ? settings.searches.find((s) => s.id === url.searchParams.get('search')) ?? null : null;
  return { ...settings, canWrite, editingSource, editingSearch };
}

export async function action(args: Route.ActionArgs) {
  const submission = parseWithZod(await readFormData(args.request), { schema: radarSettingsActionSchema });
  const { profile, supabase } = await requireUser(args.request, args.context);
  const refused = refuseReadOnly(args, profile);
  if (refused) return refused;
  // A delete button has no field to show an error beside: its error (a bad id) is said in the toast.
  if (submission.status !== 'success') {
    const hidden = (errors: Record<string, string[] | null>) => Object.keys(errors).some((key) => key === 'id' || key === 'intent' || key === '');
    return refuseSubmission(args, submission, { toast: (errors) => (hidden(errors) ? firstError(TEXTS.saveFailed)(errors) : undefined) });
  }
  const form = submission.value;
  const failed = (error: { code?: string; message?: string } | null, fallback: string, field?: string) => {
    const message = error?.code === '23505' ? 'This feed is already on the radar' : error ? serverMessage(error, fallback) : 'It no longer exists';
    const result = field ? submission.reply({ fieldErrors: { [field]: [message] } }) : submission.reply({ formErrors: [message] });
    return dataWithError(args, { result }, message, { status: error ? statusOfRefusal(error.code) : 404 });
  };
  switch (form.intent) {
    case 'add-source':
    case 'update-source': {
      // The job refuses such an address too; saying so now saves a failed fetch an hour later.
      const problem = feedUrlProblem(form.url, allowedHosts(env.FEED_ALLOW_HOSTS));
      if (problem) return dataWithError(args, { result: submission.reply({ fieldErrors: { url: [problem] } }) }, problem, { status: 400 });
      const { data, error } = await saveSource(supabase, form, form.intent === 'update-source' ? form.id : undefined);
      return error || !data ? failed(error, TEXTS.saveFailed, 'url') : redirectWithSuccess(PAGE, TEXTS.sourceSaved);
    }
    case 'add-search':
    case 'update-search': {
      const { data, error } = await saveSearch(supabase, form, form.intent === 'update-search' ? form.id : undefined);
      return error || !data ? failed(error, TEXTS.saveFailed) : redirectWithSuccess(PAGE, TEXTS.searchSaved);
    }
    case 'delete-source':
    case 'delete-search': {
      const { data, error } = await deleteRadarRow(supabase, form.intent === 'delete-source' ? 'tender_sources' : 'tender_searches', form.id);
      return error || !data ? failed(error, TEXTS.deleteFailed) : redirectWithSuccess(PAGE, form.intent === 'delete-source' ? TEXTS.sourceDeleted : TEXTS.searchDeleted);
    }
  }
}

function DeleteButton({ intent, id, name }: { intent: 'delete-source' | 'delete-search'; id: string; name: string }) {
  return (
    <Form method="post" action={PAGE}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <SubmitButton intent={intent} label="Delete" busyLabel="Deleting..." variant="outline" className="h-8" />
      <span className="sr-only">{name}</span>
    </Form>
  );
}

const when = (value: string | null) => (value ? new Date(value).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : 'never');

export default function RadarSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { sources, searches, failed, canWrite, editingSource, editingSearch } = loaderData;
  const lastResult = actionData && 'result' in actionData ? actionData.result : undefined;
  const intent = (lastResult?.initialValue as { intent?: unknown } | undefined)?.intent;
  const resultOf = (...names: string[]) => (names.includes(intent as string) ? lastResult : undefined);
  return (
    <>
      <PageHeader title={TEXTS.settingsTitle} description={TEXTS.settingsDescription}
        actions={<Link to="/rfp/radar" className={buttonClasses('outline')}>Back to Radar</Link>} />
      <RfpTabs current="/rfp/radar" />
      {failed ? <p role="alert" className="mb-4 text-sm text-destructive">{TEXTS.loadFailed}</p> : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader><SectionHeading>{TEXTS.sourcesHeading}</SectionHeading></CardHeader>
          <CardContent className="grid gap-6">
            <ul aria-label={TEXTS.sourcesHeading} className="grid gap-3">
              {sources.length === 0 ? <li className="text-sm text-muted-foreground">{TEXTS.noSource}</li> : null}
              {sources.map((source) => (
                <li key={source.id} className="grid gap-1 border-b pb-3 last:border-b-0">
                  <div className="flex items-start justify-between gap-2">
                    <div className="min-w-0">
                      <p className="font-medium">{source.name}</p>
                      <p className="truncate text-sm text-muted-foreground">{source.url}</p>
                      <p className="text-xs text-muted-foreground">
                        {FEED_FORMAT_LABELS[source.format as keyof typeof FEED_FORMAT_LABELS]} · last read {when(source.last_fetched_at)}
                      </p>
                      {source.query ? <p className="truncate text-sm text-muted-foreground">Query: {source.query}</p> : null}
                      {source.last_error ? <p className="text-sm text-destructive">Last error: {source.last_error}</p> : null}
                    </div>
                    {canWrite ? (
                      <div className="flex gap-2">
                        <Link to={`${PAGE}?source=${source.id}`} className={buttonClasses('outline', 'sm')}>Edit</Link>
                        <DeleteButton intent="delete-source" id={source.id} name={source.name} />
                      </div>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
            {canWrite ? (
              <SourceForm
                key={editingSource?.id ?? 'new'}
                editing={editingSource?.id ?? null}
                defaultValue={editingSource ? { name: editingSource.name, url: editingSource.url, format: editingSource.format, query: editingSource.query ?? '' } : undefined}
                lastResult={resultOf('add-source', 'update-source', 'delete-source')}
              />
            ) : null}
          </CardContent>
        </Card>
        <Card>
          <CardHeader><SectionHeading>{TEXTS.searchesHeading}</SectionHeading></CardHeader>
          <CardContent className="grid gap-6">
            <ul aria-label={TEXTS.searchesHeading} className="grid gap-3">
              {searches.length === 0 ? <li className="text-sm text-muted-foreground">{TEXTS.noSearch}</li> : null}
              {searches.map((search) => (
                <li key={search.id} className="flex items-start justify-between gap-2 border-b pb-3 last:border-b-0">
                  <div className="min-w-0 text-sm">
                    <p className="font-medium">{search.name}</p>
                    <p className="text-muted-foreground">
                      {[
                        search.keywords.length ? `Keywords: ${search.keywords.join(', ')}` : null,
                        search.cpv_codes.length ? `CPV ${search.cpv_codes.join(', ')}` : null,
                        search.countries.length ? `Buyers in ${search.countries.join(', ')}` : null,
                        search.min_value !== null && search.min_currency ? `At least ${formatMoney(Number(search.min_value), search.min_currency)}` : null,
                        `Deadline within ${search.horizon_days} days`,
                        search.alert_score === null ? 'Daily digest only' : `Mailed at once from score ${search.alert_score}`,
                      ].filter(Boolean).join(' · ')}
                    </p>
                  </div>
                  {canWrite ? (
                    <div className="flex gap-2">
                      <Link to={`${PAGE}?search=${search.id}`} className={buttonClasses('outline', 'sm')}>Edit</Link>
                      <DeleteButton intent="delete-search" id={search.id} name={search.name} />
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
            {canWrite ? (
              <SearchForm
                key={editingSearch?.id ?? 'new'}
                editing={editingSearch?.id ?? null}
                defaultValue={editingSearch ? {
                  name: editingSearch.name, keywords: editingSearch.keywords.join(', '), cpv_codes: editingSearch.cpv_codes.join(' '),
                  countries: editingSearch.countries.join(' '),
                  min_value: editingSearch.min_value === null ? '' : centsToInput(Number(editingSearch.min_value), editingSearch.min_currency ?? 'USD'),
                  min_currency: editingSearch.min_currency ?? '', horizon_days: String(editingSearch.horizon_days),
                  alert_score: editingSearch.alert_score === null ? 'off' : String(editingSearch.alert_score),
                } : undefined}
                lastResult={resultOf('add-search', 'update-search', 'delete-search')}
              />
            ) : null}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
