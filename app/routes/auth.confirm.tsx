// The link in the auth mails: /auth/confirm?token_hash=...&type=<kind>. The
// token hash is checked with the auth server here, on the server (no
// JavaScript needed in the browser), which answers with a session; its cookies
// go out on the redirect. Where it goes depends on the mail:
// - sign-up (type email): the site root, which sends a signed-in visitor on to the dashboard;
// - password reset (type recovery): the page to choose a new password;
// - e-mail change: the profile, saying whether the other address's link is still to follow.
import type { EmailOtpType } from '@supabase/supabase-js';
import { redirect } from 'react-router';
import { redirectWithError, redirectWithInfo, redirectWithSuccess } from 'remix-toast';
import type { Route } from './+types/auth.confirm';
import { PROFILE_TEXTS } from '~/features/profile/texts';
import { CONFIRMATION_FAILED } from '~/lib/schemas/auth';
import { getRequestSupabase } from '~/lib/supabase.server';

const LINK_TYPES = new Set<EmailOtpType>(['email', 'signup', 'recovery', 'email_change']);

export async function loader({ url, context }: Route.LoaderArgs) {
  const tokenHash = url.searchParams.get('token_hash') ?? '';
  const type = url.searchParams.get('type') as EmailOtpType | null;
  if (!tokenHash || tokenHash.length > 256 || !type || !LINK_TYPES.has(type)) {
    return redirectWithError('/auth', CONFIRMATION_FAILED);
  }
  const { data, error } = await getRequestSupabase(context).supabase.auth.verifyOtp({ token_hash: tokenHash, type });
  if (error) return redirectWithError(type === 'recovery' ? '/auth/forgot-password' : '/auth', CONFIRMATION_FAILED);
  if (type === 'recovery') return redirect('/auth/reset-password');
  if (type === 'email_change') {
    // The first of the two links of a secure change answers without a session.
    if (!data.session) return redirectWithInfo('/profile', PROFILE_TEXTS.emailHalfConfirmed);
    return redirectWithSuccess('/profile', PROFILE_TEXTS.emailChanged);
  }
  return redirect('/');
}
