// What the Leads screen asks of the database: a page of the account's leads
// (searched by name, email or company, filtered by status) with the summary's
// figures, and the insert of a new lead.
import { searchText, type ListQuery } from '~/lib/list-query';
import { filterList, readList, withSummaryTotal } from '~/lib/records.server';
import { loadHistory } from '~/lib/record-history.server';
import type { Supabase } from '~/lib/supabase.server';
import type { LeadStatus, NewLead } from './schema';

const LIST_COLUMNS = 'id, name, company, email, phone_whatsapp, status, interest, created_at';

/**
 * The page of leads with its total, read so that neither grows with the
 * account: a text search (name, email or company) goes through search_leads,
 * which reads only the account's matches from its indexes, and counts them;
 * otherwise the total is the summary's, for all leads or for the status
 * filtered by (kept by the lead_stats rollup).
 */
export async function loadLeads(supabase: Supabase, query: ListQuery<LeadStatus>) {
  const search = searchText(query.q);
  const matching = search
    ? supabase.rpc('search_leads', { p_query: search }, { get: true, count: 'exact' }).select(LIST_COLUMNS)
    : supabase.from('leads').select(LIST_COLUMNS);
  const [summaryResult, list] = await Promise.all([
    supabase.rpc('lead_summary').single(),
    readList(filterList(matching, query), query, 'leads'),
  ]);
  // A summary that fails to load is logged and reads 0: the list below still works.
  if (summaryResult.error) console.error(`lead summary failed to load: ${summaryResult.error.message}`);
  const summary = summaryResult.data ?? { total_count: 0, new_this_week: 0, qualified_count: 0, conversion_rate: 0, status_counts: {} };
  return {
    summary: {
      total: Number(summary.total_count),
      newThisWeek: Number(summary.new_this_week),
      qualified: Number(summary.qualified_count),
      conversionRate: Number(summary.conversion_rate),
    },
    list: withSummaryTotal(list, search !== null, summaryTotal(summaryResult.error ? null : summary, query.status)),
  };
}

/** The list's total without a search: all leads, or those of the status filtered by; none when the summary failed. */
function summaryTotal(summary: { total_count: number; status_counts: unknown } | null, status: LeadStatus | null): number | null {
  if (!summary) return null;
  if (!status) return Number(summary.total_count);
  const counts = (summary.status_counts ?? {}) as Partial<Record<LeadStatus, number>>;
  return Number(counts[status] ?? 0);
}

/** A row of the list: the columns loadLeads selects. */
export type LeadRow = Awaited<ReturnType<typeof loadLeads>>['list']['rows'][number];

/** The columns a lead's fields are written to, from its form. */
function leadValues(lead: NewLead) {
  return {
    name: lead.name,
    email: lead.email,
    phone_whatsapp: lead.phone_whatsapp || null,
    company: lead.company,
    role: lead.role || null,
    source: lead.source,
    notes: lead.notes || null,
    interest: lead.interest,
  };
}

/** A new lead starts as 'new'; qualifying it is a later step. Returns it, for the toast's link. */
export function insertLead(supabase: Supabase, lead: NewLead) {
  return supabase
    .from('leads')
    .insert({ ...leadValues(lead), status: 'new' })
    .select('id, name')
    .single();
}

const DETAIL_COLUMNS =
  'id, name, email, phone_whatsapp, company, role, source, notes, interest, status, contact_id, created_at, updated_at';

/** One lead of the account (RLS: staff only), the client it was converted to, and its history. */
export async function loadLead(supabase: Supabase, id: string) {
  // One round trip: the client it was converted to comes embedded, the history alongside.
  const [{ data: found, error }, history] = await Promise.all([
    supabase.from('leads').select(`${DETAIL_COLUMNS}, client:contacts(id, name)`).eq('id', id).maybeSingle(),
    loadHistory(supabase, 'lead', id),
  ]);
  if (error) throw new Error(`lead failed to load: ${error.message}`);
  if (!found) return null;
  const { client, ...lead } = found;
  return { lead, client, history };
}

export type LeadDetail = NonNullable<Awaited<ReturnType<typeof loadLead>>>['lead'];

/** Saves an edited lead's fields; the row it saved, or null when none (gone, or refused). */
export function updateLead(supabase: Supabase, id: string, lead: NewLead) {
  return supabase.from('leads').update(leadValues(lead)).eq('id', id).select('id').maybeSingle();
}

export function setLeadStatus(supabase: Supabase, id: string, status: LeadStatus) {
  return supabase.from('leads').update({ status }).eq('id', id).select('id, name, status').maybeSingle();
}

/** The client made from the lead (or the one it already has), in one transaction with the lead's update. */
export function convertLead(supabase: Supabase, id: string) {
  return supabase.rpc('convert_lead', { p_lead_id: id });
}
