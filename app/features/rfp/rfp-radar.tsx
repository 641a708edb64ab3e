// /rfp/radar, the Radar tab (issue 38; decision 079): the tenders of the account's feeds that match one of
// its saved searches (chosen by link, ?search=<id>; the first by name otherwise), best fit first, each with
// its fit score and the reasons for it, what an amendment changed, its buyer, value and deadline. Pursue
// opens the New RFP Response dialog prefilled from the notice; Dismiss hides it (with an optional reason).
// Works without JavaScript; the one form is validated on the server.
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from 'react-router';
import { redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/rfp-radar';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { RecordEmpty } from '~/components/records/record-empty';
import { SubmitButton } from '~/components/submit-button';
import { buttonClasses } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { requireUser, requireUserWith } from '~/lib/auth.server';
import { formatShortDate } from '~/lib/dates';
import { readFormData } from '~/lib/forms.server';
import { formatMoney } from '~/lib/money';
import { pageTitle } from '~/lib/page-title';
import { isUuid, refuseReadOnly, refuseSubmission, serverMessage } from '~/lib/records.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';
import { cn } from '~/lib/utils';
import { todayIso } from './deadline';
import { DaysLeft } from './days-left';
import { dismissOpportunity, firstError, loadRadar, type RadarMatch } from './radar.server';
import { dismissSchema } from './radar-schema';
import { RfpTabs } from './rfp-tabs';
import { RADAR_TEXTS as TEXTS } from './texts';

export const meta: Route.MetaFunction = () => [{ title: pageTitle(TEXTS.title) }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const asked = url.searchParams.get('search');
  const today = todayIso();
  const [{ profile }, radar] = await requireUserWith(request, context, (supabase) => loadRadar(supabase, isUuid(asked) ? asked : null, today));
  return { ...radar, today, canWrite: canWriteBusiness(profile?.role) };
}

export async function action(args: Route.ActionArgs) {
  const submission = parseWithZod(await readFormData(args.request), { schema: dismissSchema });
  const { profile, supabase } = await requireUser(args.request, args.context);
  const refused = refuseReadOnly(args, profile);
  if (refused) return refused;
  // The dismiss form shows no field of its own: what was wrong is said in the toast.
  if (submission.status !== 'success') return refuseSubmission(args, submission, { toast: firstError(TEXTS.dismissFailed) });
  const { data, error } = await dismissOpportunity(supabase, submission.value.id, submission.value.reason);
  if (error || !data) {
    const message = error ? serverMessage(error, TEXTS.dismissFailed) : TEXTS.gone;
    return dataWithError(args, { result: submission.reply({ formErrors: [message] }) }, message, { status: error ? 400 : 404 });
  }
  return redirectWithSuccess(`/rfp/radar${new URL(args.request.url).search}`, TEXTS.dismissed);
}

/** A notice's score: green from 70, amber from 40. */
function Score({ score }: { score: number }) {
  const tone = score >= 70 ? 'bg-emerald-100 text-emerald-900' : score >= 40 ? 'bg-amber-100 text-amber-900' : 'bg-muted text-muted-foreground';
  return <span className={cn('inline-flex min-w-12 justify-center rounded-md px-2 py-1 text-sm font-semibold', tone)} aria-label={`Fit score ${score} of 100`}>{score}</span>;
}

function MatchRow({ match, today, canWrite, search }: { match: RadarMatch; today: string; canWrite: boolean; search: string }) {
  return (
    <li className="grid gap-2 border-b py-4 last:border-b-0 sm:grid-cols-[auto_1fr_auto] sm:items-start sm:gap-4">
      <Score score={match.score} />
      <div className="grid min-w-0 gap-1">
        <p className="font-medium">
          {match.url ? <a href={match.url} rel="noopener noreferrer nofollow" target="_blank" className="hover:underline">{match.title}</a> : match.title}
        </p>
        <p className="text-sm text-muted-foreground">
          {[match.buyer, match.country, match.source_name].filter(Boolean).join(' · ')}
        </p>
        <p className="text-sm">
          {match.value !== null && match.currency ? formatMoney(match.value, match.currency) : 'Value not given'}
          {' · '}
          {match.deadline ? (
            <>
              Deadline <time dateTime={match.deadline}>{formatShortDate(match.deadline.slice(0, 10))}</time>{' '}
              (<DaysLeft deadline={match.deadline.slice(0, 10)} today={today} />)
            </>
          ) : 'No deadline given'}
        </p>
        <p className="text-sm text-muted-foreground">Why: {match.reasons.join('; ')}</p>
        {match.change_note ? <p className="text-sm font-medium text-amber-800">Amended: {match.change_note}</p> : null}
      </div>
      <div className="flex flex-wrap items-start gap-2">
        {match.pursued_rfp_id ? (
          <Link to={`/rfp/${match.pursued_rfp_id}`} className={buttonClasses('outline', 'sm')}>View Response</Link>
        ) : canWrite ? (
          <Link to={`/rfp?new&opportunity=${match.id}`} className={buttonClasses('default', 'sm')}>Pursue</Link>
        ) : null}
        {canWrite ? (
          <Form method="post" action={`/rfp/radar${search}`} className="flex items-start gap-2">
            <input type="hidden" name="intent" value="dismiss" />
            <input type="hidden" name="id" value={match.id} />
            <label className="sr-only" htmlFor={`dismiss-${match.id}`}>Reason for dismissing {match.title}</label>
            <input id={`dismiss-${match.id}`} name="reason" maxLength={500} placeholder="Reason (optional)"
              className="h-8 w-36 rounded-md border bg-background px-2 text-sm" />
            <SubmitButton intent="dismiss" label="Dismiss" busyLabel="Dismissing..." variant="outline" className="h-8" />
          </Form>
        ) : null}
      </div>
    </li>
  );
}

export default function RfpRadar({ loaderData }: Route.ComponentProps) {
  const { searches, sourceCount, matches, searchId, failed, today, canWrite } = loaderData;
  const search = searchId ? `?search=${searchId}` : '';
  return (
    <>
      <PageHeader
        title={TEXTS.title}
        description={TEXTS.description}
        actions={<Link to="/rfp/radar/settings" className={buttonClasses('outline')}>{TEXTS.settings}</Link>}
      />
      <RfpTabs current="/rfp/radar" />
      <Card>
        <CardHeader className="gap-4">
          <SectionHeading>{TEXTS.heading}</SectionHeading>
          {searches.length > 0 ? (
            <nav aria-label="Saved searches" className="flex flex-wrap gap-2">
              {searches.map((s) => (
                <Link key={s.id} to={`/rfp/radar?search=${s.id}`} aria-current={s.id === searchId ? 'page' : undefined}
                  className={buttonClasses(s.id === searchId ? 'default' : 'outline', 'sm')}>
                  {s.name}
                </Link>
              ))}
            </nav>
          ) : null}
        </CardHeader>
        <CardContent>
          {failed ? (
            <p role="alert" className="py-10 text-center text-sm text-destructive">{TEXTS.loadFailed}</p>
          ) : sourceCount === 0 || searches.length === 0 ? (
            <RecordEmpty
              title={sourceCount === 0 ? TEXTS.noSource : TEXTS.noSearch}
              purpose={TEXTS.description}
              action={canWrite ? <Link to="/rfp/radar/settings" className={buttonClasses()}>{TEXTS.settings}</Link> : null}
            />
          ) : matches.length === 0 ? (
            <RecordEmpty title={TEXTS.noMatch} />
          ) : (
            <ul aria-label={TEXTS.heading}>
              {matches.map((match) => <MatchRow key={match.id} match={match} today={today} canWrite={canWrite} search={search} />)}
            </ul>
          )}
        </CardContent>
      </Card>
    </>
  );
}
