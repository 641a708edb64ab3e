// The public tracking page /track/:tracking_number (issue 36): no sign-in; the
// shipment's status, ETA, carrier and timeline and the seller's name and logo
// (served by /track/:tracking_number/logo), nothing else of the account
// (track_shipment). Cached at the edge for a minute (Cache-Control: public,
// s-maxage=60); an unknown number is a 404 that says nothing of other
// accounts; rate limited per IP.
import { data } from 'react-router';
import type { Route } from './+types/track';
import { StatusBadge } from '~/components/status-badge';
import { Card, CardContent, CardHeader } from '~/components/ui/card';
import { formatDateTime, formatShortDate } from '~/lib/dates';
import { getRequestSupabase } from '~/lib/supabase.server';
import { TRACKING_IP_WINDOW_SECONDS, TRACKING_NUMBER_PATTERN, trackingIpAllowed } from './limits.server';
import { CARRIER_LABELS, type Carrier } from '../schema';

interface Tracked {
  tracking_number: string;
  status: string;
  carrier: string;
  estimated_delivery: string | null;
  delivered_at: string | null;
  seller_name: string;
  /** Whether the seller has a logo (shown through /track/:tracking_number/logo), never where it is stored. */
  has_logo: boolean;
  events: { occurred_at: string; status: string; location: string | null; description: string }[];
}

const NOT_FOUND = 'No shipment with this tracking number.';
const NO_STORE = { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex, nofollow' };

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.tracked ? `Tracking ${loaderData.tracked.tracking_number}` : 'Shipment tracking' },
  { name: 'robots', content: 'noindex, nofollow' },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const number = params.tracking_number ?? '';
  if (!(await trackingIpAllowed(request))) {
    return data({ tracked: null, message: 'Too many look-ups. Try again in a minute.' }, { status: 429, headers: { ...NO_STORE, 'Retry-After': String(TRACKING_IP_WINDOW_SECONDS) } });
  }
  if (!TRACKING_NUMBER_PATTERN.test(number)) return data({ tracked: null, message: NOT_FOUND }, { status: 404, headers: NO_STORE });
  const { supabase } = getRequestSupabase(context);
  const { data: found, error } = await supabase.rpc('track_shipment', { p_tracking_number: number });
  if (error) {
    console.error(`tracking look-up failed: ${error.message}`);
    return data({ tracked: null, message: 'Tracking is unavailable right now. Try again shortly.' }, { status: 503, headers: { ...NO_STORE, 'Retry-After': '5' } });
  }
  if (!found) return data({ tracked: null, message: NOT_FOUND }, { status: 404, headers: NO_STORE });
  return data(
    { tracked: found as unknown as Tracked, message: null },
    { headers: { 'Cache-Control': 'public, s-maxage=60', 'X-Robots-Tag': 'noindex, nofollow' } },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function TrackPage({ loaderData }: Route.ComponentProps) {
  const { tracked, message } = loaderData;
  return (
    <main id="main" className="mx-auto grid max-w-2xl gap-4 p-4 sm:p-8">
      {tracked ? (
        <>
          <div className="flex flex-wrap items-center gap-3">
            {tracked.has_logo ? (
              // The seller's name is the text beside it, so the image itself says nothing more.
              <img src={`/track/${encodeURIComponent(tracked.tracking_number)}/logo`} alt="" className="h-10 w-auto max-w-40 rounded-md bg-white object-contain p-1" />
            ) : null}
            <p className="text-sm text-muted-foreground">Shipped by {tracked.seller_name}</p>
          </div>
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold">
            <span className="font-mono">{tracked.tracking_number}</span>
            <StatusBadge status={tracked.status} />
          </h1>
          <dl className="grid grid-cols-2 gap-2 text-sm">
            <dt className="text-muted-foreground">Carrier</dt>
            <dd>{CARRIER_LABELS[tracked.carrier as Carrier] ?? tracked.carrier}</dd>
            <dt className="text-muted-foreground">{tracked.delivered_at ? 'Delivered' : 'Estimated delivery'}</dt>
            <dd>{tracked.delivered_at ? formatDateTime(tracked.delivered_at) : tracked.estimated_delivery ? formatShortDate(tracked.estimated_delivery) : 'Not known yet'}</dd>
          </dl>
          <Card>
            <CardHeader className="pb-3">
              <h2 id="timeline-heading" className="text-lg font-semibold">
                Tracking history
              </h2>
            </CardHeader>
            <CardContent>
              {tracked.events.length === 0 ? <p className="text-sm text-muted-foreground">No tracking events yet.</p> : null}
              <ol aria-labelledby="timeline-heading" className="grid gap-3">
                {tracked.events.map((event) => (
                  <li key={`${event.occurred_at}-${event.status}-${event.location ?? ''}`} className="grid gap-0.5 border-l-2 border-border pl-3 text-sm">
                    <span className="flex flex-wrap items-center gap-2">
                      <StatusBadge status={event.status} />
                      <time dateTime={event.occurred_at} className="text-muted-foreground">
                        {formatDateTime(event.occurred_at)}
                      </time>
                      {event.location ? <span className="text-muted-foreground">{event.location}</span> : null}
                    </span>
                    <span>{event.description}</span>
                  </li>
                ))}
              </ol>
            </CardContent>
          </Card>
        </>
      ) : (
        <>
          <h1 className="text-2xl font-semibold">Shipment tracking</h1>
          <p role="alert">{message}</p>
        </>
      )}
    </main>
  );
}
