// What the settings screens add to the record kit (app/lib/records.server.ts):
// the signed-in user, their users row and what their role may do here (admins
// change settings, auditors only read them, everyone else is restricted; the
// database refuses the same, the UI only spares them a form that would fail).
import type { RouterContextProvider } from 'react-router';
import { requireUser, type SignedIn, type UserProfile } from '~/lib/auth.server';
import { canReadSettings } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';

type ToastArgs = Parameters<typeof dataWithError>[0];

export interface SettingsUser extends SignedIn {
  profile: UserProfile | null;
  isAdmin: boolean;
  /** Admins and auditors see the settings screens; auditors without their buttons. */
  canRead: boolean;
}

export async function requireSettingsUser(
  request: Request,
  context: Readonly<RouterContextProvider>,
): Promise<SettingsUser> {
  const signedIn = await requireUser(request, context);
  const role = signedIn.profile?.role;
  return { ...signedIn, isAdmin: role === 'admin', canRead: canReadSettings(role) };
}

/**
 * A settings form posted by anyone but an admin (a hand-made post, or a page
 * kept open after a role change): refused with a 403 and the screen's
 * restriction text, before the database is asked (it would refuse too).
 */
export function refuseNonAdmin(args: ToastArgs, user: SettingsUser, message: string) {
  return user.isAdmin ? null : dataWithError(args, { restricted: true as const }, message, { status: 403 });
}
