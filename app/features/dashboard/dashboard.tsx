import { Link } from 'react-router';
import { Activity, BadgeCheck, CheckCircle2, Circle, DollarSign, FileText, Headphones, LayoutGrid, Users } from '~/components/icons';
import type { Route } from './+types/dashboard';
import { PageHeader, SectionHeading } from '~/components/page-header';
import { StatCard, StatGrid } from '~/components/stat-card';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { requireUserWith } from '~/lib/auth.server';
import { canWriteBusiness } from '~/lib/roles';
import { StatusBadge } from '~/components/status-badge';
import {
  accountStatusLabel,
  activityBadge,
  type DashboardOverview,
  EMPTY_OVERVIEW,
  formatResponseTime,
  gettingStartedSteps,
  greeting,
  recentActivity,
  type SubscribedModule,
} from './overview';
import { formatMoneySums, formatWholeDollars, readMoneySums } from '~/lib/money';
import { formatShortDate, relativeTime } from '~/lib/dates';
import { CreateLink } from '~/components/create-link';
import { pageTitle } from '~/lib/page-title';
import { MyTasks } from '~/features/automations/my-tasks';
import { markTaskDone } from '~/features/automations/my-tasks.server';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Dashboard') }];

export async function loader({ request, context }: Route.LoaderArgs) {
  // Every figure in one RPC: one round trip, one consistent snapshot, read alongside the users row.
  // 'My tasks' (the automations feature) is its key my_tasks.
  const [{ profile }, { data, error }] = await requireUserWith(request, context, (supabase) => supabase.rpc('dashboard_overview'));
  // As docs/product-guide.md says: a dashboard load failure is only logged; the page still renders.
  if (error) console.error(`dashboard failed to load: ${error.message}`);
  const overview = (error ? EMPTY_OVERVIEW : (data as DashboardOverview | null)) ?? EMPTY_OVERVIEW;
  const now = new Date();
  return {
    canWrite: canWriteBusiness(profile?.role),
    canManageModules: profile?.role === 'admin',
    title: greeting(Boolean(overview.first_visit), profile?.first_name?.trim() || 'User'),
    overview,
    // Money in several currencies is never added up: one figure per currency.
    pipeline: formatMoneySums(readMoneySums(overview.quote_pipeline), { whole: true }),
    monthQuoteValue: formatMoneySums(readMoneySums(overview.this_month.quote_value), { whole: true }),
    modules: overview.modules ?? [],
    supportQueue: overview.support_queue ?? { open: 0, unassigned: 0, oldest_waiting_at: null },
    // Relative times are worked out here, so the server's and the browser's renders agree.
    activity: recentActivity(overview.recent_quotes, overview.recent_leads).map((item) => ({
      ...item,
      when: relativeTime(item.created_at, now),
    })),
    myTasks: overview.my_tasks ?? [],
    oldestWaiting: overview.support_queue?.oldest_waiting_at ? relativeTime(overview.support_queue.oldest_waiting_at, now) : null,
  };
}

