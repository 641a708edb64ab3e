// manage-user-role {user_id, new_role, first_name, last_name}: an admin edits
// a user of their own account. The update runs as the caller, so the
// database's RLS and guards (no changing one's own role) apply as well.
import type { FunctionHandler } from '../_shared/deps.ts';
import { requireAdminCaller } from '../_shared/caller.ts';
import { HttpError, json, postHandler, readJsonObject } from '../_shared/http.ts';
import { optionalName, parseRole, requireUuid } from '../_shared/validate.ts';

interface Member {
  id: string;
  account_id: string;
  auth_user_id: string;
  role: string;
  is_active: boolean;
}

const handler: FunctionHandler = postHandler('manage-user-role', async (request, deps) => {
  const body = await readJsonObject(request);
  const caller = await requireAdminCaller(request, deps, 'Only administrators can manage users');
  const userId = requireUuid(body.user_id, 'user_id');
  const newRole = parseRole(body.new_role);
  const changes: Record<string, string | null> = { role: newRole };
  if ('first_name' in body) changes.first_name = optionalName(body.first_name, 'First name');
  if ('last_name' in body) changes.last_name = optionalName(body.last_name, 'Last name');

  const { data: target, error } = await deps.admin
    .from('users')
    .select('id, account_id, auth_user_id, role, is_active')
    .eq('id', userId)
    .maybeSingle<Member>();
  if (error) throw new Error(`reading user: ${error.message}`);
  // Another account's user is reported exactly like a missing one.
  if (!target || target.account_id !== caller.account_id) throw new HttpError(404, 'User not found');

  if (target.role === 'admin' && newRole !== 'admin') {
    const { count, error: countError } = await deps.admin
      .from('users')
      .select('id', { count: 'exact', head: true })
      .eq('account_id', caller.account_id)
      .eq('role', 'admin')
      .eq('is_active', true)
      .neq('id', target.id);
    if (countError) throw new Error(`counting admins: ${countError.message}`);
    if (!count) throw new HttpError(400, "Cannot demote the account's last admin");
  }
  if (target.id === caller.id && newRole !== caller.role) {
    throw new HttpError(403, 'You cannot change your own role');
  }

  const { data: updated, error: updateError } = await deps
    .asCaller(request.headers.get('Authorization'))
    .from('users')
    .update(changes)
    .eq('id', target.id)
    .select('id, email, first_name, last_name, role, is_active')
    .maybeSingle();
  if (updateError) throw new HttpError(403, updateError.message);
  if (!updated) throw new HttpError(404, 'User not found');

  return json({ user: updated });
});

export default handler;
