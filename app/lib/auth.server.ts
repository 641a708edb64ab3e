// Guards for loaders and actions. (Refreshed auth cookies need no handling here:
// the Supabase middleware forwards them on every response, redirects included.)
// The session is the access token, its signature verified (getUser in
// supabase.server.ts); the app's `users` row is read once per request with the
// user's own token (public.current_profile: their own row and, for active
// staff, their account's name, as the policies would show them), and it is
// what tells a deactivated user apart (decision 024).
import { redirect, type RouterContextProvider } from 'react-router';
import {
  backendUnreachable,
  getRequestSupabase,
  type RequestSupabase,
  serviceUnavailable,
  type SessionUser,
  type Supabase,
} from '~/lib/supabase.server';
import type { Role } from '~/lib/roles';

export interface UserProfile {
  id: string;
  account_id: string | null;
  auth_user_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  role: Role;
  is_active: boolean;
  created_at: string;
  last_login_at: string | null;
  /** The account (workspace) the user belongs to; null where row-level security hides it (outsiders). */
  account: { name: string } | null;
}

export interface SignedIn {
  supabase: Supabase;
  authUser: SessionUser;
  /** null when the users row is missing or unreadable (docs/product-guide.md: logged, record empty). */
  profile: UserProfile | null;
}

/** Only same-site paths: never let a link send a signed-in user elsewhere. */
// Browsers drop tabs and newlines from a URL and read a backslash as a slash,
// so '/<TAB>/evil.example' would become '//evil.example': any of them refuses the target.
// eslint-disable-next-line no-control-regex -- control characters are exactly what it must find
const UNSAFE_IN_REDIRECT = /[\u0000-\u001f\u007f\\]/;
const SAME_SITE = 'https://same-site.invalid';

export function safeRedirectPath(target: string | null | undefined, fallback = '/dashboard'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || UNSAFE_IN_REDIRECT.test(target)) return fallback;
  // Whatever else the URL parser would make of it, it must stay on this site.
  const resolved = new URL(target, SAME_SITE);
  if (resolved.origin !== SAME_SITE) return fallback;
  return target;
}

// The users row, read once per request however many loaders, actions and
// middlewares ask (keyed by the request's Supabase handle).
interface ProfileRead {
  profile: UserProfile | null;
  /** The token verifies but its session has ended (signed out, deactivated). */
  signedOut: boolean;
}
const profiles = new WeakMap<object, Promise<ProfileRead>>();

interface CurrentProfile {
  /** Whether the token's session is still live (the database answers for live sessions only). */
  signed_in: boolean;
  profile: UserProfile | null;
}

async function loadProfile(supabase: Supabase, authUserId: string): Promise<ProfileRead> {
  // One call: the row, the account's name (the shell shows it) and whether
  // the session is live (public.current_profile).
  // As a GET, so a brief backend outage is retried like any read (resilient-fetch.ts).
  const { data, error, status } = await supabase.rpc('current_profile', undefined, { get: true });
  // The session verified without the backend (decision 024): this is the
  // page's first word from it, and silence is an outage, not a missing row.
  if (error && backendUnreachable(status)) {
    console.error(`backend unreachable reading the users record: ${error.message}`);
    throw serviceUnavailable();
  }
  if (error) {
    console.error(`users record of ${authUserId} failed to load: ${error.message}`);
    return { profile: null, signedOut: false };
  }
  const answer = data as unknown as CurrentProfile | null;
  // Their session was signed out (or ended by a deactivation).
  if (!answer?.signed_in) return { profile: null, signedOut: true };
  if (!answer.profile) console.error(`users record of ${authUserId} not found`);
  return { profile: answer.profile, signedOut: false };
}

/** The verified session, or a redirect to sign in (back to here afterwards). */
async function requireSession(request: Request, requestSupabase: RequestSupabase): Promise<SessionUser> {
  const authUser = await requestSupabase.getUser();
  if (authUser) return authUser;
  const url = new URL(request.url);
  const here = `${url.pathname.replace(/\.data$/, '')}${url.search}`;
  const search = here === '/' ? '' : `?redirectTo=${encodeURIComponent(here)}`;
  throw redirect(`/auth${search}`);
}

async function signedInAs(requestSupabase: RequestSupabase, authUser: SessionUser): Promise<SignedIn> {
  const { supabase } = requestSupabase;
  let pending = profiles.get(requestSupabase);
  if (!pending) {
    pending = loadProfile(supabase, authUser.id);
    profiles.set(requestSupabase, pending);
  }
  const { profile, signedOut } = await pending;
  // A signed-out or deactivated user may still hold a token that verifies until
  // it expires. The database refuses it everything (every policy asks for a
  // live session and an active users row), and they are signed out here.
  if (signedOut || (profile && !profile.is_active)) {
    await supabase.auth.signOut({ scope: 'local' });
    throw redirect('/auth');
  }
  return { supabase, authUser, profile };
}

export async function requireUser(request: Request, context: Readonly<RouterContextProvider>): Promise<SignedIn> {
  const requestSupabase = getRequestSupabase(context);
  return signedInAs(requestSupabase, await requireSession(request, requestSupabase));
}

/**
 * The verified session's client, without waiting for the users row: for an
 * action whose write the database refuses for anyone who may not make it
 * (recordAction then chooses the message from the users row).
 */
export async function requireSessionClient(request: Request, context: Readonly<RouterContextProvider>): Promise<Supabase> {
  const requestSupabase = getRequestSupabase(context);
  await requireSession(request, requestSupabase);
  return requestSupabase.supabase;
}

/**
 * requireUser, with the page's own reads started alongside the users row
 * instead of after it: they need only the verified session (row-level security
 * decides what they see), so a page costs one backend round trip, not two.
 * A refused user (signed out, deactivated) gets the same redirect, and what
 * was read for them is dropped.
 */
export async function requireUserWith<T>(
  request: Request,
  context: Readonly<RouterContextProvider>,
  reads: (supabase: Supabase) => PromiseLike<T>,
): Promise<[SignedIn, T]> {
  const requestSupabase = getRequestSupabase(context);
  const authUser = await requireSession(request, requestSupabase);
  const pendingReads = Promise.resolve(reads(requestSupabase.supabase));
  // Nobody awaits them when the user is refused below.
  pendingReads.catch(() => {});
  const signedIn = await signedInAs(requestSupabase, authUser);
  return [signedIn, await pendingReads];
}

/** Signed-in visitors of public entry pages (/, /auth) go to the dashboard. */
export async function redirectSignedInToDashboard(context: Readonly<RouterContextProvider>): Promise<void> {
  if (await getRequestSupabase(context).getUser()) throw redirect('/dashboard');
}
