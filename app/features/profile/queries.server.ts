// The profile's writes. The name is the person's own users row (row-level
// security and users_guard_changes let anyone change their own name, nothing
// else of it); the password and the address belong to the auth server.
import { env } from 'cloudflare:workers';
import { createClient } from '@supabase/supabase-js';
import { PROFILE_TEXTS } from './texts';
import type { Supabase } from '~/lib/supabase.server';
import { recordFailedSignIn, signInWaitSeconds, tooManyAttempts } from '~/lib/sign-in-throttle.server';

export async function saveOwnName(supabase: Supabase, authUserId: string, name: { first_name?: string; last_name?: string }) {
  const { data, error } = await supabase
    .from('users')
    .update({ first_name: name.first_name || null, last_name: name.last_name || null, updated_at: new Date().toISOString() })
    .eq('auth_user_id', authUserId)
    .select('id');
  if (error) console.error(`profile: name update failed: ${error.message}`);
  return !error && data.length === 1;
}

/**
 * Whether `password` is the person's current one, asked of the auth server as
 * a sign-in of its own (on a client without cookies, so the page's session is
 * untouched), and counted against the address's sign-in lockout like any
 * wrong password: the form is no way around it. The session it makes is
 * ended at once. Answers null when it holds, else why not.
 */
export async function checkCurrentPassword(
  request: Request,
  supabase: Supabase,
  email: string,
  password: string,
): Promise<string | null> {
  const wait = await signInWaitSeconds(request, supabase, email);
  if (wait > 0) return tooManyAttempts(wait);
  const checker = createClient(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  const { error } = await checker.auth.signInWithPassword({ email, password });
  if (error) {
    if (error.code !== 'invalid_credentials') return error.message;
    const lockedFor = await recordFailedSignIn(supabase, email);
    return lockedFor > 0 ? tooManyAttempts(lockedFor) : PROFILE_TEXTS.wrongPassword;
  }
  await checker.auth.signOut({ scope: 'local' });
  return null;
}
