// What the radar screens ask of the database (issue 38; decision 079): the saved searches with one search's
// matches (radar_matches: full-text search, the search's filters, the fit score and its reasons), the
// sources with their fetch state, one opportunity to pursue, and the writes. Each page's reads start together.
import type { Supabase } from '~/lib/supabase.server';
import type { SearchForm, SourceForm } from './radar-schema';

export interface RadarMatch {
  id: string;
  title: string;
  buyer: string | null;
  country: string | null;
  cpv_codes: string[];
  value: number | null;
  currency: string | null;
  deadline: string | null;
  url: string | null;
  change_note: string | null;
  pursued_rfp_id: string | null;
  source_name: string;
  score: number;
  reasons: string[];
}

/** The searches (for the picker) and the chosen one's matches (the first by name when none is chosen). */
export async function loadRadar(supabase: Supabase, searchId: string | null, today: string) {
  const [searches, sources, matches] = await Promise.all([
    supabase.from('tender_searches').select('id, name').order('name').order('id').limit(100),
    supabase.from('tender_sources').select('id', { count: 'exact', head: true }),
    // A null search: the account's first by name (the function says so).
    supabase.rpc('radar_matches', { p_search: searchId as string, p_today: today, p_limit: 100 }),
  ]);
  for (const failed of [searches.error, sources.error, matches.error]) if (failed) console.error(`radar failed to load: ${failed.message}`);
  const rows = (matches.data ?? []) as RadarMatch[];
  return {
    searches: searches.data ?? [],
    sourceCount: sources.count ?? 0,
    matches: rows.map((row) => ({ ...row, value: row.value === null ? null : Number(row.value) })),
    // The search the matches are of: the one asked for, else the first.
    searchId: (matches.data as { search_id: string }[] | null)?.[0]?.search_id ?? searchId ?? searches.data?.[0]?.id ?? null,
    failed: Boolean(searches.error || matches.error),
  };
}

export async function loadRadarSettings(supabase: Supabase) {
  const [sources, searches] = await Promise.all([
    supabase.from('tender_sources').select('id, name, url, format, query, last_error, last_fetched_at, next_fetch_at').order('name').order('id').limit(200),
    supabase.from('tender_searches').select('id, name, keywords, cpv_codes, countries, min_value, min_currency, horizon_days, alert_score').order('name').order('id').limit(200),
  ]);
  for (const failed of [sources.error, searches.error]) if (failed) console.error(`radar settings failed to load: ${failed.message}`);
  return { sources: sources.data ?? [], searches: searches.data ?? [], failed: Boolean(sources.error || searches.error) };
}

/** The notice a bid is pursued from: its values prefill the New RFP Response dialog. */
export async function loadOpportunity(supabase: Supabase, id: string) {
  const { data, error } = await supabase.from('opportunities')
    .select('id, title, buyer, value, currency, deadline, url, pursued_rfp_id').eq('id', id).maybeSingle();
  if (error) console.error(`opportunity failed to load: ${error.message}`);
  return data;
}

export function saveSource(supabase: Supabase, form: SourceForm, id?: string) {
  const row = { name: form.name, url: form.url, format: form.format, query: form.query || null };
  return id
    ? supabase.from('tender_sources').update(row).eq('id', id).select('id').maybeSingle()
    : supabase.from('tender_sources').insert(row).select('id').single();
}

export function saveSearch(supabase: Supabase, form: SearchForm, id?: string) {
  const row = {
    name: form.name, keywords: form.keywords, cpv_codes: form.cpv_codes, countries: form.countries,
    min_value: form.min_value ?? null, min_currency: form.min_currency ?? null, horizon_days: form.horizon_days,
    alert_score: form.alert_score,
  };
  return id
    ? supabase.from('tender_searches').update(row).eq('id', id).select('id').maybeSingle()
    : supabase.from('tender_searches').insert(row).select('id').single();
}

export function deleteRadarRow(supabase: Supabase, table: 'tender_sources' | 'tender_searches', id: string) {
  return supabase.from(table).delete().eq('id', id).select('id').maybeSingle();
}

export function dismissOpportunity(supabase: Supabase, id: string, reason: string | undefined) {
  return supabase.from('opportunities').update({ dismissed: true, dismiss_reason: reason?.trim() || null }).eq('id', id).select('id').maybeSingle();
}

export function markPursued(supabase: Supabase, opportunityId: string, rfpId: string) {
  return supabase.from('opportunities').update({ pursued_rfp_id: rfpId }).eq('id', opportunityId).select('id').maybeSingle();
}

/** The first message of a refused form, after the screen's failure text ('Failed to dismiss …: Reason must be …'). */
export const firstError = (failed: string) => (errors: Record<string, string[] | null>) => {
  const message = Object.values(errors).flatMap((list) => list ?? [])[0];
  return message ? `${failed}: ${message}` : failed;
};
