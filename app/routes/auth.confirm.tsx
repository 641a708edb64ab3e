// The link in the sign-up mail: /auth/confirm?token_hash=...&type=email. The
// token hash is checked with the auth server here, on the server (no
// JavaScript needed in the browser), which answers with a session; its cookies
// go out on the redirect to the site root, which sends a signed-in visitor on
// to the dashboard.
import type { EmailOtpType } from '@supabase/supabase-js';
import { redirect } from 'react-router';
import { redirectWithError } from 'remix-toast';
import type { Route } from './+types/auth.confirm';
import { CONFIRMATION_FAILED } from '~/lib/schemas/auth';
import { getRequestSupabase } from '~/lib/supabase.server';

const LINK_TYPES = new Set<EmailOtpType>(['email', 'signup']);

export async function loader({ url, context }: Route.LoaderArgs) {
  const tokenHash = url.searchParams.get('token_hash') ?? '';
  const type = url.searchParams.get('type') as EmailOtpType | null;
  if (!tokenHash || tokenHash.length > 256 || !type || !LINK_TYPES.has(type)) {
    return redirectWithError('/auth', CONFIRMATION_FAILED);
  }
  const { error } = await getRequestSupabase(context).supabase.auth.verifyOtp({ token_hash: tokenHash, type });
  if (error) return redirectWithError('/auth', CONFIRMATION_FAILED);
  return redirect('/');
}
