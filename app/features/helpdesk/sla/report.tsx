// /messages/report: the SLA report (decisions 075, 089): per agent and priority, the
// conversations started in the period, first responses, next responses and
// resolutions met in % (next responses breached as a count), the average first response and CSAT; downloadable as CSV. A GET form.
import { Form, Link } from 'react-router';
import type { Route } from './+types/report';
import { PageHeader } from '~/components/page-header';
import { Button } from '~/components/ui/button';
import { Card, CardContent } from '~/components/ui/card';
import { NativeSelect } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { requireUserWith } from '~/lib/auth.server';
import { BRAND_NAME } from '~/lib/site';
import { formatSpan } from './timer';
import { nextResponsesBreached, percent, PERIODS } from './report-figures';
import { loadSlaReport, readPeriod } from './report.server';

const PRIORITY: Record<string, string> = { urgent: 'Urgent', high: 'High', normal: 'Normal', low: 'Low' };

export const meta: Route.MetaFunction = () => [{ title: `SLA report — ${BRAND_NAME}` }];

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const days = readPeriod(url);
  const [, report] = await requireUserWith(request, context, (supabase) => loadSlaReport(supabase, days));
  return { days, ...report };
}

export default function SlaReport({ loaderData }: Route.ComponentProps) {
  const { rows, failed, days } = loaderData;
  const total = rows.reduce((sum, r) => sum + r.conversations, 0);
  return (
    <>
      <PageHeader title="SLA report" description="First responses, next responses and resolutions within their targets, by agent and priority." />
      <Card>
        <CardContent className="grid gap-4 pt-6">
          <Form method="get" className="flex flex-wrap items-end gap-2">
            <div className="grid gap-1">
              <Label htmlFor="report-days">Period</Label>
              <NativeSelect id="report-days" name="days" defaultValue={days} key={days}>
                {PERIODS.map((p) => (
                  <option key={p.value} value={p.value}>
                    {p.label}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <Button type="submit" variant="outline">
              Show
            </Button>
            <Button asChild variant="ghost">
              <a href={`/messages/report.csv?days=${days}`} download>
                Export CSV
              </a>
            </Button>
            <Button asChild variant="ghost">
              <Link to="/messages">Back to messages</Link>
            </Button>
          </Form>
          {failed ? (
            <p role="alert" className="text-sm text-destructive">
              Failed to load the report. Please try again in a moment.
            </p>
          ) : total === 0 ? (
            <p className="text-sm text-muted-foreground">No conversations started in this period.</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-sm">
                <caption className="sr-only">SLA report</caption>
                <thead className="text-left text-muted-foreground">
                  <tr>
                    <th scope="col" className="py-2 pr-4 font-medium">Agent</th>
                    <th scope="col" className="py-2 pr-4 font-medium">Priority</th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">Conversations</th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">First response met</th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">Next response met</th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">Next responses breached</th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">Resolution met</th>
                    <th scope="col" className="py-2 pr-4 text-right font-medium">Average first response</th>
                    <th scope="col" className="py-2 text-right font-medium">CSAT</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={`${r.assignee_id ?? 'none'}-${r.priority}`} className="border-t">
                      <td className="py-2 pr-4">{r.assignee_name ?? 'Unassigned'}</td>
                      <td className="py-2 pr-4">{PRIORITY[r.priority] ?? r.priority}</td>
                      <td className="py-2 pr-4 text-right tabular-nums">{r.conversations}</td>
                      <td className="py-2 pr-4 text-right tabular-nums">{percent(r.first_response_met, r.first_response_total)}</td>
                      <td className="py-2 pr-4 text-right tabular-nums">{percent(r.next_response_met, r.next_response_total)}</td>
                      <td className="py-2 pr-4 text-right tabular-nums">{nextResponsesBreached(r)}</td>
                      <td className="py-2 pr-4 text-right tabular-nums">{percent(r.resolution_met, r.resolution_total)}</td>
                      <td className="py-2 pr-4 text-right tabular-nums">
                        {r.avg_first_response_minutes === null ? '—' : formatSpan(r.avg_first_response_minutes)}
                      </td>
                      <td className="py-2 text-right tabular-nums">
                        {r.csat_average === null ? '—' : `${r.csat_average.toFixed(1)} (${r.csat_count})`}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </CardContent>
      </Card>
    </>
  );
}
