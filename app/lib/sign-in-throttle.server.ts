// Password sign-in is throttled twice, so guessing stays slow however it is
// spread: per client IP over a short window (Cloudflare's Rate Limiting
// binding: counts per location, periods of 10 or 60 s), and per address over
// a longer one, counted in the database, where every location sees the same
// count (public.sign_in_lockout / record_failed_sign_in). Only wrong passwords
// count towards the address's lockout, so its owner signing in is never slowed.
import { env } from 'cloudflare:workers';
import type { Supabase } from '~/lib/supabase.server';

/** The sentence a throttled sign-in answers with. */
export function tooManyAttempts(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many attempts, try again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The binding's window (wrangler.toml [[ratelimits]] period). */
const IP_WINDOW_SECONDS = 60;

/**
 * Seconds until this attempt may be made, or 0. Cloudflare sets
 * CF-Connecting-IP on every request it serves; without it (a test calling
 * the Worker directly) only the address is counted.
 */
export async function signInWaitSeconds(request: Request, supabase: Supabase, email: string): Promise<number> {
  const ip = request.headers.get('CF-Connecting-IP');
  if (ip && !(await env.SIGN_IN_IP_LIMITER.limit({ key: `sign-in:${ip}` })).success) return IP_WINDOW_SECONDS;
  const { data, error } = await supabase.rpc('sign_in_lockout', { p_email: email });
  // The auth server keeps its own limits: a failed lookup does not lock everyone out.
  if (error) console.error(`sign-in lockout check failed: ${error.message}`);
  return typeof data === 'number' ? data : 0;
}

/** Counts a wrong password against the address; returns the lockout it now has (seconds, or 0). */
export async function recordFailedSignIn(supabase: Supabase, email: string): Promise<number> {
  const { data, error } = await supabase.rpc('record_failed_sign_in', { p_email: email });
  if (error) console.error(`recording a failed sign-in failed: ${error.message}`);
  return typeof data === 'number' ? data : 0;
}

/** After a successful sign-in (as the signed-in user): their address starts again from zero. */
export async function clearFailedSignIns(supabase: Supabase): Promise<void> {
  const { error } = await supabase.rpc('clear_failed_sign_ins');
  if (error) console.error(`clearing failed sign-ins failed: ${error.message}`);
}
