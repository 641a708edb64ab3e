// Who is calling a function: their token is checked with GoTrue, then their
// public.users row read with the service role.
import type { FunctionDeps } from './deps.ts';
import { HttpError } from './http.ts';

export interface CallerProfile {
  id: string;
  account_id: string;
  auth_user_id: string;
  role: string;
  is_active: boolean;
  email: string;
  first_name: string | null;
  last_name: string | null;
}

/** How mails name the caller: their name, else their address. */
export function callerName(caller: Pick<CallerProfile, 'email' | 'first_name' | 'last_name'>): string {
  return [caller.first_name, caller.last_name].filter(Boolean).join(' ').trim() || caller.email;
}

export function bearerToken(request: Request): string {
  const header = request.headers.get('Authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new HttpError(401, 'Missing authorization');
  return match[1];
}

/** The signed-in, active caller who must be an admin of their account. */
export async function requireAdminCaller(request: Request, deps: FunctionDeps, deniedMessage: string): Promise<CallerProfile> {
  const token = bearerToken(request);
  const { data: auth, error: authError } = await deps.admin.auth.getUser(token);
  if (authError || !auth.user) throw new HttpError(401, 'Invalid or expired session');

  const { data: profile, error } = await deps.admin
    .from('users')
    .select('id, account_id, auth_user_id, role, is_active, email, first_name, last_name')
    .eq('auth_user_id', auth.user.id)
    .maybeSingle<CallerProfile>();
  if (error) throw new Error(`reading caller profile: ${error.message}`);
  if (!profile || !profile.is_active) throw new HttpError(403, 'User account not found');
  if (profile.role !== 'admin') throw new HttpError(403, deniedMessage);
  return profile;
}
