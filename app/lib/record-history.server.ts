// A record's history: the audit rows about it, read through
// record_history (members do not read the audit log itself; the function
// gives the account's staff the rows of one record, with who acted by name).
// `resourceType` is a type of private.record_types; an unknown one reads nothing.
import type { Supabase } from '~/lib/supabase.server';
import type { HistoryEntry } from '~/lib/record-history';

export async function loadHistory(supabase: Supabase, resourceType: string, id: string) {
  const { data, error } = await supabase.rpc('record_history', { p_resource_type: resourceType, p_resource_id: id });
  // A history that fails to load is logged and said so; the record above still shows.
  if (error) console.error(`${resourceType} history failed to load: ${error.message}`);
  const entries: HistoryEntry[] = (data ?? []).map((row) => ({
    id: row.id,
    action: row.action,
    at: row.created_at,
    actor: (row.actor_name as string | null) ?? null,
    actorKind: actorKind(row.actor_kind as string | null),
    actorEmail: (row.actor_email as string | null) ?? null,
    oldValues: asRecord(row.old_values),
    newValues: asRecord(row.new_values),
  }));
  return { entries, failed: error !== null };
}

function actorKind(value: string | null): HistoryEntry['actorKind'] {
  return value === 'user' || value === 'client' || value === 'system' ? value : null;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
