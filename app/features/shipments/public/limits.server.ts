// What the public tracking page and its logo check before asking the database.
import { env } from 'cloudflare:workers';

/** A tracking number as shipments carry them; anything else is not worth a database call. */
export const TRACKING_NUMBER_PATTERN = /^[A-Za-z0-9-]{4,40}$/;

/** The binding's window (wrangler.toml [[ratelimits]] TRACKING_IP_LIMITER period). */
export const TRACKING_IP_WINDOW_SECONDS = 60;

/**
 * False when this client IP has looked up tracking too often in the last minute. Its own
 * limiter, not the quote links': following parcels never uses up a quote's signing budget.
 */
export async function trackingIpAllowed(request: Request): Promise<boolean> {
  const ip = request.headers.get('CF-Connecting-IP');
  if (!ip) return true;
  return (await env.TRACKING_IP_LIMITER.limit({ key: `tracking:${ip}` })).success;
}
