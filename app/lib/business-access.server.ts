// Who may change the business records (leads, clients, quotes): admins and
// members. Auditors read them; their posts are refused here with a 403 before
// the database is asked (its policies refuse them too). Clients and suppliers
// never reach these screens (app-layout's outsiders middleware).
import type { RouterContextProvider } from 'react-router';
import type { UserProfile } from '~/lib/auth.server';
import { canWriteBusiness } from '~/lib/roles';
import { dataWithError } from '~/lib/toast.server';

export const READ_ONLY_MESSAGE = 'Your role can view these records but not change them';

export function refuseReadOnly(
  args: { request: Request; context: Readonly<RouterContextProvider> },
  profile: UserProfile | null,
) {
  // Without a users row the action answers 'User account not found' itself.
  if (!profile || canWriteBusiness(profile.role)) return null;
  return dataWithError(args, { result: undefined }, READ_ONLY_MESSAGE, { status: 403 });
}