/** A task's checkbox in 'My tasks' (the automations feature). */
export function action(args: Route.ActionArgs) {
  return markTaskDone(args);
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { title, overview, activity, canWrite, canManageModules, pipeline, monthQuoteValue, modules, supportQueue, oldestWaiting, myTasks } = loaderData;
  const steps = gettingStartedSteps(overview.getting_started, canWrite);
  const stepsDone = steps.filter((step) => step.done).length;

  return (
    <>
      <PageHeader
        title={title}
        description="Here is what is happening in your account."
        actions={
          canWrite ? (
            <CreateLink to="/quotes?new">Create New Quote</CreateLink>
          ) : null
        }
      />

      <StatGrid label="Overview">
        <StatCard
          label="Active Leads"
          value={Number(overview.active_leads).toLocaleString('en-US')}
          icon={Users}
          note={`${Number(overview.total_leads).toLocaleString('en-US')} leads in total`}
        />
        <StatCard
          label="Quote Pipeline"
          value={pipeline}
          icon={FileText}
          note="Open quotes: draft, sent and viewed"
        />
        <StatCard
          label="Monthly Revenue"
          value={formatWholeDollars(Number(overview.monthly_revenue))}
          icon={DollarSign}
          note={`${Number(overview.active_modules)} active module${Number(overview.active_modules) === 1 ? '' : 's'}`}
        />
        <StatCard
          label="Account Status"
          value={accountStatusLabel(overview.account_status)}
          icon={BadgeCheck}
          note={overview.trial_ends_at ? `Trial ends ${formatShortDate(overview.trial_ends_at)}` : 'Subscription in good standing'}
        />
      </StatGrid>

      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <SectionHeading className="flex items-center gap-2">
              <Activity className="size-4" aria-hidden="true" />
              Recent Activity
            </SectionHeading>
          </CardHeader>
          <CardContent>
            {activity.length === 0 ? (
              <p className="py-6 text-center text-sm text-muted-foreground">No activity yet. Add a lead or create a quote to get started.</p>
            ) : (
              <ul className="divide-y divide-border">
                {activity.map((item) => {
                  const badge = activityBadge(item.status);
                  return (
                    <li key={`${item.kind}:${item.id}`} className="flex items-center justify-between gap-3 py-3">
                      <div className="grid gap-0.5">
                        <p className="text-sm font-medium">{item.title}</p>
                        <p className="text-xs text-muted-foreground">
                          {item.detail ? `${item.detail} · ` : ''}
                          {item.when}
                        </p>
                      </div>
                      <Badge variant={badge.variant}>{badge.label}</Badge>
                    </li>
                  );
                })}
              </ul>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <SectionHeading>Getting Started</SectionHeading>
          </CardHeader>
          <CardContent className="grid gap-4">
            <p className="text-sm text-muted-foreground">
              {`${stepsDone} of ${steps.length} steps done`}
            </p>
            <ul className="grid gap-2">
              {steps.map((step) => (
                <li key={step.label} className="flex items-center gap-2 text-sm">
                  {step.done ? (
                    <CheckCircle2 className="size-4 shrink-0 text-green-700" aria-hidden="true" />
                  ) : (
                    <Circle className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  )}
                  {step.to && !step.done ? (
                    <Link to={step.to} className="underline underline-offset-4 hover:text-primary">
                      {step.label}
                    </Link>
                  ) : (
                    <span className={step.done ? 'text-muted-foreground' : undefined}>{step.label}</span>
                  )}
                  <span className="sr-only">{step.done ? '(done)' : '(to do)'}</span>
                </li>
              ))}
            </ul>
            <Button asChild variant="outline">
              <Link to="/leads">Go to Leads</Link>
            </Button>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <SectionHeading>This Month</SectionHeading>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-3 text-sm">
              <Figure term="Quotes created" value={Number(overview.this_month.quotes).toLocaleString('en-US')} />
              <Figure term="Quote value" value={monthQuoteValue} />
              <Figure term="New leads" value={Number(overview.this_month.leads).toLocaleString('en-US')} />
            </dl>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <SectionHeading className="flex items-center gap-2">
              <LayoutGrid className="size-4" aria-hidden="true" />
              Active Modules
            </SectionHeading>
          </CardHeader>
          <CardContent>
            <ModuleList modules={modules} canManage={canManageModules} />
          </CardContent>
        </Card>

        {/* The helpdesk's real queue (decision 072): not the spec's sample figures. */}
        <Card>
          <CardHeader>
            <SectionHeading className="flex items-center gap-2">
              <Headphones className="size-4" aria-hidden="true" />
              Support Queue
            </SectionHeading>
          </CardHeader>
          <CardContent>
            {supportQueue.open > 0 || Number(supportQueue.first_responses ?? 0) > 0 || Number(supportQueue.csat_count ?? 0) > 0 ? (
              <>
                <dl className="space-y-3 text-sm">
                  <Figure term="Open cases" value={Number(supportQueue.open).toLocaleString('en-US')} />
                  <Figure term="Unassigned" value={Number(supportQueue.unassigned).toLocaleString('en-US')} />
                  <Figure term="Oldest waiting" value={oldestWaiting ?? 'Nobody waiting'} />
                  {/* Decision 083: the last 30 days' average first response and satisfaction, from the same read. */}
                  <Figure term="Average first response" value={formatResponseTime(supportQueue.average_first_response_minutes) ?? 'No replies yet'} />
                  <Figure
                    term="Satisfaction"
                    value={
                      supportQueue.csat_average !== null && supportQueue.csat_average !== undefined && Number(supportQueue.csat_count) > 0
                        ? `${Number(supportQueue.csat_average).toFixed(1)}/5`
                        : 'No ratings yet'
                    }
                  />
                </dl>
                <p className="mt-2 text-xs text-muted-foreground">Response and satisfaction: last 30 days.</p>
                <Button asChild variant="outline" size="sm" className="mt-4">
                  <Link to="/messages">Open the inbox</Link>
                </Button>
              </>
            ) : (
              <p className="text-sm text-muted-foreground">No support cases yet.</p>
            )}
          </CardContent>
        </Card>

        <MyTasks tasks={myTasks} />
      </div>
    </>
  );
}

function Figure({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex items-center justify-between">
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="font-semibold">{value}</dd>
    </div>
  );
}

/** The account's module subscriptions, as settings/modules keeps them (docs/product-guide.md, Dashboard). */
function ModuleList({ modules, canManage }: { modules: SubscribedModule[]; canManage: boolean }) {
  if (modules.length === 0) {
    return (
      <div className="grid gap-2 text-sm">
        <p className="text-muted-foreground">No modules yet.</p>
        {canManage ? (
          <Link to="/settings/modules" className="underline underline-offset-4 hover:text-primary">
            Choose modules
          </Link>
        ) : null}
      </div>
    );
  }
  return (
    <ul className="grid gap-3 text-sm">
      {modules.map((module) => (
        <li key={module.key} className="flex items-center justify-between gap-2">
          <span>{module.name}</span>
          <StatusBadge status={module.status} />
        </li>
      ))}
    </ul>
  );
}
