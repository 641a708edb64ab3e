// What the settings screens add to the record kit (app/lib/records.server.ts):
// the signed-in user, their users row and what their role may do here (admins
// change settings, auditors only read them, everyone else is restricted; the
// database refuses the same, the UI only spares them a form that would fail).
import { parseWithZod } from '@conform-to/zod/v4';
import type { RouterContextProvider } from 'react-router';
import type { z } from 'zod';
import { requireUser, requireUserWith, type SignedIn, type UserProfile } from '~/lib/auth.server';
import { readFormData } from '~/lib/forms.server';
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
  return settingsUser(await requireUser(request, context));
}

function settingsUser(signedIn: SignedIn): SettingsUser {
  const role = signedIn.profile?.role;
  return { ...signedIn, isAdmin: role === 'admin', canRead: canReadSettings(role) };
}

/**
 * requireSettingsUser with the screen's reads alongside the users row (see
 * requireUserWith); the screen shows them only when `canRead` (for anyone else
 * the database returned nothing of the account's anyway).
 */
export async function requireSettingsUserWith<T>(
  request: Request,
  context: Readonly<RouterContextProvider>,
  reads: (supabase: SignedIn['supabase']) => PromiseLike<T>,
): Promise<[SettingsUser, T]> {
  const [signedIn, read] = await requireUserWith(request, context, reads);
  return [settingsUser(signedIn), read];
}

/**
 * A settings form posted by anyone but an admin (a hand-made post, or a page
 * kept open after a role change): refused with a 403 and the screen's
 * restriction text, before the database is asked (it would refuse too).
 */
export function refuseNonAdmin(args: ToastArgs, user: SettingsUser, message: string) {
  return user.isAdmin ? null : dataWithError(args, { restricted: true as const }, message, { status: 403 });
}

/**
 * How every settings action starts: the user, refused unless an admin (with
 * the screen's restriction text), then the form parsed with the screen's
 * schema. Either the refusal to answer, or the user and the submission.
 */
export async function readAdminForm<Schema extends z.ZodType>(args: ToastArgs, schema: Schema, restricted: string) {
  const user = await requireSettingsUser(args.request, args.context);
  const refused = refuseNonAdmin(args, user, restricted);
  if (refused) return { refused } as const;
  const submission = parseWithZod(await readFormData(args.request), { schema });
  return { user, submission } as const;
}
