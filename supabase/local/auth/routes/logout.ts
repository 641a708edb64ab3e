// POST /logout?scope=global|local|others: deletes sessions (and with them their
// refresh tokens), so signing out takes effect on the server.
import type { BackendContext } from '../../context.ts';
import { requireUser } from '../guards.ts';
import { badRequest, noContent } from '../http.ts';
import { deleteSession, deleteUserSessions } from '../sessions.ts';

export async function logout(request: Request, ctx: BackendContext): Promise<Response> {
  const scope = new URL(request.url).searchParams.get('scope') || 'global';
  if (scope !== 'global' && scope !== 'local' && scope !== 'others') {
    throw badRequest('validation_failed', `Unsupported logout scope "${scope}"`);
  }
  const { user, session } = await requireUser(request, ctx);
  await ctx.db.transaction(async (tx) => {
    // A token without a session can only be signed out everywhere.
    if (session && scope === 'local') return deleteSession(tx, session.id);
    if (session && scope === 'others') return deleteUserSessions(tx, user.id, session.id);
    return deleteUserSessions(tx, user.id);
  });
  return noContent();
}
