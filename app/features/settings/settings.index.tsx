// /settings opens the first settings screen the user may use, in the menu's
// order: the website settings belong to the master account's admin alone, so
// every other admin and auditor starts on Modules. Anyone else (who may use
// none of them) sees the first screen's 'Access Restricted'.
import { redirect } from 'react-router';
import type { Route } from './+types/settings.index';
import { requireSettingsUser } from '~/lib/settings.server';

export async function loader({ request, context }: Route.LoaderArgs) {
  const { supabase, profile, isAdmin, canRead } = await requireSettingsUser(request, context);
  if (!canRead || !profile?.account_id) return redirect('/settings/website');
  if (isAdmin) {
    const { data: isMaster, error } = await supabase.rpc('is_master_account', { p_account_id: profile.account_id });
    if (error) console.error(`settings: master account check failed: ${error.message}`);
    if (isMaster) return redirect('/settings/website');
  }
  return redirect('/settings/modules');
}
