// What the public tracking page and its logo check before asking the database.
import { ipAllowed, IP_WINDOW_SECONDS } from '~/features/quotes/public/queries.server';

/** A tracking number as shipments carry them; anything else is not worth a database call. */
export const TRACKING_NUMBER_PATTERN = /^[A-Za-z0-9-]{4,40}$/;

export const TRACKING_IP_WINDOW_SECONDS = IP_WINDOW_SECONDS;

/** False when this client IP has looked up tracking too often in the last minute. */
export async function trackingIpAllowed(request: Request): Promise<boolean> {
  return ipAllowed(request);
}
