// The radar's mails (issue 38; decision 092), queued by the jobs runner only: after a feed run that brought
// new or amended notices, the immediate mails of those accounts' searches (a notice scoring at least the
// search's alert score); every minute, the daily digests that are due (queue_radar_digests does each search
// once a day from 07:00 UTC). The database writes which notice went to which search before the mail is
// queued, so a retry or a second runner mails nothing twice. Relative .ts imports: db tests run it in Node.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Database } from '../../../lib/database.types.ts';

export async function queueRadarAlerts(admin: SupabaseClient<Database>, accounts: string[], now: Date): Promise<number> {
  let mailed = 0;
  for (const account of accounts) {
    const { data, error } = await admin.rpc('queue_radar_alerts', { p_account: account, p_now: now.toISOString() });
    if (error) throw new Error(`queuing the radar's alert mails failed: ${error.message}`);
    mailed += (data ?? []).length;
  }
  return mailed;
}

export async function queueRadarDigests(admin: SupabaseClient<Database>, now: Date): Promise<number> {
  const { data, error } = await admin.rpc('queue_radar_digests', { p_now: now.toISOString() });
  if (error) throw new Error(`queuing the radar's daily digests failed: ${error.message}`);
  return (data ?? []).length;
}
