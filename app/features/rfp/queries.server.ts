// What the /rfp screens ask of the database (issue 38): the page of bids (search_rfps for a search, over the
// account-first trigram indexes; decision 037) with the cards of rfp_totals (per currency, never added
// across currencies), one bid with its owner and history, the account's writers to own a bid, and the writes.
import type { Tables } from '~/lib/database.types';
import { searchText, type ListQuery } from '~/lib/list-query';
import { loadHistory } from '~/lib/record-history.server';
import { filterList, readList } from '~/lib/records.server';
import type { Supabase } from '~/lib/supabase.server';
import { markPursued } from './radar.server';
import type { EditedRfp, NewRfpResponse, RfpDecision, RfpStatus } from './schema';

const LIST_COLUMNS = 'id, title, company, value, currency, deadline, status, decision, created_at';
export type RfpRow = Pick<Tables<'rfps'>, 'id' | 'title' | 'company' | 'value' | 'currency' | 'deadline' | 'status' | 'decision' | 'created_at'>;

export interface RfpTotal {
  currency: string;
  openCount: number;
  openValue: number;
  dueThisWeek: number;
  won: number;
  lost: number;
}

/** The page of bids, newest first, searched by title or company and filtered by status, with the cards. */
export async function loadRfps(supabase: Supabase, query: ListQuery<RfpStatus>, today: string) {
  const search = searchText(query.q);
  const matching = search
    ? supabase.rpc('search_rfps', { p_query: search }, { get: true, count: 'exact' }).select(LIST_COLUMNS)
    : supabase.from('rfps').select(LIST_COLUMNS, { count: 'exact' });
  const [totalsResult, list] = await Promise.all([
    supabase.rpc('rfp_totals', { p_today: today }),
    readList<RfpRow, RfpStatus>(filterList(matching, query), query, 'rfps'),
  ]);
  // Cards that fail to load are logged and left out: the list below still works.
  if (totalsResult.error) console.error(`rfp totals failed to load: ${totalsResult.error.message}`);
  const totals: RfpTotal[] = (totalsResult.data ?? []).map((row) => ({
    currency: row.currency, openCount: row.open_count, openValue: Number(row.open_value), dueThisWeek: row.due_this_week,
    won: row.won_count, lost: row.lost_count,
  }));
  return { totals, totalsFailed: totalsResult.error !== null, list };
}

/** One bid of the caller's account with its owner, its history and who may own it; null when there is none it may read. */
export async function loadRfp(supabase: Supabase, id: string) {
  const [{ data: found, error }, history, writers] = await Promise.all([
    supabase.from('rfps').select('*, owner:users!rfps_owner_id_account_id_fkey(first_name, last_name, email)').eq('id', id).maybeSingle(),
    loadHistory(supabase, 'rfp', id),
    supabase.from('users').select('id, first_name, last_name, email').eq('is_active', true).in('role', ['admin', 'member']).order('email').limit(200),
  ]);
  if (error) console.error(`rfp failed to load: ${error.message}`);
  if (!found) return null;
  const { owner, ...rfp } = found;
  const owners = (writers.data ?? []).map((u) => ({ value: u.id, label: personName(u) }));
  return { rfp, owner: owner ? personName(owner) : null, history, owners };
}

const personName = (u: { first_name: string | null; last_name: string | null; email: string }) =>
  [u.first_name, u.last_name].filter(Boolean).join(' ') || u.email;

/** The account and currency are the database's to fill in (the caller's account; USD, as the dialog says). */
export async function insertRfp(supabase: Supabase, form: NewRfpResponse) {
  const { opportunity_id: opportunityId, currency, ...row } = form;
  const created = await supabase
    .from('rfps')
    .insert({ ...row, currency: currency ?? 'USD', additional_notes: row.additional_notes || null })
    .select('id, title')
    .single();
  // Pursued from the radar: the opportunity says so (and links the bid); a failure there leaves the bid made.
  if (opportunityId && created.data) {
    const { error } = await markPursued(supabase, opportunityId, created.data.id);
    if (error) console.error(`marking opportunity ${opportunityId} pursued failed: ${error.message}`);
  }
  return created;
}

export function updateRfp(supabase: Supabase, id: string, form: EditedRfp) {
  const { intent: _intent, ...values } = form;
  return supabase
    .from('rfps')
    .update({ ...values, additional_notes: values.additional_notes || null, owner_id: values.owner_id ?? null })
    .eq('id', id).select('id').maybeSingle();
}

export function setRfpStatus(supabase: Supabase, id: string, status: RfpStatus) {
  return supabase.from('rfps').update({ status }).eq('id', id).select('id').maybeSingle();
}

export function decideRfp(supabase: Supabase, id: string, decision: RfpDecision, reasons: string | undefined) {
  return supabase.from('rfps').update({ decision, decision_reasons: reasons?.trim() || null }).eq('id', id).select('id').maybeSingle();
}

export function deleteRfp(supabase: Supabase, id: string) {
  return supabase.from('rfps').delete().eq('id', id).select('id').maybeSingle();
}
